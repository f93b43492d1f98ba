/**
 * Which label values a SPOC mask may hold in each file layout, and the check that refuses any
 * other value. A mask outside its set is almost always a multi-object (VOS) mask whose index is an
 * object id: read as SPOC states, ids 1 and 2 would silently become "actionable" and
 * "transformed" and the rest background or void (docs/formats.md "Palette", docs/metrics.md).
 */
import { MaskFormatError } from './errors';
import type { LabelMap } from './labelMap';

export type MaskLayout = 'wtc' | 'davis';

/** WhereToChange: the SPOC release palette 0..5, plus DAVIS void. */
export const WTC_MASK_LABELS: ReadonlySet<number> = new Set([0, 1, 2, 3, 4, 5, 255]);
/** DAVIS layout: background, the two states, void (docs/formats.md "DAVIS"). */
export const DAVIS_MASK_LABELS: ReadonlySet<number> = new Set([0, 1, 2, 255]);

const MEANING: Record<MaskLayout, string> = {
  wtc: 'a SPOC mask in the WhereToChange layout holds only 0 background, 1 actionable, 2 transformed, 3 background, 4 ambiguous, 5 ignore (the release palette) and 255 void',
  davis: 'a SPOC mask in the DAVIS layout holds only 0 background, 1 actionable, 2 transformed and 255 void',
};

export function labelSetOf(layout: MaskLayout): ReadonlySet<number> {
  return layout === 'davis' ? DAVIS_MASK_LABELS : WTC_MASK_LABELS;
}

/** The distinct values of a label map, ascending. */
export function labelsPresent(map: LabelMap): number[] {
  const seen = new Uint8Array(256);
  const { data } = map;
  let i = 0;
  // Four background pixels per test where the bytes are aligned (masks are mostly background).
  if (data.byteOffset % 4 === 0) {
    const words = new Uint32Array(data.buffer, data.byteOffset, data.length >>> 2);
    for (let w = 0; w < words.length; w++) {
      if (words[w] === 0) {
        seen[0] = 1;
        continue;
      }
      const b = w << 2;
      seen[data[b]] = 1;
      seen[data[b + 1]] = 1;
      seen[data[b + 2]] = 1;
      seen[data[b + 3]] = 1;
    }
    i = words.length << 2;
  }
  for (; i < data.length; i++) seen[data[i]] = 1;
  const out: number[] = [];
  for (let v = 0; v < 256; v++) if (seen[v]) out.push(v);
  return out;
}

/**
 * Why `map` cannot be read as a SPOC mask of `layout`, or null when it can. The message lists
 * every label found, where the first foreign one is, and `hint` (what to use instead).
 */
export function foreignLabelsProblem(map: LabelMap, layout: MaskLayout, hint: string): string | null {
  const allowed = labelSetOf(layout);
  const found = labelsPresent(map);
  const foreign = found.filter((v) => !allowed.has(v));
  if (foreign.length === 0) return null;
  const first = map.data.findIndex((v) => !allowed.has(v));
  const x = first % map.width;
  const y = Math.floor(first / map.width);
  return (
    `holds labels ${found.join(', ')}: ${foreign.join(', ')} ${foreign.length === 1 ? 'is not a SPOC label' : 'are not SPOC labels'} ` +
    `(label ${map.data[first]} first at x=${x}, y=${y}); ${MEANING[layout]}. ` +
    `A mask whose index is an object id (DAVIS multi-object) is not a SPOC mask: ${hint}`
  );
}

/** Throws MaskFormatError "<fileName>: holds labels …" when `map` holds a label outside the layout's set. */
export function checkSpocLabels(map: LabelMap, layout: MaskLayout, fileName: string, hint: string): void {
  const problem = foreignLabelsProblem(map, layout, hint);
  if (problem) throw new MaskFormatError(problem, fileName);
}
