/**
 * The 4-connected region of one label around a pixel, found by scanline flood fill with an explicit
 * stack (never recursion: a large region would overflow the call stack). The region is bounded by
 * any pixel of a different label and by the image edge.
 *
 * It returns spans instead of filling in place so that the same search serves the fill tool
 * (write the spans) and the move tool (lift them), and so a tool can back the box up first.
 */
import type { LabelMap } from '../../masks/labelMap';
import { SpanBuilder, type Spans } from './spans';

export interface Region extends Spans {
  /** The label all pixels of the region share. */
  readonly label: number;
}

/** The region of (x, y)'s label containing (x, y); null when the point is outside the map. */
export function floodRegion(map: LabelMap, x: number, y: number): Region | null {
  const { width: w, height: h, data } = map;
  x = Math.floor(x);
  y = Math.floor(y);
  if (!(x >= 0 && y >= 0 && x < w && y < h)) return null;
  const label = data[y * w + x];
  // One bit per pixel: the search must not write the map, and 1 bit keeps an 8K frame at 8 MB.
  const seen = new Uint32Array(Math.ceil((w * h) / 32));
  const isSeen = (i: number) => (seen[i >>> 5] & (1 << (i & 31))) !== 0;
  const out = new SpanBuilder();
  let stack = new Int32Array(256);
  let top = 0;
  const push = (i: number) => {
    if (top === stack.length) {
      const grown = new Int32Array(stack.length * 2);
      grown.set(stack);
      stack = grown;
    }
    stack[top++] = i;
  };

  push(y * w + x);
  while (top > 0) {
    const seed = stack[--top];
    // A run of the label is seen as a whole, so one seen pixel means the whole run is done.
    if (isSeen(seed)) continue;
    const sy = Math.floor(seed / w);
    const row = sy * w;
    let l = seed - row;
    let r = l;
    while (l > 0 && data[row + l - 1] === label) l--;
    while (r < w - 1 && data[row + r + 1] === label) r++;
    markSeen(seen, row + l, row + r + 1);
    out.push(sy, l, r + 1);
    // Seed the start of every run of the label in the rows above and below; a run part of a
    // maximal run already seen is skipped, which needs one bit test per run, not per pixel.
    for (let ny = sy - 1; ny <= sy + 1; ny += 2) {
      if (ny < 0 || ny >= h) continue;
      const nrow = ny * w;
      let inRun = false;
      for (let i = nrow + l, end = nrow + r; i <= end; i++) {
        if (data[i] !== label) inRun = false;
        else if (!inRun) {
          inRun = true;
          if (!isSeen(i)) push(i);
        }
      }
    }
  }
  const spans = out.build();
  return { ...spans, label };
}

/** Sets bits [from, to) of the bitset, a word at a time in the middle. */
function markSeen(seen: Uint32Array, from: number, to: number): void {
  let i = from;
  for (; i < to && (i & 31) !== 0; i++) seen[i >>> 5] |= 1 << (i & 31);
  for (; i + 32 <= to; i += 32) seen[i >>> 5] = 0xffffffff;
  for (; i < to; i++) seen[i >>> 5] |= 1 << (i & 31);
}
