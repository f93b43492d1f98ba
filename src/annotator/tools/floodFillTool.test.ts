import { describe, expect, it } from 'vitest';
import { labelArea } from '../../masks/geometry';
import { createLabelMap } from '../../masks/labelMap';
import { fillLeak, fillQuestion } from '../paint/fillLeak';
import { applyPatch } from '../patch';
import { ToolDriver } from './toolDriver';

/** 20 x 20 background with a closed ring of 1s (rows/cols 5..14), inside left empty. */
function ring() {
  const map = createLabelMap(20, 20);
  for (let i = 5; i <= 14; i++) {
    map.data[5 * 20 + i] = 1;
    map.data[14 * 20 + i] = 1;
    map.data[i * 20 + 5] = 1;
    map.data[i * 20 + 14] = 1;
  }
  return map;
}

describe('FloodFillTool', () => {
  it('fills the clicked region only, bounded by the other label', () => {
    const map = ring();
    const d = new ToolDriver(map, 'fill', { activeClass: 2 });
    d.click(9, 9);
    expect(labelArea(map, 2)).toBe(64);
    expect(d.ctx.commits).toHaveLength(1);
    expect(d.ctx.commits[0]).toMatchObject({ action: 'fill', box: { x: 6, y: 6, w: 8, h: 8 } });
  });

  it('protect on: a region of the other class is not filled', () => {
    const map = ring();
    const d = new ToolDriver(map, 'fill', { activeClass: 2, protect: true });
    d.click(5, 5);
    expect(labelArea(map, 2)).toBe(0);
    expect(d.ctx.commits).toHaveLength(0);
    d.ctx.protect = false;
    d.click(5, 5);
    expect(labelArea(map, 2)).toBe(36);
  });

  it('the secondary button erases the region', () => {
    const map = ring();
    const d = new ToolDriver(map, 'fill', { activeClass: 1, protect: true });
    d.click(5, 10, { button: 2 });
    expect(labelArea(map, 1)).toBe(0);
    expect(d.ctx.commits[0].action).toBe('fill.erase');
  });

  it('Escape between press and release restores the region', () => {
    const map = ring();
    const original = map.data.slice();
    const d = new ToolDriver(map, 'fill', { activeClass: 2 });
    d.down(0, 0);
    expect(map.data).not.toEqual(original);
    d.key('Escape');
    d.up(0, 0);
    expect(map.data).toEqual(original);
    expect(d.ctx.commits).toHaveLength(0);
  });

  it('filling a region with its own label, or outside the map, does nothing', () => {
    const d = new ToolDriver(ring(), 'fill', { activeClass: 1 });
    d.click(5, 5).click(-3, 4).click(25, 4);
    expect(d.ctx.commits).toHaveLength(0);
    expect(d.ctx.invalidated).toHaveLength(0);
  });
});

describe('FloodFillTool: a fill that leaks asks first', () => {
  it('a fill reaching the frame border waits for Enter, showing the fill meanwhile; Enter commits one patch', () => {
    const map = ring();
    const original = map.data.slice();
    const d = new ToolDriver(map, 'fill', { activeClass: 2 });
    d.click(0, 0); // the background around the ring: 400 - 36 ring - 64 inside = 300 px, touching every edge
    expect(d.tool.state).toBe('confirming');
    expect(d.tool.busy).toBe(true);
    expect(d.ctx.commits).toHaveLength(0);
    expect(labelArea(map, 2)).toBe(300); // the preview is the fill itself
    expect(d.tool.preview).toEqual({ kind: 'fill-confirm', fraction: 300 / 400, reachesBorder: true });
    expect(d.key('Enter')).toBe(true);
    expect(d.tool.busy).toBe(false);
    expect(d.ctx.commits).toHaveLength(1);
    expect(d.ctx.commits[0].action).toBe('fill');
    applyPatch(map, d.ctx.commits[0], 'undo');
    expect(map.data).toEqual(original);
  });

  it('Escape, a tool or frame switch, or another press abandon the question without a patch', () => {
    const map = ring();
    const original = map.data.slice();
    const d = new ToolDriver(map, 'fill', { activeClass: 1 });
    d.click(0, 0);
    expect(d.key('Escape')).toBe(true);
    expect(map.data).toEqual(original);
    d.click(0, 0);
    d.tool.finish(); // switching tools or frames does not say yes
    expect(map.data).toEqual(original);
    d.click(0, 0);
    d.click(9, 9); // pressing elsewhere while asked is ignored: the question stands
    expect(d.tool.state).toBe('confirming');
    d.key('Escape');
    expect(map.data).toEqual(original);
    expect(d.ctx.commits).toHaveLength(0);
  });

  it('an inside region over half the frame asks too; a small enclosed one does not', () => {
    const map = createLabelMap(100, 100);
    for (let i = 1; i <= 98; i++) {
      map.data[1 * 100 + i] = 1;
      map.data[98 * 100 + i] = 1;
      map.data[i * 100 + 1] = 1;
      map.data[i * 100 + 98] = 1;
    }
    const d = new ToolDriver(map, 'fill', { activeClass: 2 });
    d.click(50, 50); // 96 x 96 inside the ring, not touching the border
    expect(d.tool.preview).toEqual({ kind: 'fill-confirm', fraction: (96 * 96) / 10000, reachesBorder: false });
    d.key('Escape');
    const small = new ToolDriver(ring(), 'fill', { activeClass: 2 });
    small.click(9, 9);
    expect(small.tool.busy).toBe(false);
    expect(small.ctx.commits).toHaveLength(1);
  });
});

describe('fillLeak / fillQuestion', () => {
  it('words the question with the share of the frame and the border', () => {
    expect(fillQuestion({ fraction: 0.62, reachesBorder: true })).toBe('This fill covers 62 % of the frame and reaches its border — fill anyway?');
    expect(fillQuestion({ fraction: 0.55, reachesBorder: false })).toBe('This fill covers 55 % of the frame — fill anyway?');
    expect(fillQuestion({ fraction: 0.002, reachesBorder: true })).toBe('This fill covers less than 1 % of the frame and reaches its border — fill anyway?');
  });

  it('asks when the region touches an edge or exceeds half the frame', () => {
    expect(fillLeak({ box: { x: 3, y: 3, w: 4, h: 4 }, area: 16 }, 10, 10)).toEqual({ fraction: 0.16, reachesBorder: false, asks: false });
    expect(fillLeak({ box: { x: 3, y: 3, w: 7, h: 4 }, area: 16 }, 10, 10).asks).toBe(true); // right edge
    expect(fillLeak({ box: { x: 1, y: 1, w: 8, h: 8 }, area: 51 }, 10, 10).asks).toBe(true);
    expect(fillLeak({ box: { x: 1, y: 1, w: 8, h: 8 }, area: 50 }, 10, 10).asks).toBe(false);
  });
});
