/**
 * Test-only helpers for the review room's suites: label maps drawn as text, and flag frames.
 * Not exported from any index.
 */
import type { LabelMap } from '../masks/labelMap';
import { flagFrameFromMap, type FlagFrame } from '../review/flags/index';

const CODES: Record<string, number> = { '.': 0, a: 1, t: 2, '0': 0, '1': 1, '2': 2, '3': 3, '4': 4, '5': 5, v: 255 };

/** A label map from rows of characters: '.' background, 'a' actionable, 't' transformed (digits too, 'v' void). */
export function draw(rows: readonly string[]): LabelMap {
  const height = rows.length;
  const width = rows[0].length;
  const data = new Uint8Array(width * height);
  rows.forEach((row, y) => {
    if (row.length !== width) throw new Error(`row ${y} has ${row.length} characters, expected ${width}`);
    for (let x = 0; x < width; x++) {
      const v = CODES[row[x]];
      if (v === undefined) throw new Error(`unknown character ${row[x]}`);
      data[y * width + x] = v;
    }
  });
  return { width, height, data };
}

/** A w x h map filled with `fill`, with rectangles painted over it: [label, x, y, w, h]. */
export function rects(width: number, height: number, fill: number, ...boxes: [number, number, number, number, number][]): LabelMap {
  const data = new Uint8Array(width * height).fill(fill);
  for (const [label, x0, y0, w, h] of boxes) {
    for (let y = y0; y < y0 + h; y++) for (let x = x0; x < x0 + w; x++) data[y * width + x] = label;
  }
  return { width, height, data };
}

/** Frames 0..n-1 from maps (null = no layer), with optional per-frame metadata. */
export function framesOf(maps: readonly (LabelMap | null)[], meta: Record<number, Partial<Omit<FlagFrame, 'index'>>> = {}): FlagFrame[] {
  return maps.map((map, index) => ({ ...flagFrameFromMap({ index }, map), ...meta[index] }));
}
