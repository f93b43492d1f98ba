/**
 * Pre-label a clip (docs/inference.md; no UI): SPOC's pseudo-labelling pipeline over an
 * InferenceClient.
 *
 * Per frame: SAM over a point grid (every candidate mask of every point, one batched worker call
 * returning cropped masks) -> minimum-area filter +
 * NMS (mask IoU 0.9, 50 px; spoc/nms.ts) -> CLIP image embeddings of the masked crops
 * (spoc/maskedCrop.ts) -> S_act / S_trf against the clip's two text prompts -> Eq. 1.
 * Across frames: greedy mask-IoU tracker (tracker.ts) -> applyDynamics per track.
 * Output: per frame a label map painted from the final states (paint.ts), written as the clip's
 * `proposal` layer set in ONE store transaction (writeSourceLayers refuses gt), plus one record per
 * proposal for display.
 *
 * Nothing is written until every frame is done: cancelling (AbortSignal) rejects with an
 * InferenceError named 'AbortError' and leaves the store as it was.
 */
import type { RgbaImage } from '../../masks/labelMap';
import { encodeLayer, type LayerMasks } from '../../masks/layers';
import type { SpocDb } from '../../store/db';
import { writeSourceLayers, type SourceLayersResult } from '../../store/sourceLayers';
import type { InferenceClient } from '../runtime/inferenceClient';
import { ERRORS, InferenceError } from '../runtime/protocol';
import type { CroppedMask } from '../spoc/croppedMask';
import { applyDynamics } from '../spoc/dynamics';
import { labelProposal, SPOC_EQ1_DEFAULTS, type ProposalState } from '../spoc/eq1';
import { maskedCrop } from '../spoc/maskedCrop';
import { SPOC_NMS_DEFAULTS } from '../spoc/nms';
import { pointGrid } from '../spoc/pointGrid';
import { stateScores } from '../spoc/similarity';
import { paintProposals } from './paint';
import { DEFAULT_TRACK_IOU, linkTracks } from './tracker';

export interface PrelabelFrame {
  index: number;
  image: RgbaImage;
}

export interface PrelabelOptions {
  /** Loaded model ids: a SAM family and a CLIP model. */
  models: { sam: string; clip: string };
  /** The clip's state descriptions (CLIP text prompts), e.g. "whole avocado" / "chopped avocado pieces". */
  prompts: { actionable: string; transformed: string };
  /** Points per side of SAM's prompt grid (default 32, SPOC Table C). */
  gridSize?: number;
  /** Explicit prompt points in frame coordinates instead of the grid (e.g. detector centres). */
  points?: (width: number, height: number) => readonly { x: number; y: number }[];
  /** Eq. 1 thresholds (per verb in the paper; defaults 0.5 / 0.01). */
  tau?: number;
  delta?: number;
  /** Minimum proposal area in px (default 50). */
  minArea?: number;
  /** NMS mask-IoU threshold (default 0.9). */
  nmsIou?: number;
  /** Tracker: minimum mask IoU to link proposals of consecutive frames (default 0.5). */
  trackIou?: number;
  /** Crops per CLIP call (default 16). */
  clipBatch?: number;
  /** Number of frames, for progress and ETA when `frames` has no length. */
  frameCount?: number;
  signal?: AbortSignal;
  /** After each frame: frames done, total (null if unknown), estimated ms left (null until known). */
  onProgress?: (done: number, total: number | null, etaMs: number | null) => void;
  /** Within a frame: the fraction of its grid points decoded so far (for a smooth progress bar). */
  onFrameProgress?: (frameIndex: number, fraction: number) => void;
  /** Where to write the `proposal` layers (replacing an existing proposal set). Omit to only compute. */
  store?: { db: SpocDb; clipId: string };
  /** Provenance `by` for the written layers (default "prelabel: <sam> + <clip>"). */
  by?: string;
}

export interface PrelabelRecord {
  /** Frame index and the proposal's position among that frame's kept proposals. */
  frame: number;
  k: number;
  trackId: number;
  mask: CroppedMask;
  /** The SAM prompt point and the model's predicted IoU (the NMS score). */
  point: { x: number; y: number };
  samScore: number;
  sAct: number;
  sTrf: number;
  /** Eq. 1 label, then the label after the dynamics constraints (and which one changed it). */
  eq1: ProposalState;
  final: ProposalState;
  changedBy: 'causal' | 'ambiguity' | null;
}

export interface PrelabelFrameResult {
  frameIndex: number;
  width: number;
  height: number;
  layer: LayerMasks;
  /** SAM masks decoded, kept after the area filter + NMS. */
  candidates: number;
  kept: number;
  /** Wall time of the frame; of it, waiting for SAM (encode + the grid decode, which includes the worker's NMS) and CLIP calls; the rest is our own work (crops, scoring). */
  ms: number;
  samMs: number;
  clipMs: number;
}

export interface PrelabelResult {
  frames: PrelabelFrameResult[];
  records: PrelabelRecord[];
  tracks: number;
  /** The store write, null without `store`. */
  written: SourceLayersResult | null;
  ms: number;
}

interface FrameWork {
  index: number;
  width: number;
  height: number;
  masks: CroppedMask[];
  points: { x: number; y: number }[];
  scores: number[];
  sAct: number[];
  sTrf: number[];
  candidates: number;
  ms: number;
  samMs: number;
  clipMs: number;
}

function checkAbort(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new InferenceError(ERRORS.abort, 'pre-label cancelled');
}

async function* iterate(frames: AsyncIterable<PrelabelFrame> | Iterable<PrelabelFrame>): AsyncGenerator<PrelabelFrame> {
  for await (const f of frames) yield f;
}

let runs = 0;

export async function prelabelClip(
  client: InferenceClient,
  frames: AsyncIterable<PrelabelFrame> | Iterable<PrelabelFrame>,
  options: PrelabelOptions,
): Promise<PrelabelResult> {
  const t0 = performance.now();
  const { signal, models } = options;
  const eq1 = { tau: options.tau ?? SPOC_EQ1_DEFAULTS.tau, delta: options.delta ?? SPOC_EQ1_DEFAULTS.delta };
  const nmsOptions = { iouThreshold: options.nmsIou ?? SPOC_NMS_DEFAULTS.iouThreshold, minArea: options.minArea ?? SPOC_NMS_DEFAULTS.minArea };
  const batch = Math.max(1, Math.floor(options.clipBatch ?? 16));
  const total = options.frameCount ?? (Array.isArray(frames) ? frames.length : null);
  const run = `prelabel-${Date.now().toString(36)}-${++runs}`;
  const call = { signal };
  checkAbort(signal);

  const texts = await client.clipEmbedTexts({ modelId: models.clip, texts: [options.prompts.actionable, options.prompts.transformed] }, call);
  const [actText, trfText] = texts.embeddings;

  const work: FrameWork[] = [];
  const seen = new Set<number>();
  for await (const { index, image } of iterate(frames)) {
    checkAbort(signal);
    if (seen.has(index)) throw new RangeError(`frame ${index} given twice`);
    seen.add(index);
    const tf = performance.now();
    const { width, height } = image;
    const frameKey = `${run}:${index}`;
    let samMs = 0;
    let clipMs = 0;
    let ts = performance.now();
    await client.samEncode({ modelId: models.sam, frameKey, image }, call);
    samMs += performance.now() - ts;
    const candidates: { mask: CroppedMask; score: number; point: { x: number; y: number } }[] = [];
    const pts = options.points ? options.points(width, height) : pointGrid(width, height, options.gridSize ?? 32);
    let decoded: number;
    try {
      // One batched request: the worker thresholds and crops every candidate, drops those under the
      // minimum area and runs NMS, so no full-frame mask crosses postMessage and the UI thread never
      // runs the quadratic NMS.
      ts = performance.now();
      const r = await client.samDecodeGrid(
        { modelId: models.sam, frameKey, points: pts.map((p) => ({ x: p.x, y: p.y })), minArea: nmsOptions.minArea, nmsIou: nmsOptions.iouThreshold },
        { signal, onProgress: (p) => p.total && options.onFrameProgress?.(index, (p.loaded ?? 0) / p.total) },
      );
      samMs += performance.now() - ts;
      decoded = r.decoded;
      for (const c of r.candidates) candidates.push({ mask: c.mask, score: c.iou, point: { x: pts[c.pointIndex].x, y: pts[c.pointIndex].y } });
    } finally {
      // The embedding is of no use after this frame; free the worker's cache (best effort).
      await client.evictEmbeddings({ modelId: models.sam, frameKeys: [frameKey] }).catch(() => undefined);
    }
    // NMS ran in the worker (same rule as spoc/nms.ts): the candidates are the kept ones, best first.
    const kept = candidates;
    const sAct: number[] = [];
    const sTrf: number[] = [];
    for (let s = 0; s < kept.length; s += batch) {
      const crops = kept.slice(s, s + batch).map((p) => maskedCrop(image, p.mask));
      ts = performance.now();
      const e = await client.clipEmbedImages({ modelId: models.clip, images: crops }, call);
      clipMs += performance.now() - ts;
      for (const emb of e.embeddings) {
        const sc = stateScores(emb, actText, trfText);
        sAct.push(sc.sAct);
        sTrf.push(sc.sTrf);
      }
    }
    work.push({
      index,
      width,
      height,
      masks: kept.map((p) => p.mask),
      points: kept.map((p) => p.point),
      scores: kept.map((p) => p.score),
      sAct,
      sTrf,
      candidates: decoded,
      ms: performance.now() - tf,
      samMs,
      clipMs,
    });
    const done = work.length;
    const elapsed = performance.now() - t0;
    options.onProgress?.(done, total, total === null ? null : Math.max(0, (elapsed / done) * (total - done)));
  }
  checkAbort(signal);

  // Frames in time order for the tracker and the dynamics constraints.
  work.sort((a, b) => a.index - b.index);
  const trackIds = linkTracks(
    work.map((w) => w.masks),
    options.trackIou ?? DEFAULT_TRACK_IOU,
  );
  const records: PrelabelRecord[] = [];
  const byTrack = new Map<number, PrelabelRecord[]>();
  work.forEach((w, f) => {
    w.masks.forEach((mask, k) => {
      const state = labelProposal(w.sAct[k], w.sTrf[k], eq1);
      const rec: PrelabelRecord = {
        frame: w.index,
        k,
        trackId: trackIds[f][k],
        mask,
        point: w.points[k],
        samScore: w.scores[k],
        sAct: w.sAct[k],
        sTrf: w.sTrf[k],
        eq1: state,
        final: state,
        changedBy: null,
      };
      records.push(rec);
      const list = byTrack.get(rec.trackId) ?? [];
      list.push(rec);
      byTrack.set(rec.trackId, list);
    });
  });
  for (const list of byTrack.values()) {
    // One record per frame per track (tracker.ts), sorted by frame as applyDynamics returns them.
    list.sort((a, b) => a.frame - b.frame);
    const out = applyDynamics(list.map((r) => ({ frame: r.frame, state: r.eq1 })));
    out.forEach((f, i) => {
      list[i].final = f.state;
      list[i].changedBy = f.changedBy;
    });
  }

  const frameResults: PrelabelFrameResult[] = work.map((w) => {
    const items = records.filter((r) => r.frame === w.index).map((r) => ({ mask: r.mask, state: r.final, score: r.samScore }));
    return {
      frameIndex: w.index,
      width: w.width,
      height: w.height,
      layer: encodeLayer(paintProposals(w.width, w.height, items)),
      candidates: w.candidates,
      kept: w.masks.length,
      ms: w.ms,
      samMs: w.samMs,
      clipMs: w.clipMs,
    };
  });

  let written: SourceLayersResult | null = null;
  if (options.store) {
    checkAbort(signal);
    const provenance = { kind: 'proposal' as const, by: options.by ?? `prelabel: ${models.sam} + ${models.clip}`, at: Date.now(), from: run };
    written = await writeSourceLayers(
      options.store.db,
      options.store.clipId,
      'proposal',
      frameResults.map((f) => ({ frameIndex: f.frameIndex, act: f.layer.act, trf: f.layer.trf, provenance })),
      { replace: true },
    );
  }
  return { frames: frameResults, records, tracks: byTrack.size, written, ms: performance.now() - t0 };
}
