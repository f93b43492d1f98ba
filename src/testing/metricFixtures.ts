import type { LabelMap } from '../masks/labelMap';
import type { BinaryMask } from '../metrics/binaryMask';

/** Shared builders for the metric tests: masks are written [row][col] like the vectors file. */

/** h x w mask with `sq(r0..r1, c0..c1)` filled, both ends inclusive (the vectors file's notation). */
export function sq(h: number, w: number, r0: number, r1: number, c0: number, c1: number): BinaryMask {
  const data = new Uint8Array(w * h);
  for (let r = r0; r <= r1; r++) for (let c = c0; c <= c1; c++) data[r * w + c] = 1;
  return { width: w, height: h, data };
}

export function blank(h: number, w: number, fill = 0): BinaryMask {
  return { width: w, height: h, data: new Uint8Array(w * h).fill(fill) };
}

export function union(a: BinaryMask, b: BinaryMask): BinaryMask {
  const data = new Uint8Array(a.data.length);
  for (let i = 0; i < data.length; i++) data[i] = a.data[i] | b.data[i] ? 1 : 0;
  return { width: a.width, height: a.height, data };
}

/** A 1-row label map, as in vector S1 ("GT [1,1,2,5]"). */
export function row(values: readonly number[]): LabelMap {
  return { width: values.length, height: 1, data: Uint8Array.from(values) };
}

/** Label map with `label` painted into rectangle rows r0..r1, cols c0..c1 over `base`. */
export function paint(base: LabelMap, label: number, r0: number, r1: number, c0: number, c1: number): LabelMap {
  const data = base.data.slice();
  for (let r = r0; r <= r1; r++) for (let c = c0; c <= c1; c++) data[r * base.width + c] = label;
  return { width: base.width, height: base.height, data };
}

/** Deterministic PRNG (mulberry32, shared with the demo generator) for fixtures that need noise. */
export { mulberry32 as rng } from '../demo/random';
