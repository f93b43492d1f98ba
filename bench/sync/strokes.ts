/**
 * Real stroke revisions for the sync bench: a brush stroke stamped with the editor's own brush
 * (`stampCapsule`) on a 1280x720 label map, stored as the app stores it (the changed box's pixels
 * before and after, as COCO RLE of the box).
 */
import { stampCapsule } from '../../src/annotator/paint/brush';
import { paintTable } from '../../src/annotator/paint/paintRule';
import { encodeRle } from '../../src/masks/rle';
import type { LabelMap } from '../../src/masks/labelMap';

export const WIDTH = 1280;
export const HEIGHT = 720;

function boxPixels(map: LabelMap, box: { x: number; y: number; w: number; h: number }, keep: (label: number) => boolean): Uint8Array {
  // Column-major, as COCO RLE is.
  const out = new Uint8Array(box.w * box.h);
  for (let x = 0; x < box.w; x++) for (let y = 0; y < box.h; y++) out[x * box.h + y] = keep(map.data[(box.y + y) * map.width + box.x + x]) ? 1 : 0;
  return out;
}

/** One stroke of radius 12 from a random point, 40–120 px long, on `map` (changed in place). */
export function strokeRevision(map: LabelMap, random: () => number): Record<string, unknown> {
  const a = { x: 40 + random() * (WIDTH - 80), y: 40 + random() * (HEIGHT - 80) };
  const angle = random() * Math.PI * 2;
  const len = 40 + random() * 80;
  const b = { x: Math.min(WIDTH - 20, Math.max(20, a.x + Math.cos(angle) * len)), y: Math.min(HEIGHT - 20, Math.max(20, a.y + Math.sin(angle) * len)) };
  const before = { ...map, data: map.data.slice() };
  const label = random() < 0.5 ? 1 : 2;
  const box = stampCapsule(map, a, b, 12, paintTable(label, false));
  const rle = (m: LabelMap, keep: (l: number) => boolean) => {
    const r = encodeRle(boxPixels(m, box, keep), box.h, box.w);
    return { size: r.size, counts: r.counts };
  };
  return {
    box,
    before: rle(before, (l) => l !== 0),
    after: rle(map, (l) => l !== 0),
    beforeTrf: rle(before, (l) => l === 2),
    afterTrf: rle(map, (l) => l === 2),
    action: 'brush',
  };
}

export function emptyMap(): LabelMap {
  return { width: WIDTH, height: HEIGHT, data: new Uint8Array(WIDTH * HEIGHT) };
}
