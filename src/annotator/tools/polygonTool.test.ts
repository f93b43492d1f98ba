import { describe, expect, it } from 'vitest';
import { labelArea } from '../../masks/geometry';
import { createLabelMap } from '../../masks/labelMap';
import { ToolDriver } from './toolDriver';

describe('PolygonTool', () => {
  it('click points, click the first point again: fills with the active class (pixel-centre rule)', () => {
    const map = createLabelMap(50, 50);
    const d = new ToolDriver(map, 'polygon', { activeClass: 2, hitRadius: 3 });
    d.click(10, 10).click(30, 10).click(30, 30).click(10, 30);
    expect(d.tool.state).toBe('drawing');
    expect(labelArea(map, 2)).toBe(0); // nothing changes before the polygon closes
    d.move(11, 11);
    expect(d.tool.preview).toMatchObject({ kind: 'path', willClose: true, closed: false });
    d.click(11, 11);
    expect(labelArea(map, 2)).toBe(400);
    expect(d.ctx.commits).toHaveLength(1);
    expect(d.ctx.commits[0]).toMatchObject({ action: 'polygon', box: { x: 10, y: 10, w: 20, h: 20 } });
    expect(d.tool.state).toBe('idle');
  });

  it('Enter closes; a triangle with legs 10 fills 45 pixels', () => {
    const map = createLabelMap(20, 20);
    const d = new ToolDriver(map, 'polygon');
    d.click(0, 0).click(10, 0).click(0, 10);
    expect(d.key('Enter')).toBe(true);
    expect(labelArea(map, 1)).toBe(45);
  });

  it('a double click closes without adding a vertex', () => {
    const map = createLabelMap(20, 20);
    const d = new ToolDriver(map, 'polygon');
    d.click(0, 0).click(10, 0).click(10, 10, { clickCount: 1 }).click(10, 10, { clickCount: 2 });
    // The other half of the square: here the diagonal is a left edge, so its centres are in (55 + 45 = 100).
    expect(labelArea(map, 1)).toBe(55);
    expect(d.ctx.commits).toHaveLength(1);
  });

  it('Backspace removes the last vertex; Escape drops the polygon', () => {
    const map = createLabelMap(20, 20);
    const d = new ToolDriver(map, 'polygon');
    d.click(0, 0).click(10, 0).click(15, 15);
    expect(d.key('Backspace')).toBe(true);
    d.click(0, 10);
    d.key('Enter');
    expect(labelArea(map, 1)).toBe(45);
    d.click(1, 1).click(5, 1);
    expect(d.key('Escape')).toBe(true);
    expect(d.tool.busy).toBe(false);
    expect(d.ctx.commits).toHaveLength(1);
    expect(d.key('Escape')).toBe(false);
    d.click(1, 1);
    d.key('Backspace');
    expect(d.tool.busy).toBe(false); // the last vertex removed: back to idle
  });

  it('fewer than three vertices do not close', () => {
    const d = new ToolDriver(createLabelMap(20, 20), 'polygon');
    d.click(1, 1).click(9, 9);
    d.key('Enter');
    expect(d.tool.state).toBe('drawing');
    expect(d.ctx.commits).toHaveLength(0);
  });

  it('a polygon started with the secondary button cuts (sets to 0) every state, protect or not', () => {
    const map = createLabelMap(20, 20, 1);
    map.data.fill(2, 0, 20 * 5); // top five rows transformed
    const d = new ToolDriver(map, 'polygon', { protect: true, activeClass: 1 });
    d.click(0, 0, { button: 2 }).click(20, 0).click(20, 10).click(0, 10);
    d.key('Enter');
    expect(labelArea(map, 2)).toBe(0); // a cut erases: protect governs painting only
    expect(labelArea(map, 0)).toBe(200); // rows 0..9 cut
    expect(d.ctx.commits[0].action).toBe('polygon.cut');
  });

  it('switching frames or tools drops an open polygon', () => {
    const map = createLabelMap(20, 20);
    const d = new ToolDriver(map, 'polygon');
    d.click(0, 0).click(10, 0).click(0, 10);
    d.ctx.frameIndex = 1;
    d.key('Enter');
    expect(d.ctx.commits).toHaveLength(0);
    d.click(0, 0).click(10, 0).click(0, 10);
    d.use('brush');
    expect(d.ctx.commits).toHaveLength(0);
    expect(labelArea(map, 1)).toBe(0);
  });
});
