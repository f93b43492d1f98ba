/**
 * The fallback tool driven headless like the editor drives it (pointer input in image coordinates,
 * keys), against the real classical handler and OpenCV in Node; the host is a plain label map with
 * the real History, so accept/undo are the editor's own.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { History } from '../../../annotator/history';
import type { Patch } from '../../../annotator/patch';
import type { PaintClass } from '../../../annotator/paint/paintRule';
import { ClassicalClient } from '../../classical/classicalClient';
import { inProcessTransport } from '../../../rpc/transport';
import { FallbackTool } from './fallbackTool';
import { createClassicalHandler } from '../../classical/handler';
import { iou, paintDisc, texture } from '../../classical/synthetic';
import { nodeCv } from '../../../testing/opencv';
import { labelsPatch } from '../../../annotator/frameOps';

const client = new ClassicalClient(inProcessTransport(createClassicalHandler(nodeCv)));
afterAll(() => client.close());

function setup() {
  const image = texture(240, 180, 8);
  const disc = paintDisc(image, 120, 90, 40, [250, 230, 60]);
  const map = { width: 240, height: 180, data: new Uint8Array(240 * 180) };
  const history = new History();
  const commits: Patch[] = [];
  const host = {
    map,
    frameIndex: 0,
    activeClass: 1 as PaintClass,
    protect: true,
    // What EditorSession.edit does on the shown frame, minus storage: diff, apply, one undo step.
    edit: (action: string, compute: (m: typeof map) => Uint8Array | null) => {
      const next = compute(map);
      const p = next ? labelsPatch(map, next, 0, action) : null;
      if (p) {
        commits.push(p);
        history.commit(p);
      }
      return p;
    },
  };
  const tool = new FallbackTool({ backend: () => Promise.resolve(client), getImage: () => Promise.resolve(image) });
  return { image, disc, map, history, commits, host, tool };
}

const at = (x: number, y: number, extra: Partial<{ shift: boolean; alt: boolean; button: number }> = {}) => ({ x, y, button: 0, shift: false, alt: false, ...extra });

/** Resolves once the tool has finished its current computation. */
function settled(tool: FallbackTool): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      if (tool.status !== 'working' && tool.status !== 'loading') {
        off();
        resolve();
      }
    };
    const off = tool.subscribe(check);
    check();
  });
}

describe('FallbackTool', () => {
  it('drag -> GrabCut preview, Enter -> one patch in the active class, undo restores', async () => {
    const { disc, map, history, commits, host, tool } = setup();
    await tool.setFrame(host);
    expect(tool.status).toBe('ready');
    expect(tool.loadMs).toBeGreaterThanOrEqual(0);
    tool.onPointerDown(at(70, 40));
    tool.onPointerMove(at(120, 90));
    expect(tool.preview?.box).toEqual({ x0: 70, y0: 40, x1: 120, y1: 90, op: 'replace' });
    tool.onPointerUp(at(170, 140));
    await settled(tool);
    expect(tool.message).toMatch(/^GrabCut: \d+ px/);
    expect(iou(tool.preview!.mask!.data, disc)).toBeGreaterThan(0.9);
    expect(map.data.some((v) => v !== 0)).toBe(false); // a preview only
    expect(tool.onKey('Enter')).toBe(true);
    expect(commits).toHaveLength(1);
    expect(iou(map.data, disc, 1)).toBeGreaterThan(0.9);
    expect(tool.preview).toBeNull();
    history.undo(0, map);
    expect(map.data.some((v) => v !== 0)).toBe(false);
  });

  it('click -> colour region; Shift+click adds, Alt+click removes; Escape clears; protect keeps the other class', async () => {
    const { disc, map, commits, host, tool } = setup();
    // Part of the disc is already transformed: protected, it stays so.
    for (let i = 0; i < map.data.length; i++) if (disc[i] && i % 240 < 100) map.data[i] = 2;
    await tool.setFrame(host);
    tool.onPointerDown(at(130, 95));
    tool.onPointerUp(at(130, 95));
    await settled(tool);
    const one = tool.area;
    expect(iou(tool.preview!.mask!.data, disc)).toBeGreaterThan(0.9);
    tool.onPointerDown(at(10, 10, { shift: true }));
    tool.onPointerUp(at(10, 10, { shift: true }));
    await settled(tool);
    expect(tool.area).toBeGreaterThan(one);
    tool.onPointerDown(at(10, 10, { alt: true }));
    tool.onPointerUp(at(10, 10, { alt: true }));
    await settled(tool);
    expect(tool.area).toBe(one);
    expect(tool.onKey('Escape')).toBe(true);
    expect(tool.preview).toBeNull();
    expect(tool.onKey('Enter')).toBe(false);
    expect(commits).toHaveLength(0);
    tool.onPointerDown(at(130, 95));
    tool.onPointerUp(at(130, 95));
    await settled(tool);
    tool.onKey('Enter');
    expect(commits).toHaveLength(1);
    let trfKept = true;
    for (let i = 0; i < map.data.length; i++) if (disc[i] && i % 240 < 100 && map.data[i] !== 2) trfKept = false;
    expect(trfKept).toBe(true);
    expect(map.data.filter((v) => v === 1).length).toBeGreaterThan(0);
  });

  it('quick Shift+clicks all count: results are applied in click order even when they overlap in flight', async () => {
    const click = (tool: FallbackTool, x: number, y: number, shift = false) => {
      tool.onPointerDown(at(x, y, { shift }));
      tool.onPointerUp(at(x, y, { shift }));
    };
    const one = setup();
    await one.tool.setFrame(one.host);
    click(one.tool, 130, 95);
    await settled(one.tool);
    click(one.tool, 10, 10, true);
    await settled(one.tool);
    click(one.tool, 220, 160, true);
    await settled(one.tool);
    const sequential = one.tool.area;

    const two = setup();
    await two.tool.setFrame(two.host);
    click(two.tool, 130, 95);
    await settled(two.tool);
    click(two.tool, 10, 10, true);
    click(two.tool, 220, 160, true); // before the first Shift+click's result is back
    await settled(two.tool);
    await new Promise((r) => setTimeout(r, 0));
    await settled(two.tool);
    expect(two.tool.area).toBe(sequential);
    expect(sequential).toBeGreaterThan(0);
  });

  it('Alt+click with nothing previewed removes nothing and adds nothing: Enter has nothing to accept', async () => {
    const { map, commits, host, tool } = setup();
    await tool.setFrame(host);
    tool.onPointerDown(at(130, 95, { alt: true }));
    tool.onPointerUp(at(130, 95, { alt: true }));
    await settled(tool);
    expect(tool.area).toBe(0);
    tool.onKey('Enter');
    expect(commits).toHaveLength(0);
    expect(map.data.some((v) => v !== 0)).toBe(false);
  });

  it('scissors mode: three or more clicks around the disc preview the region inside the edge path', async () => {
    const { disc, host, tool } = setup();
    await tool.setFrame(host);
    tool.setMode('scissors');
    const anchors = [0, 1, 2, 3, 4, 5].map((k) => ({ x: 120 + 40 * Math.cos((k * Math.PI) / 3), y: 90 + 40 * Math.sin((k * Math.PI) / 3) }));
    for (const [i, p] of anchors.entries()) {
      tool.onPointerDown(at(p.x, p.y));
      tool.onPointerUp(at(p.x, p.y));
      await settled(tool);
      if (i < 2) expect(tool.area).toBe(0);
    }
    expect(tool.preview?.points).toHaveLength(6);
    expect(tool.message).toMatch(/^scissors: \d+ px/);
    expect(iou(tool.preview!.mask!.data, disc)).toBeGreaterThan(0.9);
  });

  it('says why when OpenCV cannot load', async () => {
    const { host } = setup();
    const tool = new FallbackTool({ backend: () => Promise.reject(new Error('worker script failed')), getImage: () => Promise.reject(new Error('x')) });
    await tool.setFrame(host);
    expect(tool.status).toBe('error');
    expect(tool.message).toContain('worker script failed');
  });
});
