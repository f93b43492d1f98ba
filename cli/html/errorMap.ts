/**
 * A small error map of one frame for the HTML report: GT against prediction, each pixel one of
 * agree / correct state / false positive / missed / wrong state / excluded, sampled down to a
 * thumbnail and encoded as an indexed PNG data URL (a few kilobytes).
 */
import { encodeIndexedPng, type Rgb } from '../../src/io/indexedPng';
import { LABEL, type LabelMap } from '../../src/masks/labelMap';

export const ERROR_CLASSES: readonly { name: string; color: Rgb }[] = [
  { name: 'background', color: [246, 247, 249] },
  { name: 'actionable, correct', color: [140, 200, 140] },
  { name: 'transformed, correct', color: [40, 130, 70] },
  { name: 'false positive', color: [220, 50, 47] },
  { name: 'missed', color: [38, 110, 220] },
  { name: 'wrong state', color: [240, 150, 20] },
  { name: 'excluded (GT 4, 5, 255)', color: [170, 170, 170] },
];

const isState = (v: number): boolean => v === LABEL.actionable || v === LABEL.transformed;
const excluded = (v: number): boolean => v === LABEL.ambiguous || v === LABEL.ignore || v === LABEL.void;

function classOf(g: number, p: number): number {
  if (excluded(g)) return 6;
  const gs = isState(g);
  const ps = isState(p);
  if (!gs && !ps) return 0;
  if (gs && !ps) return 4;
  if (!gs && ps) return 3;
  return g === p ? (g === LABEL.actionable ? 1 : 2) : 5;
}

/** The error map of `gt` against `pred` (null: an empty prediction), at most `maxWidth` pixels wide. */
export function errorMapDataUrl(gt: LabelMap, pred: LabelMap | null, maxWidth = 200): { url: string; width: number; height: number } {
  const scale = Math.max(1, Math.ceil(gt.width / maxWidth));
  const w = Math.max(1, Math.floor(gt.width / scale));
  const h = Math.max(1, Math.floor(gt.height / scale));
  const data = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      // The worst class in the block, so a thin error survives the reduction.
      let worst = 0;
      for (let dy = 0; dy < scale; dy++) {
        const row = (y * scale + dy) * gt.width + x * scale;
        for (let dx = 0; dx < scale; dx++) {
          const c = classOf(gt.data[row + dx], pred ? pred.data[row + dx] : 0);
          if (c >= 3 && c <= 5) worst = c;
          else if (worst < 3 && c > worst) worst = c;
        }
      }
      data[y * w + x] = worst;
    }
  }
  const png = encodeIndexedPng({ width: w, height: h, data }, ERROR_CLASSES.map((c) => c.color));
  return { url: `data:image/png;base64,${Buffer.from(png).toString('base64')}`, width: w, height: h };
}

export function errorLegend(): string {
  return `<div class="legend">${ERROR_CLASSES.map((c) => `<span><span class="sw" style="background:rgb(${c.color.join(',')})"></span>${c.name}</span>`).join('')}</div>`;
}
