/**
 * The stored `proposal` layer of a frame as something an annotator can accept piece by piece:
 * its connected regions per state (4-connected, like the editor's fill and region tools), and the
 * whole-frame accept into gt.
 *
 * Whole-frame accept has two modes:
 * - 'fill-empty' (the default, key Shift+Enter in the panel): proposal labels land only on gt
 *   pixels that are still background, so nothing an annotator painted is ever overwritten;
 * - 'replace': gt becomes exactly the proposal layer (pixels the proposal leaves empty become
 *   background), for starting a frame over from the pre-label.
 * Either way the result is one patch, so one undo restores the frame.
 */
import type { LabelMap } from '../../../masks/labelMap';
import type { CroppedMask } from '../../spoc/croppedMask';

export interface LayerRegion {
  label: 1 | 2;
  mask: CroppedMask;
}

/** Connected regions of labels 1 and 2 (other labels are ignored), in scan order of their first pixel. */
export function regionsOfLayer(map: LabelMap, minArea = 1): LayerRegion[] {
  const { width, height, data } = map;
  const seen = new Uint8Array(width * height);
  const out: LayerRegion[] = [];
  const stack: number[] = [];
  const pixels: number[] = [];
  for (let start = 0; start < data.length; start++) {
    const label = data[start];
    if ((label !== 1 && label !== 2) || seen[start]) continue;
    seen[start] = 1;
    stack.push(start);
    pixels.length = 0;
    let x0 = width;
    let y0 = height;
    let x1 = -1;
    let y1 = -1;
    while (stack.length > 0) {
      const i = stack.pop()!;
      pixels.push(i);
      const x = i % width;
      const y = (i - x) / width;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
      const visit = (j: number) => {
        if (!seen[j] && data[j] === label) {
          seen[j] = 1;
          stack.push(j);
        }
      };
      if (x > 0) visit(i - 1);
      if (x < width - 1) visit(i + 1);
      if (y > 0) visit(i - width);
      if (y < height - 1) visit(i + width);
    }
    if (pixels.length < minArea) continue;
    const box = { x: x0, y: y0, w: x1 - x0 + 1, h: y1 - y0 + 1 };
    const bits = new Uint8Array(box.w * box.h);
    for (const i of pixels) {
      const x = i % width;
      const y = (i - x) / width;
      bits[(y - y0) * box.w + (x - x0)] = 1;
    }
    out.push({ label, mask: { frameWidth: width, frameHeight: height, box, data: bits, area: pixels.length } });
  }
  return out;
}

export type FrameAcceptMode = 'fill-empty' | 'replace';

/** gt data after accepting the whole proposal layer (a new array; neither map changes). */
export function acceptLayer(gt: LabelMap, proposal: LabelMap, mode: FrameAcceptMode): Uint8Array {
  if (gt.width !== proposal.width || gt.height !== proposal.height) {
    throw new RangeError(`the proposal layer is ${proposal.width}x${proposal.height} but the frame is ${gt.width}x${gt.height}`);
  }
  const out = new Uint8Array(gt.data.length);
  for (let i = 0; i < out.length; i++) {
    const p = proposal.data[i] === 1 || proposal.data[i] === 2 ? proposal.data[i] : 0;
    out[i] = mode === 'replace' ? p : gt.data[i] !== 0 ? gt.data[i] : p;
  }
  return out;
}
