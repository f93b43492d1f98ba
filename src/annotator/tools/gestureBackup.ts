/**
 * The pre-gesture pixels of a live edit. Tools paint straight into the frame's label map, so the
 * canvas layer that shows the map needs no second "scratch" layer and the protect rule (which
 * depends on the pixels underneath) is applied once, by the tool. Before a tool writes a box it
 * calls save(box); the backup copies each band of 16 full rows the first time it is touched. From
 * that it can
 *   - put every pixel back exactly (cancel: Escape, pointercancel), and
 *   - produce the one patch of the gesture (pointer-up), shrunk to the pixels that really changed.
 * Memory follows the rows touched, not the frame, and nothing is copied when nothing is painted.
 * Full-width bands (rather than square tiles) make every backup one contiguous copy.
 */
import { boxUnion, clampBox, isEmptyBox } from '../../masks/geometry';
import type { Box, LabelMap } from '../../masks/labelMap';
import type { Patch } from '../patch';
import type { ToolContext } from './types';

const BAND = 16;

export class GestureBackup {
  readonly map: LabelMap;
  /** Original rows [k * BAND, (k + 1) * BAND), saved on first touch. */
  private readonly bands: (Uint8Array | undefined)[];
  private touched: Box = { x: 0, y: 0, w: 0, h: 0 };

  constructor(map: LabelMap) {
    this.map = map;
    this.bands = new Array<Uint8Array | undefined>(Math.ceil(map.height / BAND));
  }

  /** Union of all boxes saved so far: every pixel the gesture may have changed lies inside. */
  get dirty(): Box {
    return { ...this.touched };
  }

  /** Must be called before writing any pixel of `box` (clipped to the map). */
  save(box: Box): void {
    const b = clampBox(box, this.map.width, this.map.height);
    if (isEmptyBox(b)) return;
    this.touched = boxUnion(this.touched, b);
    const { width, height, data } = this.map;
    for (let k = Math.floor(b.y / BAND); k * BAND < b.y + b.h; k++) {
      if (this.bands[k] === undefined) this.bands[k] = data.slice(k * BAND * width, Math.min(height, (k + 1) * BAND) * width);
    }
  }

  /** Puts the original pixels back inside `box` (default: everywhere the gesture touched). */
  restore(box: Box = this.touched): void {
    const b = clampBox(box, this.map.width, this.map.height);
    const { width, data } = this.map;
    for (let y = b.y; y < b.y + b.h; y++) {
      const band = this.bands[Math.floor(y / BAND)];
      if (band === undefined) continue;
      const src = (y % BAND) * width + b.x;
      data.set(band.subarray(src, src + b.w), y * width + b.x);
    }
  }

  /** The gesture as one patch (tight box), or null when the map is back to what it was. */
  toPatch(frameIndex: number, action: string): Patch | null {
    const tight = this.changedBox();
    if (tight === null) return null;
    const { x, y, w, h } = tight;
    const { width, data } = this.map;
    const before = new Uint8Array(w * h);
    const after = new Uint8Array(w * h);
    for (let r = 0; r < h; r++) {
      const row = (y + r) * width + x;
      after.set(data.subarray(row, row + w), r * w);
      const band = this.bands[Math.floor((y + r) / BAND)];
      const src = ((y + r) % BAND) * width + x;
      // A row of a band never saved was never written: it is its own "before".
      before.set(band ? band.subarray(src, src + w) : data.subarray(row, row + w), r * w);
    }
    return { frameIndex, box: tight, before, after, action };
  }

  /**
   * Bounding box of the pixels that differ from the saved originals. Finds the first and last
   * changed rows from both ends, then widens the columns row by row, reading only the pixels
   * outside the columns found so far, so a large change costs little more than its outline.
   */
  private changedBox(): Box | null {
    const t = this.touched;
    if (isEmptyBox(t)) return null;
    const { width, data } = this.map;
    const xEnd = t.x + t.w;
    const firstDiff = (y: number, from: number, to: number): number => {
      const band = this.bands[Math.floor(y / BAND)];
      if (band === undefined) return -1;
      const o = (y % BAND) * width;
      const row = y * width;
      for (let x = from; x < to; x++) if (band[o + x] !== data[row + x]) return x;
      return -1;
    };
    const lastDiff = (y: number, from: number, to: number): number => {
      const band = this.bands[Math.floor(y / BAND)];
      if (band === undefined) return -1;
      const o = (y % BAND) * width;
      const row = y * width;
      for (let x = to - 1; x >= from; x--) if (band[o + x] !== data[row + x]) return x;
      return -1;
    };
    let y0 = t.y;
    while (y0 < t.y + t.h && firstDiff(y0, t.x, xEnd) < 0) y0++;
    if (y0 === t.y + t.h) return null;
    let y1 = t.y + t.h - 1;
    while (firstDiff(y1, t.x, xEnd) < 0) y1--;
    let x0 = firstDiff(y0, t.x, xEnd);
    let x1 = lastDiff(y0, t.x, xEnd);
    for (let y = y0 + 1; y <= y1; y++) {
      const left = firstDiff(y, t.x, x0);
      if (left >= 0) x0 = left;
      const right = lastDiff(y, x1 + 1, xEnd);
      if (right >= 0) x1 = right;
    }
    return { x: x0, y: y0, w: x1 - x0 + 1, h: y1 - y0 + 1 };
  }

  /** Cancel: puts the pre-gesture pixels back and has them redrawn. */
  rollback(ctx: Pick<ToolContext, 'invalidate'>): void {
    this.restore();
    ctx.invalidate(this.dirty);
  }

  /** Finish: hands the gesture to the editor as its one patch (nothing when no pixel changed). */
  commit(ctx: Pick<ToolContext, 'commit'>, frameIndex: number, action: string): void {
    const patch = this.toPatch(frameIndex, action);
    if (patch) ctx.commit(patch);
  }
}
