/**
 * One propagation step, frame t -> t+1, framework-free: the regions of t's label map are prompted
 * on t+1 (SAM: box + interior points per region, through the inference client) and combined into
 * t+1's map with a confidence. Re-detection replaces a region's prompt by one made from the SAM
 * grid proposal that overlaps it best on t+1 (SPOC re-runs detection every 10 frames because
 * trackers lose morphing objects). Without a SAM model the weight-free fallback tracks each object
 * by template matching (through the clip's native frames between the sampled ones when the source
 * has them) and re-fits it with GrabCut, with a confidence calibrated against measured IoU
 * (track.ts, calibration.ts); a backend offering only optical flow warps the whole map instead
 * (src/inference/classical).
 */
import type { LabelMap, RgbaImage } from '../../masks/labelMap';
import type { SamPrompt } from '../models/samGeometry';
import type { SamDecodeResult } from '../models/samTypes';
import type { CallOptions } from '../runtime/inferenceClient';
import type { SamEncodeResult, SamGridParams, SamGridResult } from '../runtime/protocol';
import { cropMask, maskIou, type CroppedMask } from '../spoc/croppedMask';
import { nms, SPOC_NMS_DEFAULTS } from '../spoc/nms';
import { pointGrid } from '../spoc/pointGrid';
import { combineRegions } from './combine';
import { frameConfidence, regionConfidence, shapeAgreement } from './confidence';
import { carryTags, type CarriedTag, type TagSuccessor } from './tags';
import { regionPrompt, type RegionPromptOptions } from './prompts';
import { rawTrackScore, shownTrackConfidence } from './calibration';
import { trackLabels, type TrackBackend } from './track';
import { stateRegions, type PropRegion } from './regions';

/** What propagation needs from the inference client (InferenceClient satisfies it). */
export interface SamPropagationBackend {
  samEncode(params: { modelId: string; frameKey: string; image: RgbaImage }, options?: CallOptions): Promise<SamEncodeResult>;
  samDecode(params: { modelId: string; frameKey: string; prompt: SamPrompt; candidates?: 'all' | 'best' }, options?: CallOptions): Promise<SamDecodeResult>;
  /** Batched grid decode with NMS in the worker; used for re-detection when present. */
  samDecodeGrid?(params: SamGridParams, options?: CallOptions): Promise<SamGridResult>;
}

/** The optical-flow fallback (src/inference/classical/classicalClient.ts satisfies it). */
export interface FlowPropagationBackend {
  propagateByFlow(prev: RgbaImage, next: RgbaImage, labels: LabelMap): Promise<{ map: LabelMap; confidence: number }>;
}

/** The classical client offers both; tracking is used whenever it is there. */
function canTrack(b: FlowPropagationBackend): b is FlowPropagationBackend & TrackBackend {
  const t = b as Partial<TrackBackend>;
  return typeof t.estimateShifts === 'function' && typeof t.refitLabels === 'function';
}

export type PropagationMethod = 'sam' | 'flow';

export interface RegionOutcome {
  label: 1 | 2;
  instanceId: number | null;
  previousArea: number;
  area: number;
  /** SAM's predicted IoU of the kept mask (flow: the flow's confidence). */
  quality: number;
  shape: number;
  confidence: number;
  /** The prompt came from a re-detected grid proposal. */
  redetected: boolean;
}

export interface PropagationResult {
  from: number;
  to: number;
  method: PropagationMethod;
  map: LabelMap;
  /** Frame confidence (docs/inference.md, "Propagation"); null when t had no regions. */
  confidence: number | null;
  regions: RegionOutcome[];
  /** Re-detection ran on this frame. */
  redetected: boolean;
  /** Instance tags handed on to t+1 (tags.ts). */
  tags: CarriedTag[];
  /** Weight-free tracking: how many native frames between from and to it stepped through (0: none were available). */
  nativeFrames?: number;
  /** Weight-free tracking: the raw score before the previous frame's confidence is folded in (calibration.ts; the fit's input). */
  trackScore?: number;
  /**
   * Chain depth of frame `to`: propagation steps since a person's mask (the depth of frame `from`
   * + 1). Kept with the frame's confidence so the next step from it knows how far the chain has gone.
   * propagateFrame always sets it.
   */
  depth?: number;
  ms: number;
}

export interface PropagationSource {
  /** Frame pixels (decoded), for SAM's encoder or the flow. */
  getImage(k: number): Promise<RgbaImage>;
  /** Key of frame k in the worker's embedding cache (shared with the SAM click tool). */
  frameKey(k: number): string;
  /**
   * The clip's native frames strictly between sampled frames `from` and `to`, in order, at the
   * clip's size, when its source video is at hand. Weight-free tracking steps through them (small
   * motions instead of one jump); without it, it works from the sampled frames alone.
   */
  framesBetween?(from: number, to: number): AsyncIterable<RgbaImage>;
}

export interface PropagateFrameOptions extends RegionPromptOptions {
  from: number;
  /** Frame t's label map. */
  previous: LabelMap;
  tags?: readonly { id: number; x: number; y: number }[];
  minArea?: number;
  /** Run re-detection on t+1. */
  redetect?: boolean;
  /** Points per side of the re-detection grid (default 16: 256 decodes). */
  gridSize?: number;
  /**
   * Confidence of frame t's map when it was itself propagated (1 or absent: a person made it).
   * Weight-free tracking folds it in, since a chain carries its errors on.
   */
  previousConfidence?: number;
  /**
   * Chain depth of frame t's map: propagation steps since a person's mask (0: a person made it).
   * Absent: 0 for a person's mask, 1 when a confidence under 1 says t was propagated but not how far.
   */
  previousDepth?: number;
  signal?: AbortSignal;
}

export type PropagationEngine =
  | { kind: 'sam'; backend: SamPropagationBackend; modelId: string }
  | { kind: 'flow'; backend: FlowPropagationBackend };

function aborted(signal?: AbortSignal): void {
  if (signal?.aborted) throw new DOMException('propagation cancelled', 'AbortError');
}

/** The chain depth of the frame propagated from (see PropagateFrameOptions.previousDepth). */
export function sourceDepth(options: Pick<PropagateFrameOptions, 'previousConfidence' | 'previousDepth'>): number {
  if (options.previousDepth !== undefined) return Math.max(0, Math.floor(options.previousDepth));
  return options.previousConfidence !== undefined && options.previousConfidence < 1 ? 1 : 0;
}

function abortable<T>(work: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return work;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new DOMException('propagation cancelled', 'AbortError'));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

export async function propagateFrame(engine: PropagationEngine, source: PropagationSource, options: PropagateFrameOptions): Promise<PropagationResult> {
  const t0 = performance.now();
  const { previous, from } = options;
  const to = from + 1;
  const regions = stateRegions(previous, { minArea: options.minArea, tags: options.tags });
  aborted(options.signal);
  if (engine.kind === 'flow') return propagateByFlow(engine.backend, source, options, regions, t0);

  const { backend, modelId } = engine;
  const call = { signal: options.signal };
  const frameKey = source.frameKey(to);
  if (regions.length > 0) {
    const image = await source.getImage(to);
    aborted(options.signal);
    await backend.samEncode({ modelId, frameKey, image }, { ...call, transfer: true });
  }
  const proposals = options.redetect && regions.length > 0 ? await gridProposals(backend, modelId, frameKey, previous, options) : [];
  const outcomes: RegionOutcome[] = [];
  const items: { label: 1 | 2; mask: CroppedMask; confidence: number }[] = [];
  for (const region of regions) {
    aborted(options.signal);
    const anchor = bestOverlap(region.mask, proposals);
    const prompt = regionPrompt(anchor ?? region.mask, options);
    const r = await backend.samDecode({ modelId, frameKey, prompt, candidates: 'best' }, call);
    const best = r.candidates[0];
    const mask = best ? cropMask(best.mask.data, r.width, r.height) : cropMask(new Uint8Array(r.width * r.height), r.width, r.height);
    const quality = best?.iou ?? 0;
    const confidence = regionConfidence(quality, region.mask, mask);
    outcomes.push({
      label: region.label,
      instanceId: region.instanceId,
      previousArea: region.mask.area,
      area: mask.area,
      quality,
      shape: mask.area > 0 ? shapeAgreement(region.mask, mask) : 0,
      confidence,
      redetected: anchor !== null,
    });
    items.push({ label: region.label, mask, confidence });
  }
  const map = combineRegions(previous.width, previous.height, items);
  const tags = carryTags(
    map,
    items.map((it, i) => ({ instanceId: regions[i].instanceId, label: it.label, mask: it.mask })),
  );
  return { from, to, method: 'sam', map, confidence: frameConfidence(outcomes), regions: outcomes, redetected: proposals.length > 0, tags, depth: sourceDepth(options) + 1, ms: performance.now() - t0 };
}

/**
 * SAM's automatic proposals on t+1 from a point grid, NMS as SPOC (mask IoU 0.9, 50 px): one
 * batched call when the client has it (every candidate mask of every point, NMS in the worker),
 * else one decode per point keeping its best mask.
 */
async function gridProposals(
  backend: SamPropagationBackend,
  modelId: string,
  frameKey: string,
  previous: LabelMap,
  options: PropagateFrameOptions,
): Promise<CroppedMask[]> {
  const points = pointGrid(previous.width, previous.height, options.gridSize ?? 16);
  if (backend.samDecodeGrid) {
    const r = await backend.samDecodeGrid({ modelId, frameKey, points, minArea: SPOC_NMS_DEFAULTS.minArea, nmsIou: SPOC_NMS_DEFAULTS.iouThreshold }, { signal: options.signal });
    return r.candidates.map((c) => c.mask);
  }
  const found: { mask: CroppedMask; score: number }[] = [];
  for (const p of points) {
    aborted(options.signal);
    const r = await backend.samDecode({ modelId, frameKey, prompt: { points: [{ x: p.x, y: p.y, positive: true }] }, candidates: 'best' }, { signal: options.signal });
    const c = r.candidates[0];
    if (c && c.mask.area > 0) found.push({ mask: cropMask(c.mask.data, r.width, r.height), score: c.iou });
  }
  return nms(found).map((i) => found[i].mask);
}

/**
 * The proposal that overlaps the region best, by mask IoU with the region's previous mask (raw
 * overlap would pick the background proposal, which contains everything). Null when none overlaps.
 */
export function bestOverlap(region: CroppedMask, proposals: readonly CroppedMask[]): CroppedMask | null {
  let best: CroppedMask | null = null;
  let bestIou = 0;
  for (const p of proposals) {
    const iou = maskIou(region, p);
    if (iou > bestIou) {
      bestIou = iou;
      best = p;
    }
  }
  return best;
}

async function propagateByFlow(
  backend: FlowPropagationBackend,
  source: PropagationSource,
  options: PropagateFrameOptions,
  regions: PropRegion[],
  t0: number,
): Promise<PropagationResult> {
  const { previous, from } = options;
  const to = from + 1;
  if (regions.length === 0) {
    return { from, to, method: 'flow', map: combineRegions(previous.width, previous.height, []), confidence: null, regions: [], redetected: false, tags: [], depth: sourceDepth(options) + 1, ms: performance.now() - t0 };
  }
  const [prevImage, nextImage] = await Promise.all([source.getImage(from), source.getImage(to)]);
  aborted(options.signal);
  // Only the regions propagation carries (specks dropped), as with SAM.
  const carried = combineRegions(previous.width, previous.height, regions.map((r) => ({ label: r.label, mask: r.mask, confidence: 0 })));
  if (canTrack(backend)) return propagateByTracking(backend, source, options, regions, carried, prevImage, nextImage, t0);
  // The flow call takes no signal: race it, so Cancel answers at once even if the worker is slow.
  const flow = await abortable(backend.propagateByFlow(prevImage, nextImage, carried), options.signal);
  aborted(options.signal);
  // Per region: the new region of the same state that overlaps the warped one most is its successor.
  const nextRegions = stateRegions(flow.map, { minArea: 1 });
  const successors: TagSuccessor[] = [];
  const outcomes: RegionOutcome[] = regions.map((region) => {
    const same = nextRegions.filter((n) => n.label === region.label).map((n) => n.mask);
    const successor = successorOf(region.mask, same);
    successors.push({ instanceId: region.instanceId, label: region.label, mask: successor });
    const confidence = successor ? regionConfidence(flow.confidence, region.mask, successor) : 0;
    return {
      label: region.label,
      instanceId: region.instanceId,
      previousArea: region.mask.area,
      area: successor?.area ?? 0,
      quality: flow.confidence,
      shape: successor ? shapeAgreement(region.mask, successor) : 0,
      confidence,
      redetected: false,
    };
  });
  const tags = carryTags(flow.map, successors);
  return { from, to, method: 'flow', map: flow.map, confidence: frameConfidence(outcomes), regions: outcomes, redetected: false, tags, depth: sourceDepth(options) + 1, ms: performance.now() - t0 };
}

/** Flow moves a region, so the successor is the candidate with the largest shape agreement. */
function successorOf(previous: CroppedMask, candidates: readonly CroppedMask[]): CroppedMask | null {
  let best: CroppedMask | null = null;
  let bestScore = 0;
  for (const c of candidates) {
    const s = shapeAgreement(previous, c);
    if (s > bestScore) {
      bestScore = s;
      best = c;
    }
  }
  return best;
}

/** Counts the frames an iterable hands out while passing them on. */
async function* counted(frames: AsyncIterable<RgbaImage>, seen: { n: number }): AsyncIterable<RgbaImage> {
  for await (const f of frames) {
    seen.n++;
    yield f;
  }
}

async function propagateByTracking(
  backend: TrackBackend,
  source: PropagationSource,
  options: PropagateFrameOptions,
  regions: PropRegion[],
  carried: LabelMap,
  prev: RgbaImage,
  next: RgbaImage,
  t0: number,
): Promise<PropagationResult> {
  const { from } = options;
  const to = from + 1;
  const seen = { n: 0 };
  const between = source.framesBetween ? counted(source.framesBetween(from, to), seen) : undefined;
  const tracked = await trackLabels(backend, { prev, next, between, labels: carried, signal: options.signal });
  const trackScore = rawTrackScore(tracked.groups);
  const raw = rawTrackScore(tracked.groups, options.previousConfidence ?? 1);
  const depth = sourceDepth(options);
  const confidence = raw === null ? 0 : shownTrackConfidence(raw, options.previousConfidence ?? 1, seen.n > 0 ? 'native' : 'sampled', depth);
  const nextRegions = stateRegions(tracked.map, { minArea: 1 });
  const successors: TagSuccessor[] = [];
  const outcomes: RegionOutcome[] = regions.map((region) => {
    const same = nextRegions.filter((n) => n.label === region.label).map((n) => n.mask);
    const successor = successorOf(region.mask, same);
    successors.push({ instanceId: region.instanceId, label: region.label, mask: successor });
    return {
      label: region.label,
      instanceId: region.instanceId,
      previousArea: region.mask.area,
      area: successor?.area ?? 0,
      quality: raw ?? 0,
      shape: successor ? shapeAgreement(region.mask, successor) : 0,
      // The calibration is per frame: every region reports the frame's calibrated confidence.
      confidence: successor ? confidence : 0,
      redetected: false,
    };
  });
  const tags = carryTags(tracked.map, successors);
  return {
    from,
    to,
    method: 'flow',
    map: tracked.map,
    confidence: frameConfidence(outcomes),
    regions: outcomes,
    redetected: false,
    tags,
    nativeFrames: seen.n,
    trackScore: trackScore ?? undefined,
    depth: depth + 1,
    ms: performance.now() - t0,
  };
}
