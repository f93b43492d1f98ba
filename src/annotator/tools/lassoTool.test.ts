import { describe, expect, it } from 'vitest';
import { labelArea } from '../../masks/geometry';
import { createLabelMap } from '../../masks/labelMap';
import { ToolDriver } from './toolDriver';

describe('LassoTool', () => {
  it('fills the freehand path on release, as one patch', () => {
    const map = createLabelMap(50, 50);
    const d = new ToolDriver(map, 'lasso', { activeClass: 2 });
    d.down(10, 10).move(40, 10).move(40, 40);
    expect(d.tool.preview).toMatchObject({ kind: 'path', closed: true, points: [{ x: 10, y: 10 }, { x: 40, y: 10 }, { x: 40, y: 40 }] });
    expect(labelArea(map, 2)).toBe(0);
    d.move(10, 40).up(10, 40);
    expect(labelArea(map, 2)).toBe(900);
    expect(d.ctx.commits).toHaveLength(1);
    expect(d.ctx.commits[0].action).toBe('lasso');
  });

  it('a path circling twice is filled whole (nonzero rule)', () => {
    const map = createLabelMap(50, 50);
    const d = new ToolDriver(map, 'lasso');
    d.drag([[10, 10], [40, 10], [40, 40], [10, 40], [10, 10], [40, 10], [40, 40], [10, 40]]);
    expect(labelArea(map, 1)).toBe(900);
  });

  it('Alt cuts; Escape drops the path', () => {
    const map = createLabelMap(30, 30, 1);
    const d = new ToolDriver(map, 'lasso');
    d.down(0, 0).move(10, 0).move(10, 10);
    d.key('Escape');
    d.up(10, 10);
    expect(d.ctx.commits).toHaveLength(0);
    d.drag([[0, 0], [10, 0], [10, 10], [0, 10]], { alt: true });
    expect(labelArea(map, 0)).toBe(100);
    expect(d.ctx.commits[0].action).toBe('lasso.cut');
  });

  it('a click without a path fills nothing', () => {
    const d = new ToolDriver(createLabelMap(30, 30), 'lasso');
    d.click(5, 5);
    expect(d.ctx.commits).toHaveLength(0);
  });
});
