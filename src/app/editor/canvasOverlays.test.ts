import { describe, expect, it } from 'vitest';
import { orderOverlays, type CanvasOverlay } from '../../annotator/ui/canvasOverlays';
import { ANNOTATOR_OVERLAYS } from '../../annotator/ui/overlays/annotatorOverlays';
import { ROOM_OVERLAYS } from './roomOverlays';

const Nothing = () => null;
const overlay = (id: string, z: number): CanvasOverlay => ({ id, z, Component: Nothing });

describe('canvas overlays', () => {
  it('are drawn bottom to top by their declared z, whatever order the rooms list them in', () => {
    const order = orderOverlays([overlay('pins', 70), overlay('image', 10), overlay('preview', 90), overlay('outlines', 40)]);
    expect(order.map((o) => o.id)).toEqual(['image', 'outlines', 'pins', 'preview']);
  });

  it('refuse two overlays with one id or one z', () => {
    expect(() => orderOverlays([overlay('pins', 70), overlay('pins', 71)])).toThrow(/two canvas overlays are named "pins"/);
    expect(() => orderOverlays([overlay('pins', 70), overlay('flag', 70)])).toThrow(/"pins" and "flag" both declare z 70/);
  });

  it("every room's overlays resolve to the order docs/architecture.md documents", () => {
    const order = orderOverlays([...ANNOTATOR_OVERLAYS, ...ROOM_OVERLAYS]).map((o) => `${o.z} ${o.id}`);
    expect(order).toEqual([
      '10 review-image',
      '20 reviewer-image',
      '30 label-preview',
      '40 proposal-outlines',
      '50 sam-preview',
      '60 instance-labels',
      '65 relations',
      '70 comment-pins',
      '80 flag-focus',
      '90 tool-preview',
    ]);
  });
});
