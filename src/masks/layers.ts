/**
 * A label map (0 background, 1 actionable, 2 transformed) <-> its stored form: one binary COCO RLE
 * per state. Two RLEs instead of one multi-label encoding because COCO RLE is binary, because
 * metrics and exports want each state on its own, and because pycocotools can read either directly.
 */
import { MaskFormatError } from './errors';
import { LABEL, createLabelMap, type Box, type LabelMap } from './labelMap';
import { decodeCounts, encodeCountsWhere, makeRle, onTableFor, parseCocoRle, rleCounts, type CocoRle, type OnTable } from './rle';
import { countsOverlap } from './rleOps';

/** One frame's stored masks: actionable and transformed, which never overlap. */
export interface LayerMasks {
  act: CocoRle;
  trf: CocoRle;
}

const ACT_ON = onTableFor(LABEL.actionable);
const TRF_ON = onTableFor(LABEL.transformed);

/**
 * Encodes a label map holding only 0, 1 and 2. Any other value (an imported release label such as
 * 4 ambiguous, or DAVIS void) would be silently dropped, so it is refused: remap it first
 * (geometry.ts remapLabels).
 */
export function encodeLayer(map: LabelMap): LayerMasks {
  const { width: w, height: h, data } = map;
  const bad = firstNonStateLabel(data);
  if (bad >= 0) {
    throw new RangeError(
      `label map holds label ${data[bad]} at (x=${bad % w}, y=${Math.floor(bad / w)}); a layer stores only 0, 1 and 2`,
    );
  }
  return {
    act: makeRle(encodeCountsWhere(data, h, w, ACT_ON), h, w),
    trf: makeRle(encodeCountsWhere(data, h, w, TRF_ON), h, w),
  };
}

/**
 * `encodeLayer(map)` for a map known to be 0 outside `box` (a replay from an empty map only writes
 * inside its revisions' boxes: sync/rebuildLayer.ts), in time proportional to the box rather than
 * the frame: what a pulled stroke costs on a 1280x720 frame. The same RLE as `encodeLayer` (tested
 * against it); labels other than 0, 1, 2 inside the box are refused as there. A null box: empty.
 */
export function encodeLayerInBox(map: LabelMap, box: Box | null): LayerMasks {
  const { width: w, height: h, data } = map;
  if (!box) return { act: makeRle([h * w], h, w), trf: makeRle([h * w], h, w) };
  if (!(box.x >= 0 && box.y >= 0 && box.w > 0 && box.h > 0 && box.x + box.w <= w && box.y + box.h <= h)) {
    throw new RangeError(`box {x: ${box.x}, y: ${box.y}, w: ${box.w}, h: ${box.h}} is not inside the ${w}x${h} map`);
  }
  const crop = new Uint8Array(box.w * box.h);
  for (let r = 0; r < box.h; r++) crop.set(data.subarray((box.y + r) * w + box.x, (box.y + r) * w + box.x + box.w), r * box.w);
  const bad = firstNonStateLabel(crop);
  if (bad >= 0) {
    throw new RangeError(
      `label map holds label ${crop[bad]} at (x=${box.x + (bad % box.w)}, y=${box.y + Math.floor(bad / box.w)}); a layer stores only 0, 1 and 2`,
    );
  }
  const frameCounts = (on: OnTable) => boxCountsInFrame(encodeCountsWhere(crop, box.h, box.w, on), box, h, w);
  return { act: makeRle(frameCounts(ACT_ON), h, w), trf: makeRle(frameCounts(TRF_ON), h, w) };
}

/** Column-major counts of a box's pixels -> the counts of the whole h x w frame, 0 outside the box. */
function boxCountsInFrame(counts: ArrayLike<number>, box: Box, h: number, w: number): number[] {
  const out: number[] = [];
  let end = 0; // where the last "on" interval of the frame ended
  let q = 0; // position in the box, column-major
  for (let i = 0; i < counts.length; i++) {
    let len = counts[i];
    if (i % 2 === 0) {
      q += len;
      continue;
    }
    while (len > 0) {
      const col = Math.floor(q / box.h);
      const r = q - col * box.h;
      const seg = Math.min(len, box.h - r);
      const start = (box.x + col) * h + box.y + r;
      if (out.length > 0 && start === end) out[out.length - 1] += seg; // a column run continuing into the next
      else out.push(start - end, seg);
      end = start + seg;
      q += seg;
      len -= seg;
    }
  }
  if (end < h * w) out.push(h * w - end);
  return out;
}

/**
 * Decodes stored masks into a label map. Throws MaskFormatError when the two sizes differ, when
 * they differ from `expected` (the frame size, if given), or when a pixel is in both states.
 */
export function decodeLayer(layer: LayerMasks, expected?: { width: number; height: number }): LabelMap {
  const [h, w] = layer.act.size;
  const [th, tw] = layer.trf.size;
  if (th !== h || tw !== w) {
    throw new MaskFormatError(`layer masks differ in size: actionable ${w}x${h}, transformed ${tw}x${th}`);
  }
  if (expected && (expected.width !== w || expected.height !== h)) {
    throw new MaskFormatError(`layer size ${w}x${h} does not match the frame size ${expected.width}x${expected.height}`);
  }
  const actCounts = rleCounts(layer.act);
  const trfCounts = rleCounts(layer.trf);
  const act = decodeCounts(actCounts, h, w, LABEL.actionable);
  const trf = decodeCounts(trfCounts, h, w, LABEL.transformed);
  if (countsOverlap(actCounts, trfCounts).intersection > 0) {
    const i = firstBothSet(act, trf);
    throw new MaskFormatError(
      `layer masks overlap: pixel (x=${i % w}, y=${Math.floor(i / w)}) is both actionable and transformed`,
    );
  }
  orInto(act, trf); // disjoint 1s and 2s: OR is the union of the labels
  return { width: w, height: h, data: act };
}

/** An all-background layer. */
export function emptyLayer(width: number, height: number): LayerMasks {
  createLabelMap(width, height); // validates the size with the usual message
  const empty = Uint32Array.of(width * height);
  return { act: makeRle(empty, height, width), trf: makeRle(empty, height, width) };
}

/** Validates stored or imported JSON `{ act, trf }` into LayerMasks (each as parseCocoRle). */
export function parseLayer(json: unknown): LayerMasks {
  if (typeof json !== 'object' || json === null) throw new MaskFormatError('layer must be an object {act, trf}');
  const { act, trf } = json as { act?: unknown; trf?: unknown };
  if (act === undefined || trf === undefined) throw new MaskFormatError('layer must have both act and trf');
  return { act: parseCocoRle(act), trf: parseCocoRle(trf) };
}

/** Index of the first byte not in {0, 1, 2}, or -1. Checks four bytes at a time when aligned. */
function firstNonStateLabel(data: Uint8Array): number {
  let start = 0;
  if (data.byteOffset % 4 === 0) {
    const words = new Uint32Array(data.buffer, data.byteOffset, data.length >> 2);
    for (let k = 0; k < words.length; k++) {
      const v = words[k];
      // A byte is in {0, 1, 2} iff bits 2..7 are clear and bits 0 and 1 are not both set.
      if ((v & 0xfcfcfcfc) !== 0 || (v & (v >>> 1) & 0x01010101) !== 0) {
        start = k << 2;
        break;
      }
      start = (k + 1) << 2;
    }
  }
  for (let i = start; i < data.length; i++) if (data[i] > LABEL.transformed) return i;
  return -1;
}

function firstBothSet(a: Uint8Array, b: Uint8Array): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== 0 && b[i] !== 0) return i;
  return -1;
}

/** a |= b, four bytes at a time (both are fresh, hence aligned, buffers of equal length). */
function orInto(a: Uint8Array, b: Uint8Array): void {
  const n4 = a.length >> 2;
  const wa = new Uint32Array(a.buffer, a.byteOffset, n4);
  const wb = new Uint32Array(b.buffer, b.byteOffset, n4);
  for (let k = 0; k < n4; k++) wa[k] |= wb[k];
  for (let i = n4 << 2; i < a.length; i++) a[i] |= b[i];
}
