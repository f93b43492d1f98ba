/**
 * A set of pixels as horizontal runs: (y, x0, x1) with x1 exclusive. Polygon fills, flood fills
 * and region moves produce spans and then write them, so the region is known (and its box can be
 * backed up for undo) before a single pixel changes.
 */
import type { Box, LabelMap } from '../../masks/labelMap';
import type { WriteTable } from './paintRule';

export interface Spans {
  /** Triples y, x0, x1 (x1 exclusive), `count` of them. */
  readonly data: Int32Array;
  readonly count: number;
  /** Bounding box of all spans; w = h = 0 when there are none. */
  readonly box: Box;
  /** Number of pixels. */
  readonly area: number;
}

/** Collects spans with a growable buffer (no per-span objects: a large region has thousands). */
export class SpanBuilder {
  private data = new Int32Array(3 * 64);
  private n = 0;
  private x0 = Infinity;
  private y0 = Infinity;
  private x1 = -Infinity;
  private y1 = -Infinity;
  private area = 0;

  /** Adds the pixels x in [x0, x1) of row y; empty runs are ignored. */
  push(y: number, x0: number, x1: number): void {
    if (x1 <= x0) return;
    if (3 * (this.n + 1) > this.data.length) {
      const grown = new Int32Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    const o = 3 * this.n++;
    this.data[o] = y;
    this.data[o + 1] = x0;
    this.data[o + 2] = x1;
    this.area += x1 - x0;
    if (x0 < this.x0) this.x0 = x0;
    if (x1 > this.x1) this.x1 = x1;
    if (y < this.y0) this.y0 = y;
    if (y + 1 > this.y1) this.y1 = y + 1;
  }

  build(): Spans {
    const box = this.n === 0 ? { x: 0, y: 0, w: 0, h: 0 } : { x: this.x0, y: this.y0, w: this.x1 - this.x0, h: this.y1 - this.y0 };
    return { data: this.data.subarray(0, 3 * this.n), count: this.n, box, area: this.area };
  }
}

/** Writes the spans through the table (see paintRule.ts); returns the spans' box. */
export function paintSpans(map: LabelMap, spans: Spans, table: WriteTable): Box {
  const { data: px, width } = map;
  const d = spans.data;
  for (let k = 0; k < spans.count; k++) {
    const row = d[3 * k] * width;
    for (let i = row + d[3 * k + 1], end = row + d[3 * k + 2]; i < end; i++) px[i] = table[px[i]];
  }
  return { ...spans.box };
}

/**
 * Writes `value` into every span unconditionally: the fast path for a uniform region (a flood
 * fill whose label the paint rule allows), a native fill per run instead of a lookup per pixel.
 */
export function fillSpans(map: LabelMap, spans: Spans, value: number): Box {
  const { data: px, width } = map;
  const d = spans.data;
  for (let k = 0; k < spans.count; k++) {
    const row = d[3 * k] * width;
    px.fill(value, row + d[3 * k + 1], row + d[3 * k + 2]);
  }
  return { ...spans.box };
}

/** Spans moved by (dx, dy) and clipped to a width x height image: where a dragged region lands. */
export function translateSpans(spans: Spans, dx: number, dy: number, width: number, height: number): Spans {
  const out = new SpanBuilder();
  const d = spans.data;
  for (let k = 0; k < spans.count; k++) {
    const y = d[3 * k] + dy;
    if (y < 0 || y >= height) continue;
    out.push(y, Math.max(0, d[3 * k + 1] + dx), Math.min(width, d[3 * k + 2] + dx));
  }
  return out.build();
}
