/**
 * The worker side of `samDecodeGrid`: one decoder run per point against a cached embedding, each
 * candidate mask cropped to its box before it leaves the worker. At 1080p a full-frame 0/1 mask is
 * 2 MB; a 32x32 grid gives ~4000 of them, so cropping here (reading only the box the binariser
 * already found) is what makes automatic proposals fit through postMessage. NMS runs here too when
 * asked: it is quadratic in the candidates (seconds for thousands of large masks) and must not
 * block the UI thread.
 */
import type { BinaryMask } from '../models/samPostprocess';
import type { SamAdapter, SamEmbedding } from '../models/samTypes';
import type { CroppedMask } from '../spoc/croppedMask';
import { nms } from '../spoc/nms';
import type { SamGridCandidate, SamGridParams, SamGridResult } from './protocol';

export interface GridHooks {
  /** Throws when the request was cancelled (called between points). */
  checkpoint(): void;
  /** After each point: points done, total. */
  progress(done: number, total: number): void;
}

/** Crops a binarised SAM mask to its (already known) box; the data buffer is the candidate's own. */
export function cropBinaryMask(mask: BinaryMask): CroppedMask {
  const { width, height, bbox } = mask;
  if (!bbox || mask.area === 0) return { frameWidth: width, frameHeight: height, box: { x: 0, y: 0, w: 0, h: 0 }, data: new Uint8Array(0), area: 0 };
  const data = new Uint8Array(bbox.w * bbox.h);
  for (let y = 0; y < bbox.h; y++) {
    const row = (bbox.y + y) * width + bbox.x;
    for (let x = 0; x < bbox.w; x++) data[y * bbox.w + x] = mask.data[row + x] ? 1 : 0;
  }
  return { frameWidth: width, frameHeight: height, box: { ...bbox }, data, area: mask.area };
}

/**
 * Lets queued messages (a cancel) in: ORT's WASM run resolves through microtasks, so without a
 * macrotask turn a long batch would never see its own cancel. A MessageChannel turn is not
 * clamped like setTimeout(0).
 */
function macrotask(): Promise<void> {
  if (typeof MessageChannel === 'undefined') return new Promise((r) => setTimeout(r, 0));
  return new Promise((resolve) => {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => {
      ch.port1.close();
      resolve();
    };
    ch.port2.postMessage(null);
  });
}

/** Points between event-loop turns: frequent enough for a prompt cancel, rare enough to cost nothing. */
const YIELD_EVERY = 8;

export async function decodeGrid(adapter: SamAdapter, embedding: SamEmbedding, params: SamGridParams, hooks: GridHooks): Promise<SamGridResult> {
  const t0 = performance.now();
  const minArea = Math.max(0, params.minArea ?? 0);
  const points = params.points;
  const candidates: SamGridCandidate[] = [];
  let decoded = 0;
  let modelMs = 0;
  let width = embedding.geometry.width;
  let height = embedding.geometry.height;
  for (let i = 0; i < points.length; i++) {
    if (i % YIELD_EVERY === 0 && i > 0) await macrotask();
    hooks.checkpoint();
    const { x, y } = points[i];
    const r = await adapter.decode(embedding, { points: [{ x, y, positive: true }] }, { candidates: 'all' });
    modelMs += r.timings.modelMs;
    width = r.width;
    height = r.height;
    for (const c of r.candidates) {
      decoded++;
      if (c.mask.area === 0 || c.mask.area < minArea) continue;
      candidates.push({ pointIndex: i, maskIndex: c.index, iou: c.iou, mask: cropBinaryMask(c.mask) });
    }
    hooks.progress(i + 1, points.length);
  }
  let nmsMs = 0;
  let out = candidates;
  if (params.nmsIou !== undefined) {
    const tn = performance.now();
    out = nms(
      candidates.map((c) => ({ mask: c.mask, score: c.iou })),
      { iouThreshold: params.nmsIou, minArea },
    ).map((k) => candidates[k]);
    nmsMs = performance.now() - tn;
  }
  return { width, height, candidates: out, decoded, ms: performance.now() - t0, modelMs, nmsMs };
}
