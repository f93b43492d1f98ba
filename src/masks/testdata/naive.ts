/**
 * Test helpers: mask builders and deliberately naive reference implementations that property tests
 * compare the optimised code against. Never imported by app code.
 */
import fc from 'fast-check';

/** Filled rectangle rows r0..r1, columns c0..c1 (both inclusive), as the reference vectors write sq(). */
export function sq(h: number, w: number, r0: number, r1: number, c0: number, c1: number): Uint8Array {
  const m = new Uint8Array(h * w);
  for (let r = r0; r <= r1; r++) for (let c = c0; c <= c1; c++) m[r * w + c] = 1;
  return m;
}

/** ["0110", "0100"] -> row-major mask. */
export function fromRows(rows: readonly string[]): { mask: Uint8Array; h: number; w: number } {
  const h = rows.length;
  const w = rows[0].length;
  return { mask: Uint8Array.from(rows.join(''), (c) => Number(c)), h, w };
}

/** Index of the first differing element (or a length mismatch), -1 when equal. Fast on big arrays. */
export function firstDifference(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) return Math.min(a.length, b.length);
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return i;
  return -1;
}

/** Column-major runs by transposing first: the obvious way, as rleEncode reads a column-major mask. */
export function naiveCounts(mask: ArrayLike<number>, h: number, w: number): number[] {
  const counts: number[] = [];
  let prev = 0;
  let run = 0;
  for (let x = 0; x < w; x++) {
    for (let y = 0; y < h; y++) {
      const v = mask[y * w + x] ? 1 : 0;
      if (v !== prev) {
        counts.push(run);
        run = 0;
        prev = v;
      }
      run++;
    }
  }
  counts.push(run);
  return counts;
}

export function naiveDecode(counts: ArrayLike<number>, h: number, w: number): Uint8Array {
  const out = new Uint8Array(h * w);
  let p = 0;
  for (let j = 0; j < counts.length; j++) {
    for (let k = 0; k < counts[j]; k++, p++) {
      const x = Math.floor(p / h);
      const y = p % h;
      out[y * w + x] = j % 2;
    }
  }
  return out;
}

export function naiveBbox(mask: ArrayLike<number>, h: number, w: number): [number, number, number, number] {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -1;
  let y1 = -1;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      if (!mask[y * w + x]) continue;
      x0 = Math.min(x0, x);
      x1 = Math.max(x1, x);
      y0 = Math.min(y0, y);
      y1 = Math.max(y1, y);
    }
  }
  return x1 < 0 ? [0, 0, 0, 0] : [x0, y0, x1 - x0 + 1, y1 - y0 + 1];
}

/** Arbitrary mask sizes with thin shapes (1xN, Nx1) well represented, and widths divisible by 4. */
export const sizeArb = fc.oneof(
  fc.record({ h: fc.integer({ min: 1, max: 40 }), w: fc.integer({ min: 1, max: 40 }) }),
  fc.record({ h: fc.constant(1), w: fc.integer({ min: 1, max: 300 }) }),
  fc.record({ h: fc.integer({ min: 1, max: 300 }), w: fc.constant(1) }),
  fc.record({ h: fc.integer({ min: 1, max: 24 }), w: fc.integer({ min: 1, max: 12 }).map((k) => 4 * k) }),
);

/** Masks of one size with values from `values`, in the patterns that matter: noise, empty, full, boxes. */
export function maskOfSizeArb(h: number, w: number, values: readonly number[] = [0, 1]): fc.Arbitrary<Uint8Array> {
  const n = h * w;
  const pick = fc.constantFrom(...values);
  return fc
    .oneof(
      fc.array(pick, { minLength: n, maxLength: n }),
      fc.constant(new Array<number>(n).fill(values[0])),
      pick.map((v) => new Array<number>(n).fill(v)),
      fc.array(fc.tuple(fc.nat(w - 1), fc.nat(h - 1), fc.nat(w), fc.nat(h), pick), { maxLength: 4 }).map((boxes) => {
        const a = new Array<number>(n).fill(values[0]);
        for (const [x, y, bw, bh, v] of boxes) {
          for (let yy = y; yy < Math.min(h, y + bh); yy++) for (let xx = x; xx < Math.min(w, x + bw); xx++) a[yy * w + xx] = v;
        }
        return a;
      }),
    )
    .map((a) => Uint8Array.from(a));
}

/** A mask of arbitrary size (see sizeArb) from maskOfSizeArb. */
export function maskArb(values: readonly number[] = [0, 1]): fc.Arbitrary<{ mask: Uint8Array; h: number; w: number }> {
  return sizeArb.chain(({ h, w }) => maskOfSizeArb(h, w, values).map((mask) => ({ mask, h, w })));
}

/** k masks of one arbitrary size. */
export function masksArb(k: number, values: readonly number[] = [0, 1]): fc.Arbitrary<{ h: number; w: number; masks: Uint8Array[] }> {
  return sizeArb.chain(({ h, w }) =>
    fc.array(maskOfSizeArb(h, w, values), { minLength: k, maxLength: k }).map((masks) => ({ h, w, masks })),
  );
}
