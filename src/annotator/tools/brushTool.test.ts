import { describe, expect, it } from 'vitest';
import { boxUnion } from '../../masks/geometry';
import { labelArea } from '../../masks/geometry';
import { createLabelMap, type Box, type LabelMap } from '../../masks/labelMap';
import { applyPatch } from '../patch';
import { ToolDriver } from './toolDriver';

function covers(outer: Box, inner: Box): boolean {
  return inner.x >= outer.x && inner.y >= outer.y && inner.x + inner.w <= outer.x + outer.w && inner.y + inner.h <= outer.y + outer.h;
}

function changedBox(a: Uint8Array, b: Uint8Array, width: number): Box | null {
  let box: Box | null = null;
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== b[i]) {
      const p = { x: i % width, y: Math.floor(i / width), w: 1, h: 1 };
      box = box ? boxUnion(box, p) : p;
    }
  }
  return box;
}

/** A 200 x 100 map: left half transformed (2), right half background. */
function halfTransformed(): LabelMap {
  const map = createLabelMap(200, 100);
  for (let y = 0; y < 100; y++) map.data.fill(2, y * 200, y * 200 + 100);
  return map;
}

describe('BrushTool', () => {
  it('one stroke = one patch, covering about 2rL + pi r^2 pixels', () => {
    const map = createLabelMap(400, 200);
    const d = new ToolDriver(map, 'brush', { brushSize: 20 });
    // Fast moves: 50 px per event with a 10 px radius must still leave no gap.
    d.drag([[50, 100], [100, 100], [150, 100], [200, 100], [250, 100], [300, 100]]);
    expect(d.ctx.commits).toHaveLength(1);
    const expected = 2 * 10 * 250 + Math.PI * 100;
    expect(Math.abs(labelArea(map, 1) - expected) / expected).toBeLessThan(0.01);
    for (let x = 50; x < 300; x++) expect(map.data[100 * 400 + x]).toBe(1);
    const patch = d.ctx.commits[0];
    expect(patch.action).toBe('brush');
    expect(patch.box).toEqual({ x: 40, y: 90, w: 270, h: 20 });
    expect(d.tool.busy).toBe(false);
  });

  it('shift-press draws a straight line from the last stroke end, as one patch with the new stroke', () => {
    const map = createLabelMap(400, 200);
    const d = new ToolDriver(map, 'brush', { brushSize: 10 });
    d.click(50, 50);
    d.click(250, 150, { shift: true });
    expect(d.ctx.commits).toHaveLength(2);
    // Every pixel on the segment (50,50)-(250,150) is painted; the capsule has area 2rL + pi r^2.
    for (let t = 0; t <= 1; t += 0.01) expect(map.data[Math.round(50 + 100 * t) * 400 + Math.round(50 + 200 * t)]).toBe(1);
    const length = Math.hypot(200, 100);
    const expected = 2 * 5 * length + Math.PI * 25;
    expect(Math.abs(labelArea(map, 1) - expected) / expected).toBeLessThan(0.02);
    // Undoing the second patch removes the line but keeps the first dot.
    applyPatch(map, d.ctx.commits[1], 'undo');
    expect(labelArea(map, 1)).toBeLessThan(Math.PI * 25 * 1.2);
  });

  it('shift-press without an earlier stroke on this frame is a plain dot', () => {
    const map = createLabelMap(200, 200);
    const d = new ToolDriver(map, 'brush', { brushSize: 10 });
    d.click(50, 50);
    d.ctx.frameIndex = 1;
    d.click(150, 150, { shift: true });
    expect(map.data[100 * 200 + 100]).toBe(0);
    expect(labelArea(map, 1)).toBeLessThan(2 * Math.PI * 25 * 1.2);
  });

  it('invalidates only boxes inside the stroke, and their union covers every changed pixel', () => {
    const map = createLabelMap(300, 300);
    const original = map.data.slice();
    const d = new ToolDriver(map, 'brush', { brushSize: 9 });
    d.drag([[20, 20], [40, 25], [120, 200], [121, 201]]);
    const union = d.ctx.invalidated.reduce(boxUnion);
    const changed = changedBox(original, map.data, 300)!;
    expect(covers(union, changed)).toBe(true);
    expect(d.ctx.invalidated).toHaveLength(4); // down + three moves, nothing else
    expect(covers(union, d.ctx.commits[0].box)).toBe(true);
  });

  it('protect on: painting class 1 leaves class 2 untouched; protect off overwrites it', () => {
    const map = halfTransformed();
    new ToolDriver(map, 'brush', { brushSize: 10, protect: true, activeClass: 1 }).drag([[50, 50], [150, 50]]);
    expect(map.data[50 * 200 + 60]).toBe(2);
    expect(map.data[50 * 200 + 140]).toBe(1);
    new ToolDriver(map, 'brush', { brushSize: 10, protect: false, activeClass: 1 }).drag([[50, 50], [150, 50]]);
    expect(map.data[50 * 200 + 60]).toBe(1);
  });

  it('the eraser erases the other state too while protect is on (protect governs painting only)', () => {
    const map = halfTransformed();
    const d = new ToolDriver(map, 'brush', { brushSize: 10, activeClass: 1, protect: true });
    d.drag([[110, 20], [190, 20]]); // some 1s on the right half
    d.use('eraser');
    d.drag([[20, 20], [190, 20]]); // across the 2s on the left and the 1s on the right
    expect(labelArea(map, 1)).toBe(0);
    expect(map.data[20 * 200 + 50]).toBe(0); // a transformed pixel under the stroke: gone
    expect(labelArea(map, 2)).toBeLessThan(100 * 100);
    expect(d.ctx.commits.map((p) => p.action)).toEqual(['brush', 'erase']);
    // The secondary button of the brush erases the same way.
    d.use('brush');
    d.drag([[50, 70], [60, 70]], { button: 2 });
    expect(map.data[70 * 200 + 55]).toBe(0);
  });

  it('the secondary button erases with the brush tool', () => {
    const map = createLabelMap(50, 50, 1);
    const d = new ToolDriver(map, 'brush', { brushSize: 5 });
    d.drag([[25, 25], [26, 25]], { button: 2 });
    expect(map.data[25 * 50 + 25]).toBe(0);
    expect(d.ctx.commits[0].action).toBe('erase');
  });

  it('Escape mid-stroke restores the pre-gesture pixels exactly and commits nothing', () => {
    const map = halfTransformed();
    for (let i = 0; i < map.data.length; i += 7) map.data[i] = 1;
    const original = map.data.slice();
    const d = new ToolDriver(map, 'brush', { brushSize: 30 });
    d.down(10, 10).move(180, 90).move(20, 80);
    expect(map.data).not.toEqual(original);
    expect(d.key('Escape')).toBe(true);
    expect(map.data).toEqual(original);
    expect(d.ctx.commits).toHaveLength(0);
    expect(covers(d.ctx.invalidated[d.ctx.invalidated.length - 1], changedBox(original, map.data, 200) ?? { x: 0, y: 0, w: 0, h: 0 })).toBe(true);
    // The pointer-up after a cancel does nothing either.
    d.up(20, 80);
    expect(d.ctx.commits).toHaveLength(0);
    expect(d.key('Escape')).toBe(false); // nothing to cancel: the key is not consumed
  });

  it('the committed patch undoes the stroke exactly', () => {
    const map = halfTransformed();
    const original = map.data.slice();
    const d = new ToolDriver(map, 'brush', { brushSize: 12, protect: true });
    d.drag([[90, 10], [110, 90], [130, 10]]);
    const after = map.data.slice();
    applyPatch(map, d.ctx.commits[0], 'undo');
    expect(map.data).toEqual(original);
    applyPatch(map, d.ctx.commits[0], 'redo');
    expect(map.data).toEqual(after);
  });

  it('a stroke that changes nothing commits nothing', () => {
    const map = createLabelMap(20, 20, 1);
    const d = new ToolDriver(map, 'brush', { brushSize: 4 });
    d.drag([[5, 5], [15, 15]]);
    expect(d.ctx.commits).toHaveLength(0);
  });

  it('ignores the middle button and a second press during a stroke', () => {
    const map = createLabelMap(20, 20);
    const d = new ToolDriver(map, 'brush', { brushSize: 1 });
    d.down(5, 5, { button: 1 });
    expect(d.tool.busy).toBe(false);
    d.down(1, 1).down(10, 10, { button: 2 }).up(1, 1);
    expect(d.ctx.commits).toHaveLength(1);
    expect(labelArea(map, 1)).toBe(1);
  });

  it('keeps the gesture settings when the context changes mid-stroke', () => {
    const map = createLabelMap(40, 40);
    const d = new ToolDriver(map, 'brush', { brushSize: 1, activeClass: 1 });
    d.down(5.5, 5.5);
    d.ctx.activeClass = 2;
    d.ctx.brushSize = 30;
    d.move(6.5, 5.5).up(6.5, 5.5);
    expect(labelArea(map, 1)).toBe(2);
    expect(labelArea(map, 2)).toBe(0);
  });

  it('shows the brush outline under the pointer', () => {
    const d = new ToolDriver(createLabelMap(40, 40), 'brush', { brushSize: 5 });
    expect(d.tool.preview).toBeNull();
    d.move(10.2, 3.9);
    expect(d.tool.preview).toEqual({ kind: 'brush', x: 10.5, y: 3.5, radius: 2.5, erase: false });
  });

  it('finish() commits a stroke in progress (tool or frame switch)', () => {
    const map = createLabelMap(40, 40);
    const d = new ToolDriver(map, 'brush', { brushSize: 3 });
    d.down(10, 10).move(20, 10);
    d.use('polygon');
    expect(d.ctx.commits).toHaveLength(1);
  });
});
