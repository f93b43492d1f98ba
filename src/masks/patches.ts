/**
 * Copying a box of pixels out of a label map and back in. Undo and revisions store exactly these:
 * the changed box before and after a gesture, which is far smaller than two whole frames.
 */
import type { Box, LabelMap } from './labelMap';

/** The pixels inside `box`, row-major, length box.w * box.h. The box must lie inside the map. */
export function extractBox(map: LabelMap, box: Box): Uint8Array {
  checkBoxInside(map, box);
  const { x, y, w, h } = box;
  const out = new Uint8Array(w * h);
  for (let r = 0; r < h; r++) {
    const src = (y + r) * map.width + x;
    out.set(map.data.subarray(src, src + w), r * w);
  }
  return out;
}

/** Writes `pixels` (row-major, length box.w * box.h) into `map` at `box`, in place. */
export function pasteBox(map: LabelMap, box: Box, pixels: Uint8Array): void {
  checkBoxInside(map, box);
  const { x, y, w, h } = box;
  if (pixels.length !== w * h) {
    throw new RangeError(`patch has ${pixels.length} pixels but box ${w}x${h} needs ${w * h}`);
  }
  for (let r = 0; r < h; r++) map.data.set(pixels.subarray(r * w, r * w + w), (y + r) * map.width + x);
}

function checkBoxInside(map: LabelMap, box: Box): void {
  const { x, y, w, h } = box;
  const ints = Number.isInteger(x) && Number.isInteger(y) && Number.isInteger(w) && Number.isInteger(h);
  if (!ints || x < 0 || y < 0 || w < 0 || h < 0 || x + w > map.width || y + h > map.height) {
    throw new RangeError(
      `box {x: ${x}, y: ${y}, w: ${w}, h: ${h}} is not an integer box inside the ${map.width}x${map.height} map (clampBox it first)`,
    );
  }
}
