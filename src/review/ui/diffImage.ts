/** Pixels of reviewer mode's canvas overlays: the diff of two versions, and a version in the state colours. */
import type { LabelMap } from '../../masks/labelMap';
import { DIFF_BITS, type MapDiff } from '../errorMap';

type Rgba = readonly [number, number, number, number];

/**
 * Four distinct colours (Okabe–Ito where the state colours leave room): added pixels are filled,
 * removed pixels hatched, so a pixel that went actionable -> transformed shows green fill over
 * orange hatching.
 */
export const DIFF_COLOURS: Record<'actAdded' | 'actRemoved' | 'trfAdded' | 'trfRemoved', Rgba> = {
  actAdded: [239, 68, 68, 220],
  actRemoved: [230, 159, 0, 255],
  trfAdded: [34, 197, 94, 220],
  trfRemoved: [86, 180, 233, 255],
};

export const DIFF_LABELS: [keyof typeof DIFF_COLOURS, string][] = [
  ['actAdded', 'actionable added'],
  ['actRemoved', 'actionable removed'],
  ['trfAdded', 'transformed added'],
  ['trfRemoved', 'transformed removed'],
];

/** 2-px diagonal stripes: where the hatching of removed pixels is drawn. */
const onHatch = (x: number, y: number) => (x + y) % 4 < 2;

/**
 * Paints a diff into `out` (RGBA, the map's size); unchanged pixels stay transparent. `shown` masks
 * the DIFF_BITS to draw (default all), so each of the four classes can be looked at alone.
 */
export function paintDiff(diff: MapDiff, out: { width: number; height: number; data: Uint8ClampedArray }, shown = 15): void {
  const px = out.data;
  px.fill(0);
  const { width } = diff;
  for (let i = 0; i < diff.data.length; i++) {
    const bits = diff.data[i] & shown;
    if (!bits) continue;
    const y = (i / width) | 0;
    const x = i - y * width;
    const removed = bits & DIFF_BITS.actRemoved ? DIFF_COLOURS.actRemoved : bits & DIFF_BITS.trfRemoved ? DIFF_COLOURS.trfRemoved : null;
    const added = bits & DIFF_BITS.actAdded ? DIFF_COLOURS.actAdded : bits & DIFF_BITS.trfAdded ? DIFF_COLOURS.trfAdded : null;
    const c = removed && onHatch(x, y) ? removed : added;
    if (!c) continue;
    const o = i * 4;
    px[o] = c[0];
    px[o + 1] = c[1];
    px[o + 2] = c[2];
    px[o + 3] = c[3];
  }
}

const STATE_RGBA: Record<number, Rgba> = { 1: [239, 68, 68, 130], 2: [34, 197, 94, 130] };

/** Paints a label map in the state colours (the annotator's version, shown instead of the gt masks). */
export function paintVersion(map: LabelMap, out: { data: Uint8ClampedArray }): void {
  const px = out.data;
  px.fill(0);
  for (let i = 0; i < map.data.length; i++) {
    const c = STATE_RGBA[map.data[i]];
    if (!c) continue;
    const o = i * 4;
    px[o] = c[0];
    px[o + 1] = c[1];
    px[o + 2] = c[2];
    px[o + 3] = c[3];
  }
}
