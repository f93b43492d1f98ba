import type { LabelMap } from '../masks/labelMap';
import { LABEL } from '../masks/labelMap';

/**
 * A binary mask: any nonzero byte is foreground, exactly like `mask.astype(bool)` in the DAVIS and
 * EgoMask references. It has the same shape as LabelMap, so a single-object label map can be
 * passed as it is, and one type serves masks, void masks and boundary maps.
 */
export interface BinaryMask {
  readonly width: number;
  readonly height: number;
  /** length = width * height, row-major; nonzero = inside. */
  readonly data: Uint8Array;
}

export function assertSameSize(a: BinaryMask, b: BinaryMask, what: string): void {
  if (a.width !== b.width || a.height !== b.height) {
    throw new RangeError(`${what}: size ${b.width}x${b.height} does not match ${a.width}x${a.height}`);
  }
  if (a.data.length !== a.width * a.height || b.data.length !== b.width * b.height) {
    throw new RangeError(`${what}: data length does not match width * height`);
  }
}

/** Foreground = pixels whose label is one of `labels` (e.g. [1, 2] for the fused SPOC object). */
export function maskOfLabels(map: LabelMap, labels: readonly number[]): BinaryMask {
  const pick = new Uint8Array(256);
  for (const label of labels) pick[label] = 1;
  const src = map.data;
  const out = new Uint8Array(src.length);
  // Masks are mostly background: skip four background pixels per test when 0 is not picked.
  const words = pick[0] === 0 ? wordView(src) : null;
  let i = 0;
  if (words) {
    for (let w = 0; w < words.length; w++) {
      if (words[w] === 0) continue;
      const b = w << 2;
      out[b] = pick[src[b]];
      out[b + 1] = pick[src[b + 1]];
      out[b + 2] = pick[src[b + 2]];
      out[b + 3] = pick[src[b + 3]];
    }
    i = words.length << 2;
  }
  for (; i < src.length; i++) out[i] = pick[src[i]];
  return { width: map.width, height: map.height, data: out };
}

/** DAVIS treats GT pixels labelled 255 as void (evaluation.py `_VOID_LABEL`). */
export function voidMaskOf(map: LabelMap, voidLabels: readonly number[] = [LABEL.void]): BinaryMask {
  return maskOfLabels(map, voidLabels);
}

export function maskArea(mask: BinaryMask): number {
  const data = mask.data;
  let area = 0;
  for (let i = 0; i < data.length; i++) if (data[i] !== 0) area++;
  return area;
}

export function emptyMask(width: number, height: number): BinaryMask {
  return { width, height, data: new Uint8Array(width * height) };
}

/**
 * A Uint32 view over the 4-byte-aligned prefix of `data`, or null when the bytes are not aligned.
 * Masks are mostly zero, so the hot loops test four pixels per comparison and only fall back to
 * per-pixel work for words that hold foreground. Callers finish the last `length % 4` bytes.
 */
export function wordView(data: Uint8Array): Uint32Array | null {
  if (data.byteOffset % 4 !== 0) return null;
  return new Uint32Array(data.buffer, data.byteOffset, data.length >>> 2);
}
