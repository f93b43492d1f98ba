/**
 * The regions propagation carries from one frame to the next: the 4-connected components of each
 * state (actionable 1, transformed 2) of a label map — the same connectivity as the fill tool and
 * instance tags — each cropped to its box. A component holding an instance tag's seed carries that
 * instance number (tags name components, so tagged and untagged regions are the same kind of thing;
 * an untagged component is still propagated, never dropped for lacking a tag).
 */
import type { LabelMap, StateLabel } from '../../masks/labelMap';
import type { CroppedMask } from '../spoc/croppedMask';

export interface PropRegion {
  label: StateLabel;
  mask: CroppedMask;
  /** Instance number from a tag whose seed lies in the region, else null. */
  instanceId: number | null;
}

export interface RegionOptions {
  /** Components smaller than this are specks, not objects (SPOC's tracker drops masks under 50 px). */
  minArea?: number;
  tags?: readonly { id: number; x: number; y: number }[];
}

export const DEFAULT_MIN_REGION_AREA = 50;

/** Components of labels 1 and 2, largest first. */
export function stateRegions(map: LabelMap, options: RegionOptions = {}): PropRegion[] {
  const { width: w, height: h, data } = map;
  const minArea = options.minArea ?? DEFAULT_MIN_REGION_AREA;
  // Component id per pixel (0 = not visited / not a state pixel).
  const comp = new Int32Array(w * h);
  const stack: number[] = [];
  const found: { label: StateLabel; pixels: Int32Array; x0: number; y0: number; x1: number; y1: number }[] = [];
  for (let start = 0; start < data.length; start++) {
    const label = data[start];
    if ((label !== 1 && label !== 2) || comp[start] !== 0) continue;
    const id = found.length + 1;
    const pixels: number[] = [];
    let x0 = w, y0 = h, x1 = -1, y1 = -1;
    comp[start] = id;
    stack.push(start);
    while (stack.length > 0) {
      const i = stack.pop()!;
      pixels.push(i);
      const x = i % w;
      const y = (i - x) / w;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
      const visit = (j: number) => {
        if (comp[j] === 0 && data[j] === label) {
          comp[j] = id;
          stack.push(j);
        }
      };
      if (x > 0) visit(i - 1);
      if (x < w - 1) visit(i + 1);
      if (y > 0) visit(i - w);
      if (y < h - 1) visit(i + w);
    }
    found.push({ label: label as StateLabel, pixels: Int32Array.from(pixels), x0, y0, x1, y1 });
  }
  const tagOf = new Map<number, number>();
  for (const t of options.tags ?? []) {
    if (t.x < 0 || t.y < 0 || t.x >= w || t.y >= h) continue;
    const id = comp[t.y * w + t.x];
    if (id > 0 && !tagOf.has(id)) tagOf.set(id, t.id);
  }
  const out: PropRegion[] = [];
  found.forEach((f, k) => {
    if (f.pixels.length < minArea) return;
    const box = { x: f.x0, y: f.y0, w: f.x1 - f.x0 + 1, h: f.y1 - f.y0 + 1 };
    const bits = new Uint8Array(box.w * box.h);
    for (const i of f.pixels) {
      const x = i % w;
      const y = (i - x) / w;
      bits[(y - box.y) * box.w + (x - box.x)] = 1;
    }
    out.push({
      label: f.label,
      mask: { frameWidth: w, frameHeight: h, box, data: bits, area: f.pixels.length },
      instanceId: tagOf.get(k + 1) ?? null,
    });
  });
  return out.sort((a, b) => b.mask.area - a.mask.area);
}
