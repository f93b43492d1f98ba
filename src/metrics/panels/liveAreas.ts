/**
 * Live state areas of the frame being painted, kept exact at the cost of the changed box only.
 *
 * The map is cut into square tiles; each tile remembers how many actionable and transformed pixels
 * it held. When a box of the map changes, only the tiles it touches are recounted and the totals
 * move by the difference (new tile count − old tile count). That is the delta inside the changed
 * box without needing the pixels as they were before: a brush dab touches one to four tiles, so an
 * update costs a few thousand byte reads whatever the frame size, and a full-frame change (clear,
 * undo of a fill) costs one pass. Pure: no DOM, no React.
 */
import type { Box, LabelMap } from '../../masks/labelMap';
import { LABEL } from '../../masks/labelMap';
import { contentBox } from '../../masks/geometry';
import type { StateAreas } from '../progress';

export const DEFAULT_TILE = 64;

export class TileAreaCounter {
  readonly map: LabelMap;
  readonly tile: number;
  readonly cols: number;
  readonly rows: number;
  private readonly tileAct: Uint32Array;
  private readonly tileTrf: Uint32Array;
  private act = 0;
  private trf = 0;

  /**
   * @param content a box outside which the map holds no nonzero pixel (null: none), when the caller
   * has one already (the editor's `shownContent`, computed once per frame switch); else it is computed.
   */
  constructor(map: LabelMap, tile = DEFAULT_TILE, content: Box | null = contentBox(map)) {
    if (!Number.isInteger(tile) || tile < 1) throw new RangeError(`tile size must be a positive integer, got ${tile}`);
    this.map = map;
    this.tile = tile;
    this.cols = Math.ceil(map.width / tile);
    this.rows = Math.ceil(map.height / tile);
    this.tileAct = new Uint32Array(this.cols * this.rows);
    this.tileTrf = new Uint32Array(this.cols * this.rows);
    // Tiles outside the content box hold no state pixels: their zero counts are already right.
    if (content) this.update(content);
  }

  /** Actionable and transformed pixels of the whole map, as of the last update. */
  get areas(): StateAreas {
    return { act: this.act, trf: this.trf };
  }

  /**
   * The pixels inside `box` may have changed: recount the tiles it touches and return the new
   * totals. Boxes are clipped to the map; an empty or outside box changes nothing.
   */
  update(box: Box): StateAreas {
    const { width, height } = this.map;
    const x0 = Math.max(0, Math.floor(box.x));
    const y0 = Math.max(0, Math.floor(box.y));
    const x1 = Math.min(width, Math.ceil(box.x + box.w));
    const y1 = Math.min(height, Math.ceil(box.y + box.h));
    if (x1 <= x0 || y1 <= y0) return this.areas;
    const t = this.tile;
    const c0 = Math.floor(x0 / t);
    const c1 = Math.floor((x1 - 1) / t);
    const r0 = Math.floor(y0 / t);
    const r1 = Math.floor((y1 - 1) / t);
    for (let r = r0; r <= r1; r++) {
      for (let c = c0; c <= c1; c++) {
        const i = r * this.cols + c;
        const [a, b] = this.countTile(c, r);
        this.act += a - this.tileAct[i];
        this.trf += b - this.tileTrf[i];
        this.tileAct[i] = a;
        this.tileTrf[i] = b;
      }
    }
    return this.areas;
  }

  private countTile(c: number, r: number): [number, number] {
    const { width, height, data } = this.map;
    const t = this.tile;
    const xs = c * t;
    const xe = Math.min(width, xs + t);
    const ys = r * t;
    const ye = Math.min(height, ys + t);
    let a = 0;
    let b = 0;
    for (let y = ys; y < ye; y++) {
      const row = y * width;
      for (let i = row + xs, end = row + xe; i < end; i++) {
        const v = data[i];
        if (v === 0) continue;
        if (v === LABEL.actionable) a++;
        else if (v === LABEL.transformed) b++;
      }
    }
    return [a, b];
  }
}
