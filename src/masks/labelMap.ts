/**
 * A label map is one frame's per-pixel state, row-major (index = y * width + x).
 * It is the in-memory source of truth for masks; storage and interchange use COCO RLE (see rle.ts).
 */
export const LABEL = {
  background: 0,
  actionable: 1,
  transformed: 2,
  /** Values below appear only in imported SPOC-release masks; the editor never paints them. */
  releaseBackground: 3,
  ambiguous: 4,
  ignore: 5,
  /** DAVIS void. */
  void: 255,
} as const;

export type Label = (typeof LABEL)[keyof typeof LABEL];

/** The two states the SPOC task paints. */
export type StateLabel = typeof LABEL.actionable | typeof LABEL.transformed;

export interface LabelMap {
  readonly width: number;
  readonly height: number;
  /** length = width * height, row-major. */
  readonly data: Uint8Array;
}

/** Inclusive-exclusive pixel box: x in [x, x + w), y in [y, y + h). */
export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** RGBA pixels, compatible with the DOM's ImageData without depending on it. */
export interface RgbaImage {
  readonly width: number;
  readonly height: number;
  readonly data: Uint8ClampedArray;
}

export function createLabelMap(width: number, height: number, fill = 0): LabelMap {
  assertSize(width, height);
  const data = new Uint8Array(width * height);
  if (fill !== 0) data.fill(fill);
  return { width, height, data };
}

/** Largest frame side we accept anywhere (8K UHD is 7680; allow some headroom). */
export const MAX_SIDE = 8192;

export function assertSize(width: number, height: number): void {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width <= 0 || height <= 0) {
    throw new RangeError(`invalid size ${width}x${height}: width and height must be positive integers`);
  }
  if (width > MAX_SIDE || height > MAX_SIDE) {
    throw new RangeError(`size ${width}x${height} exceeds the limit of ${MAX_SIDE} px per side`);
  }
}
