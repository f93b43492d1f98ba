import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { History } from '../history';
import { applyPatch } from '../patch';
import type { PaintClass } from '../paint/paintRule';
import { TOOL_IDS } from './createTool';
import { ToolDriver } from './toolDriver';
import type { ToolId } from './types';

const W = 40;
const H = 30;

const point = fc.tuple(fc.double({ min: -5, max: W + 5, noNaN: true }), fc.double({ min: -5, max: H + 5, noNaN: true }));
const gestureArb = fc.record({
  tool: fc.constantFrom<ToolId>(...TOOL_IDS),
  points: fc.array(point, { minLength: 1, maxLength: 6 }),
  button: fc.constantFrom(0, 2),
  alt: fc.boolean(),
  activeClass: fc.constantFrom<PaintClass>(0, 1, 2),
  protect: fc.boolean(),
  brushSize: fc.integer({ min: 1, max: 12 }),
  cancel: fc.boolean(),
});

type Gesture = typeof gestureArb extends fc.Arbitrary<infer T> ? T : never;

/** Runs one gesture the way a person would with each tool, cancelling it when asked. */
function perform(d: ToolDriver, g: Gesture): void {
  const b = { button: g.button, alt: g.alt };
  if (g.tool === 'polygon') {
    for (const [x, y] of g.points) d.click(x, y, b);
    if (g.cancel) d.key('Escape');
    else d.key('Enter');
    d.tool.cancel(); // an unclosable polygon (< 3 vertices) is dropped
    return;
  }
  const [first, ...rest] = g.points;
  d.down(first[0], first[1], b);
  for (const [x, y] of rest) d.move(x, y, b);
  if (g.cancel) d.tool.cancel();
  const last = g.points[g.points.length - 1];
  d.up(last[0], last[1], b);
  // A fill that leaks to the border or over half the frame waits for a yes (Enter).
  if (d.tool.busy) d.key('Enter');
}

describe('every tool: one gesture = at most one patch, cancel restores, undo restores (property)', () => {
  it('holds for random gestures on random maps, and History undoes and redoes the whole session', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: W * H, maxLength: W * H, max: 2 }), fc.array(gestureArb, { minLength: 1, maxLength: 8 }), (data, gestures) => {
        const map = { width: W, height: H, data: data.slice() };
        const history = new History();
        const states = [map.data.slice()];
        for (const g of gestures) {
          const d = new ToolDriver(map, g.tool, { activeClass: g.activeClass, protect: g.protect, brushSize: g.brushSize, hitRadius: 2 });
          const before = map.data.slice();
          perform(d, g);
          expect(d.tool.busy).toBe(false);
          expect(d.ctx.commits.length).toBeLessThanOrEqual(1);
          if (g.cancel || d.ctx.commits.length === 0) {
            expect(map.data).toEqual(before);
            expect(d.ctx.commits).toHaveLength(0);
            continue;
          }
          const patch = d.ctx.commits[0];
          const after = map.data.slice();
          applyPatch(map, patch, 'undo');
          expect(map.data).toEqual(before);
          applyPatch(map, patch, 'redo');
          expect(map.data).toEqual(after);
          history.commit(patch);
          states.push(after);
        }
        for (let k = states.length - 2; k >= 0; k--) {
          expect(history.undo(0, map)).not.toBeNull();
          expect(map.data).toEqual(states[k]);
        }
        for (let k = 1; k < states.length; k++) {
          expect(history.redo(0, map)).not.toBeNull();
          expect(map.data).toEqual(states[k]);
        }
      }),
      { numRuns: 150 },
    );
  });
});
