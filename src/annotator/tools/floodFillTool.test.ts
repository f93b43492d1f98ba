import { describe, expect, it } from 'vitest';
import { labelArea } from '../../masks/geometry';
import { createLabelMap } from '../../masks/labelMap';
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
