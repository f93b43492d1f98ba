/**
 * Two annotations of one frame (A and B, e.g. gt and a second annotator's `ann:<name>`): where they
 * disagree, pixel by pixel, and how a reviewer settles it — take A, take B, or merge. Pure; the
 * pixel conventions are those of metrics/agreement.ts (countSymmetric): 1 actionable, 2 transformed,
 * 0 and 3 background, and a pixel either side labels 4, 5 or 255 is not compared.
 */
import type { LabelMap } from '../../masks/labelMap';

/** What one pixel of a dispute map says. */
export const DISPUTE = {
  /** Both sides agree (or the pixel is background in both). */
  agree: 0,
  /** Object in A, background in B. */
  onlyA: 1,
  /** Object in B, background in A. */
  onlyB: 2,
  /** Object in both, actionable in one and transformed in the other. */
  swap: 3,
  /** Either side labels it 4, 5 or 255: not compared. */
  excluded: 4,
} as const;

export type DisputeClass = (typeof DISPUTE)[keyof typeof DISPUTE];

export interface DisputeCounts {
  onlyA: number;
  onlyB: number;
  swap: number;
  excluded: number;
}

export interface DisputeMap {
  width: number;
  height: number;
  /** One DisputeClass per pixel, row-major. */
  data: Uint8Array;
  counts: DisputeCounts;
}

/** Okabe–Ito colours as in the error map: A only blue (A's "false negative"), B only reddish purple, swaps yellow. */
export const DISPUTE_COLOURS: Record<Exclude<DisputeClass, 0>, readonly [number, number, number, number]> = {
  [DISPUTE.onlyA]: [0, 114, 178, 220],
  [DISPUTE.onlyB]: [204, 121, 167, 220],
  [DISPUTE.swap]: [240, 228, 66, 230],
  [DISPUTE.excluded]: [156, 163, 175, 90],
};

// 0 background, 1 act, 2 trf, 3 excluded — the same reading as metrics/spoc.ts GT_CODE.
const CODE = new Uint8Array(256);
CODE[1] = 1;
CODE[2] = 2;
CODE[4] = 3;
CODE[5] = 3;
CODE[255] = 3;

function sameSize(a: LabelMap, b: LabelMap): void {
  if (a.width !== b.width || a.height !== b.height) {
    throw new RangeError(`the two annotations differ in size: ${a.width}x${a.height} vs ${b.width}x${b.height}`);
  }
}

export function disputeMap(a: LabelMap, b: LabelMap): DisputeMap {
  sameSize(a, b);
  const n = a.data.length;
  const data = new Uint8Array(n);
  const counts: DisputeCounts = { onlyA: 0, onlyB: 0, swap: 0, excluded: 0 };
  for (let i = 0; i < n; i++) {
    const ca = CODE[a.data[i]];
    const cb = CODE[b.data[i]];
    if (ca === cb && ca !== 3) continue;
    if (ca === 3 || cb === 3) {
      data[i] = DISPUTE.excluded;
      counts.excluded++;
    } else if (cb === 0) {
      data[i] = DISPUTE.onlyA;
      counts.onlyA++;
    } else if (ca === 0) {
      data[i] = DISPUTE.onlyB;
      counts.onlyB++;
    } else {
      data[i] = DISPUTE.swap;
      counts.swap++;
    }
  }
  return { width: a.width, height: a.height, data, counts };
}

/** Paints a dispute map into an RGBA buffer of its size (agreeing pixels transparent). */
export function paintDisputes(map: DisputeMap, out: { data: Uint8ClampedArray }): void {
  out.data.fill(0);
  for (let i = 0; i < map.data.length; i++) {
    const c = map.data[i];
    if (c === 0) continue;
    const rgba = DISPUTE_COLOURS[c as Exclude<DisputeClass, 0>];
    const o = i * 4;
    out.data[o] = rgba[0];
    out.data[o + 1] = rgba[1];
    out.data[o + 2] = rgba[2];
    out.data[o + 3] = rgba[3];
  }
}

/**
 * The merge rule for disputed pixels (agreed pixels are always kept):
 * - `extent`: a pixel that is object on one side only — `union` keeps it (with that side's state),
 *   `intersection` makes it background.
 * - `swap`: a pixel actionable on one side and transformed on the other takes A's state, B's state,
 *   or always `transformed` / `actionable`.
 * Pixels either side labels 4, 5 or 255 keep A's label (they were never compared).
 */
export interface MergeRule {
  extent: 'union' | 'intersection';
  swap: 'a' | 'b' | 'transformed' | 'actionable';
}

/** Union with A's state where they swap: "B fills in what A left empty". */
export const DEFAULT_MERGE: MergeRule = { extent: 'union', swap: 'a' };

export function mergeMaps(a: LabelMap, b: LabelMap, rule: MergeRule = DEFAULT_MERGE): LabelMap {
  sameSize(a, b);
  const n = a.data.length;
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const va = a.data[i];
    const vb = b.data[i];
    const ca = CODE[va];
    const cb = CODE[vb];
    if (ca === 3 || cb === 3 || ca === cb) {
      out[i] = va;
    } else if (ca === 0 || cb === 0) {
      out[i] = rule.extent === 'union' ? (ca === 0 ? cb : ca) : 0;
    } else {
      out[i] = rule.swap === 'a' ? ca : rule.swap === 'b' ? cb : rule.swap === 'transformed' ? 2 : 1;
    }
  }
  return { width: a.width, height: a.height, data: out };
}

export type Resolution = { kind: 'take-a' } | { kind: 'take-b' } | { kind: 'merge'; rule: MergeRule };

/**
 * The frame's new gt after a resolution. Taken sides are copied with only their states (1, 2):
 * gt layers hold nothing else, so 3, 4, 5 and 255 become background.
 */
export function resolveFrame(a: LabelMap, b: LabelMap, resolution: Resolution): LabelMap {
  sameSize(a, b);
  const src = resolution.kind === 'take-a' ? a : resolution.kind === 'take-b' ? b : mergeMaps(a, b, resolution.rule);
  const data = new Uint8Array(src.data.length);
  for (let i = 0; i < data.length; i++) {
    const v = src.data[i];
    data[i] = v === 1 || v === 2 ? v : 0;
  }
  return { width: a.width, height: a.height, data };
}

/** The revision action a resolution is recorded under, naming both sides: "agreement:take-b ann:bob". */
export function resolutionAction(resolution: Resolution, a: string, b: string): string {
  const what = resolution.kind === 'merge' ? `merge(${resolution.rule.extent},swap=${resolution.rule.swap})` : resolution.kind;
  return `agreement:${what} A=${a} B=${b}`;
}
