import { describe, expect, it } from 'vitest';
import { labelArea } from '../../masks/geometry';
import { createLabelMap, type LabelMap } from '../../masks/labelMap';
import { applyPatch } from '../patch';
import { ToolDriver } from './toolDriver';

/** 30 x 20: a 4 x 4 square of 1s at (2, 2), a column of 2s at x = 10. */
function scene(): LabelMap {
  const map = createLabelMap(30, 20);
  for (let y = 2; y < 6; y++) map.data.fill(1, y * 30 + 2, y * 30 + 6);
  for (let y = 0; y < 20; y++) map.data[y * 30 + 10] = 2;
  return map;
}

const at = (map: LabelMap, x: number, y: number) => map.data[y * map.width + x];

describe('MoveRegionTool', () => {
  it('drags a region by whole pixels; vacated pixels become 0; one patch', () => {
    const map = scene();
    const d = new ToolDriver(map, 'move');
    d.drag([[3.2, 3.7], [4, 4], [5.6, 4.9], [6.2, 5.6]]); // ends at (+3, +2)
    expect(labelArea(map, 1)).toBe(16);
    expect(at(map, 2, 2)).toBe(0);
    expect(at(map, 5, 4)).toBe(1);
    expect(at(map, 8, 7)).toBe(1);
    expect(at(map, 9, 8)).toBe(0);
    expect(d.ctx.commits).toHaveLength(1);
    expect(d.ctx.commits[0]).toMatchObject({ action: 'move', box: { x: 2, y: 2, w: 7, h: 6 } });
  });

  it('moved pixels obey protect: they never cover the other class', () => {
    const map = scene();
    const d = new ToolDriver(map, 'move', { protect: true });
    d.drag([[3, 3], [9, 3]]); // the square now spans x = 8..11, over the column of 2s
    expect(labelArea(map, 2)).toBe(20);
    expect(labelArea(map, 1)).toBe(12);
    const map2 = scene();
    new ToolDriver(map2, 'move', { protect: false }).drag([[3, 3], [9, 3]]);
    expect(labelArea(map2, 2)).toBe(16);
    expect(labelArea(map2, 1)).toBe(16);
  });

  it('Alt copies instead of moving', () => {
    const map = scene();
    const d = new ToolDriver(map, 'move');
    d.drag([[3, 3], [3, 13]], { alt: true });
    expect(labelArea(map, 1)).toBe(32);
    expect(d.ctx.commits[0].action).toBe('move.copy');
  });

  it('pixels dragged off the image are dropped', () => {
    const map = scene();
    new ToolDriver(map, 'move').drag([[3, 3], [0, 3]]);
    expect(labelArea(map, 1)).toBe(12);
  });

  it('moving back to the start commits nothing; Escape restores mid-drag', () => {
    const map = scene();
    const original = map.data.slice();
    const d = new ToolDriver(map, 'move');
    d.drag([[3, 3], [15, 15], [3, 3]]);
    expect(d.ctx.commits).toHaveLength(0);
    expect(map.data).toEqual(original);
    d.down(3, 3).move(20, 12).move(14, 2);
    expect(map.data).not.toEqual(original);
    expect(d.tool.preview).toEqual({ kind: 'move', dx: 11, dy: -1, copy: false });
    d.key('Escape');
    expect(map.data).toEqual(original);
    d.up(14, 2);
    expect(d.ctx.commits).toHaveLength(0);
  });

  it('a press on background starts nothing; the patch undoes exactly', () => {
    const map = scene();
    const original = map.data.slice();
    const d = new ToolDriver(map, 'move');
    d.drag([[20, 15], [25, 18]]);
    expect(d.tool.busy).toBe(false);
    expect(map.data).toEqual(original);
    d.drag([[10, 5], [12, 9], [13, 10]]);
    applyPatch(map, d.ctx.commits[0], 'undo');
    expect(map.data).toEqual(original);
  });
});
