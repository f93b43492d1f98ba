/**
 * Binary masks (row-major Uint8Array, nonzero = on): the form SAM, brushes and importers produce
 * before the pixels become a label.
 */
import type { LabelMap } from './labelMap';

/** 1 where the map equals `label`, 0 elsewhere. */
export function maskOfLabel(map: LabelMap, label: number): Uint8Array {
  const { data } = map;
  const out = new Uint8Array(data.length);
  for (let i = 0; i < data.length; i++) out[i] = data[i] === label ? 1 : 0;
  return out;
}

/** Union (or, with intersect, intersection) of same-length binary masks, as 0/1. */
export function mergeMasks(masks: readonly Uint8Array[], intersect = false): Uint8Array {
  if (masks.length === 0) throw new RangeError('mergeMasks needs at least one mask');
  const n = masks[0].length;
  for (const m of masks) {
    if (m.length !== n) throw new RangeError(`masks differ in length: ${n} vs ${m.length}`);
  }
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = masks[0][i] !== 0 ? 1 : 0;
  for (let k = 1; k < masks.length; k++) {
    const m = masks[k];
    if (intersect) {
      for (let i = 0; i < n; i++) if (m[i] === 0) out[i] = 0;
    } else {
      for (let i = 0; i < n; i++) if (m[i] !== 0) out[i] = 1;
    }
  }
  return out;
}
