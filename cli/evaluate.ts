/**
 * The evaluation behind `spoc-studio eval`: pairs GT and prediction masks by video and frame name,
 * streams them one frame at a time (read, decode, count, drop) and keeps only numbers: six SPOC
 * counts, two areas per side and, with --boundary, J and F per state. Everything numeric comes
 * from src/metrics, the same code the app runs:
 *   countFrame -> CountedClip -> evaluateSpoc / scoreColumns / scoreClips   (SPOC mIoU tables)
 *   iouOrOne, jAndF, voidMaskOf, maskOfLabels, sequenceStatistics        (DAVIS J and F)
 *   stateAreas, progressRatio, kendallTau, endStateStats, summarizeProgress (progress curves)
 */
import { readFile } from 'node:fs/promises';
import { decodeIndexedPng } from '../src/io/indexedPng';
import { LABEL, createLabelMap, type LabelMap } from '../src/masks/labelMap';
import { checkSpocLabels } from '../src/masks/labelSets';
import {
  type ClipProgress,
  type Convention,
  type CountedClip,
  type FrameCounts,
  type Phase,
  type SequenceStatistics,
  type SpocReport,
  type StateAreas,
  countFrame,
  emptyMask,
  endStateStats,
  evaluateSpoc,
  iouOrOne,
  jAndF,
  kendallTau,
  maskOfLabels,
  progressRatio,
  sequenceStatistics,
  stateAreas,
  voidMaskOf,
} from '../src/metrics';
import { countedFrame, planClipFrames, type ListedFrame } from '../src/metrics/evalFrames';
import { VERBS, parseOscName, subsetOf, type Subset } from '../src/taxonomy';
import { DataError, asDataError, displayPath, fsProblem } from './io';
import type { MaskFrame, MaskSet, MaskVideo } from './layout';
import { readVideoMeta } from './meta';
import { NODE_PNG } from './nativePng';
import { evaluateInPool } from './evalPool';

/** What to do with a mask whose labels are object ids, said in every refusal. */
export const VOS_HINT = 'score it per object with `spoc-studio eval --task vos` (docs/cli.md)';
/** GT labels excluded from every score (ambiguous, ignore, void). */
export const EXCLUDED_LABELS = [LABEL.ambiguous, LABEL.ignore, LABEL.void] as const;

export const STATES = ['act', 'trf', 'obj'] as const;
export type StateKey = (typeof STATES)[number];
const STATE_LABELS: Record<StateKey, readonly number[]> = { act: [LABEL.actionable], trf: [LABEL.transformed], obj: [LABEL.actionable, LABEL.transformed] };

export type PerState<T> = Record<StateKey, T>;

export interface FrameResult {
  /** Frame name (file stem of the GT mask). */
  frame: string;
  /** null when the clip's metadata lists the frame but no GT mask was written (unpainted: all-background GT). */
  gtFile: string | null;
  /** null when the prediction is missing (scored as an empty prediction). */
  predFile: string | null;
  ignored: boolean;
  phase: Phase | null;
  /** null when the frame is ignored. */
  counts: FrameCounts | null;
  /** Areas of the states in the prediction (null when missing) and in the GT. */
  predAreas: StateAreas | null;
  gtAreas: StateAreas;
  /** DAVIS J per state (1 when the state is absent from both); NaN for ignored frames. */
  j: PerState<number>;
  /** DAVIS F per state with --boundary; NaN otherwise and for ignored frames. */
  f: PerState<number>;
}

export interface DavisStats {
  j: SequenceStatistics;
  f: SequenceStatistics;
  /** (J mean + F mean) / 2. */
  jf: number;
}

export interface ClipResult {
  key: string;
  osc: string | null;
  video: string;
  verb: string;
  noun: string;
  /** null when the layout carries no taxonomy (DAVIS). */
  subset: Subset | null;
  metaFile: string | null;
  phasesKnown: boolean;
  /** Key of the matched prediction video, or null when the prediction has none. */
  predVideo: string | null;
  frames: FrameResult[];
  /** What src/metrics aggregates. */
  counted: CountedClip;
  /** Progress of the prediction's curve and of the GT's curve (tau only needs the curve). */
  progress: ClipProgress;
  progressGt: ClipProgress;
  /** Per state, over the clip's evaluated frames; null when the GT never shows the state (or without --boundary). */
  davis: PerState<DavisStats | null> | null;
}

export interface EvalRun {
  gt: MaskSet;
  pred: MaskSet;
  convention: Convention;
  boundary: boolean;
  clips: ClipResult[];
  report: SpocReport;
  /** True when the GT layout carries verb/noun (WhereToChange); false for DAVIS. */
  taxonomy: boolean;
  warnings: string[];
}

export interface EvalOptions {
  convention: Convention;
  boundary: boolean;
  /** Called after every frame (for a progress line). */
  onFrame?: (done: number, total: number) => void;
  /** Worker threads evaluating clips side by side (evalPool.ts); 1 or unset: this thread only. */
  jobs?: number;
}

const UNKNOWN_VERB = 'unknown';

/** Runs the whole evaluation; throws DataError naming the file(s) on bad input. */
export async function runEvaluation(gt: MaskSet, pred: MaskSet, options: EvalOptions): Promise<EvalRun> {
  const warnings: string[] = [...gt.notes.map((n) => `gt: ${n}`), ...pred.notes.map((n) => `pred: ${n}`)];
  if (gt.abs === pred.abs && pred.videos.every((v) => v.relDir === gt.videos.find((g) => g.key === v.key)?.relDir)) {
    warnings.push(`--gt and --pred read the same mask files (${gt.dirArg} has no pred/masks folders); every score is trivially perfect`);
  }
  const matches = matchVideos(gt, pred, warnings);
  const taxonomy = gt.kind === 'wtc';
  const clips: ClipResult[] = [];
  let done = 0;
  const tick = (): void => options.onFrame?.(++done, gt.frameCount);
  const jobs = Math.min(options.jobs ?? 1, gt.videos.length);
  if (jobs > 1) {
    // Clips side by side on worker threads; results and warnings kept in clip order (evalPool.ts).
    const jobsOf = gt.videos.map((video) => ({ video, predVideo: matches.get(video) ?? null, taxonomy, boundary: options.boundary }));
    for (const out of await evaluateInPool(gt, pred, jobsOf, jobs, tick)) {
      warnings.push(...out.warnings);
      if (out.clip) clips.push(out.clip);
    }
  } else {
    for (const video of gt.videos) {
      const predVideo = matches.get(video) ?? null;
      const clip = await evaluateVideo(gt, pred, video, predVideo, taxonomy, options, warnings, tick);
      if (clip) clips.push(clip);
    }
  }
  const report = evaluateSpoc(
    clips.map((c) => c.counted),
    options.convention,
  );
  return { gt, pred, convention: options.convention, boundary: options.boundary, clips, report, taxonomy, warnings };
}

/**
 * GT video -> prediction video. Same key first ("<osc>/<video>" or "<video>"). When one side is
 * WhereToChange and the other DAVIS, by video name alone, which must then be unique.
 */
function matchVideos(gt: MaskSet, pred: MaskSet, warnings: string[]): Map<MaskVideo, MaskVideo> {
  const out = new Map<MaskVideo, MaskVideo>();
  const predByKey = new Map(pred.videos.map((v) => [v.key, v]));
  const byName = (set: MaskSet): Map<string, MaskVideo[]> => {
    const m = new Map<string, MaskVideo[]>();
    for (const v of set.videos) m.set(v.video, [...(m.get(v.video) ?? []), v]);
    return m;
  };
  const crossKind = gt.kind !== pred.kind;
  const gtByName = byName(gt);
  const predByName = byName(pred);
  const used = new Set<MaskVideo>();
  for (const g of gt.videos) {
    let p = predByKey.get(g.key);
    if (!p && crossKind) {
      const gs = gtByName.get(g.video) ?? [];
      const ps = predByName.get(g.video) ?? [];
      if (ps.length > 0 && (gs.length > 1 || ps.length > 1)) {
        const side = gs.length > 1 ? gs : ps;
        throw new DataError(
          `video name "${g.video}" is ambiguous: it occurs as ${side.map((v) => v.key).join(' and ')}; ` +
            'give predictions in the WhereToChange layout (<osc>/<video>/) so clips can be told apart',
        );
      }
      p = ps[0];
    }
    if (p) {
      out.set(g, p);
      used.add(p);
    }
  }
  for (const p of pred.videos) {
    if (!used.has(p)) {
      warnings.push(`pred: ${displayPath(pred.dirArg, p.relDir)}/: no GT video "${p.key}"; its ${p.frames.length} frame(s) are ignored`);
    }
  }
  return out;
}

function clipIdentity(video: MaskVideo, taxonomy: boolean, warnings: string[], show: string): { verb: string; noun: string; subset: Subset | null } {
  if (!taxonomy || video.osc === null) return { verb: UNKNOWN_VERB, noun: '', subset: null };
  const parsed = parseOscName(video.osc);
  if (!parsed) {
    warnings.push(`gt: ${show}: folder "${video.osc}" is not <verb>_<noun>; verb taken as "${video.osc.toLowerCase()}", subset as seen`);
    return { verb: video.osc.toLowerCase(), noun: '', subset: 'seen' };
  }
  if (!(VERBS as readonly string[]).includes(parsed.verb)) {
    warnings.push(`gt: ${show}: "${parsed.verb}" is not one of the 10 SPOC verbs; subset taken as seen`);
  }
  return { ...parsed, subset: subsetOf(parsed.verb, parsed.noun) };
}

async function readBytes(set: MaskSet, frame: MaskFrame): Promise<Uint8Array> {
  try {
    return new Uint8Array(await readFile(frame.abs));
  } catch (err) {
    throw new DataError(`${displayPath(set.dirArg, frame.rel)}: cannot read (${fsProblem(err)})`);
  }
}

/** A mask as a label map; `size` (from the metadata, which names itself as `sizeFrom`) is the size it must have. */
function decode(set: MaskSet, frame: MaskFrame, bytes: Uint8Array, size?: { width: number; height: number }, sizeFrom?: string): LabelMap {
  const fileName = displayPath(set.dirArg, frame.rel);
  try {
    const map = decodeIndexedPng(bytes, {
      fileName,
      expectedWidth: size?.width,
      expectedHeight: size?.height,
      expectedSizeFrom: sizeFrom,
      native: NODE_PNG,
    });
    // Never a silent wrong score: labels outside the layout's documented set are refused.
    checkSpocLabels(map, set.kind, fileName, VOS_HINT);
    return map;
  } catch (err) {
    throw asDataError(err) ?? err;
  }
}

function shortList(names: readonly string[]): string {
  return names.slice(0, 5).join(', ') + (names.length > 5 ? ', …' : '');
}

/** The frame size when no metadata gives it and the frame has no GT mask: any GT mask's, else the prediction's. */
async function firstMaskSize(gt: MaskSet, video: MaskVideo, pred: MaskSet, predVideo: MaskVideo | null, metaFile: string | null): Promise<{ width: number; height: number }> {
  const [set, frame] = video.frames.length > 0 ? [gt, video.frames[0]] : predVideo && predVideo.frames.length > 0 ? [pred, predVideo.frames[0]] : [null, null];
  if (!set || !frame) throw new DataError(`${metaFile}: lists frames without GT masks and gives no width and height; nothing tells their size`);
  const map = decode(set, frame, await readBytes(set, frame));
  return { width: map.width, height: map.height };
}

const NAN3: PerState<number> = Object.freeze({ act: NaN, trf: NaN, obj: NaN });

export async function evaluateVideo(
  gt: MaskSet,
  pred: MaskSet,
  video: MaskVideo,
  predVideo: MaskVideo | null,
  taxonomy: boolean,
  options: EvalOptions,
  warnings: string[],
  tick: () => void,
): Promise<ClipResult | null> {
  const shownDir = `${displayPath(gt.dirArg, video.relDir)}/`;
  const identity = clipIdentity(video, taxonomy, warnings, shownDir);
  const meta = await readVideoMeta(gt, video);
  warnings.push(...meta.warnings.map((w) => `gt: ${w}`));
  if (video.frames.length === 0 && !meta.frames?.length) {
    // A metadata file without masks that lists no frames describes no clip.
    warnings.push(`gt: ${meta.file}: lists no frames and ${shownDir} holds no masks; skipped`);
    return null;
  }

  // Which frames are walked and what each is: the definition the app's panel follows too.
  const listed: ListedFrame<string>[] = (meta.frames ?? video.frames).map((f) => ({ key: f.key, ignored: meta.ignored.has(f.key), phase: meta.phases.get(f.key) }));
  const names = new Map((meta.frames ?? []).map((f) => [f.key, f.name]));
  const plan = planClipFrames(
    listed,
    new Map(video.frames.map((f) => [f.key, f])),
    new Map((predVideo?.frames ?? []).map((f) => [f.key, f])),
  );
  const planned = new Set(plan.map((f) => f.key));
  if (predVideo) {
    for (const pf of predVideo.frames) {
      if (!planned.has(pf.key)) warnings.push(`pred: ${displayPath(pred.dirArg, pf.rel)}: no GT frame "${pf.stem}" in ${shownDir}; ignored`);
    }
  }
  const unpainted = plan.filter((f) => !f.gt && !f.ignored).map((f) => names.get(f.key) ?? f.key);
  if (unpainted.length > 0) {
    warnings.push(`gt: ${meta.file}: ${unpainted.length} of ${plan.length} frames have no GT mask (${shortList(unpainted)}); scored as all-background GT, as the app scores unpainted frames`);
  }
  // The size of an all-background GT: the metadata's, else the first GT mask's (read once, below).
  let size = meta.size;

  // Read the next pair while the current one is decoded and counted.
  const load = (i: number): Promise<[Uint8Array | null, Uint8Array | null]> => {
    const f = plan[i];
    return Promise.all([f.gt ? readBytes(gt, f.gt) : Promise.resolve(null), f.pred ? readBytes(pred, f.pred) : Promise.resolve(null)]);
  };
  const frames: FrameResult[] = [];
  const missing: string[] = [];
  let pending = plan.length > 0 ? load(0) : null;
  for (let i = 0; i < plan.length; i++) {
    const [gtBytes, predBytes] = await pending!;
    pending = i + 1 < plan.length ? load(i + 1) : null;
    // Keep a rejected prefetch from surfacing as an unhandled rejection if this frame throws.
    pending?.catch(() => undefined);
    const fr = plan[i];
    const gf = fr.gt ?? null;
    const pf = fr.pred ?? null;
    const gtFile = gf ? displayPath(gt.dirArg, gf.rel) : null;
    const predFile = pf ? displayPath(pred.dirArg, pf.rel) : null;
    if (!pf && !fr.ignored) missing.push(gf?.stem ?? names.get(fr.key) ?? fr.key);
    // Masks are decoded (and so checked) on ignored frames too; only an unpainted frame has none.
    let gtMap: LabelMap | null = null;
    if (gf && gtBytes) {
      gtMap = decode(gt, gf, gtBytes, meta.size ?? undefined, meta.file ?? undefined);
      size ??= { width: gtMap.width, height: gtMap.height };
    } else if (!fr.ignored) {
      size ??= await firstMaskSize(gt, video, pred, predVideo, meta.file);
      gtMap = createLabelMap(size.width, size.height);
    }
    const predMap = pf && predBytes ? decode(pred, pf, predBytes) : null;
    if (predMap && gtMap && (predMap.width !== gtMap.width || predMap.height !== gtMap.height)) {
      const against = gtFile ? `the GT mask ${gtFile}` : `the clip (${meta.file})`;
      throw new DataError(
        `${predFile}: is ${predMap.width}x${predMap.height} but ${against} is ${gtMap.width}x${gtMap.height}; a prediction must have the size of its GT`,
      );
    }
    const counts = gtMap && !fr.ignored ? countFrame(gtMap, predMap) : null;
    let j: PerState<number> = NAN3;
    let f: PerState<number> = NAN3;
    if (counts && gtMap) {
      if (options.boundary) {
        const scores = davisScores(gtMap, predMap);
        j = scores.j;
        f = scores.f;
      } else {
        j = { act: iouOrOne(counts.iAct, counts.uAct), trf: iouOrOne(counts.iTrf, counts.uTrf), obj: iouOrOne(counts.iObj, counts.uObj) };
      }
    }
    frames.push({
      frame: gf?.stem ?? names.get(fr.key) ?? fr.key,
      gtFile,
      predFile,
      ignored: fr.ignored,
      phase: fr.phase ?? null,
      counts,
      predAreas: predMap ? stateAreas(predMap) : null,
      gtAreas: gtMap ? stateAreas(gtMap) : { act: 0, trf: 0 },
      j,
      f,
    });
    if (gf) tick();
  }
  const evaluated = plan.filter((fr) => !fr.ignored).length;
  if (!predVideo) {
    warnings.push(`pred: no prediction for ${video.key} (${evaluated} GT frames); every frame scored as an empty prediction`);
  } else if (missing.length > 0) {
    warnings.push(`pred: ${displayPath(pred.dirArg, predVideo.relDir)}/ lacks ${missing.length} of ${evaluated} GT frames (${shortList(missing)}); scored as empty predictions`);
  }

  const counted: CountedClip = {
    id: video.key,
    verb: identity.verb,
    noun: identity.noun,
    // CountedClip needs a subset; DAVIS clips are reported without seen/novel columns.
    subset: identity.subset ?? 'seen',
    frames: plan.map((fr, i) => countedFrame(fr, frames[i].counts)),
  };
  const phasesKnown = frames.some((fr) => fr.phase !== null);
  return {
    key: video.key,
    osc: video.osc,
    video: video.video,
    ...identity,
    metaFile: meta.file,
    phasesKnown,
    predVideo: predVideo?.key ?? null,
    frames,
    counted,
    progress: progressOf(video.key, identity.verb, frames, 'pred'),
    progressGt: progressOf(video.key, identity.verb, frames, 'gt'),
    davis: options.boundary ? davisOfClip(frames) : null,
  };
}

/** DAVIS J and F of one frame for each state; GT pixels labelled 4, 5 or 255 are void. */
function davisScores(gtMap: LabelMap, predMap: LabelMap | null): { j: PerState<number>; f: PerState<number> } {
  const voidMask = voidMaskOf(gtMap, EXCLUDED_LABELS);
  const j = { act: NaN, trf: NaN, obj: NaN };
  const f = { act: NaN, trf: NaN, obj: NaN };
  for (const s of STATES) {
    const g = maskOfLabels(gtMap, STATE_LABELS[s]);
    const p = predMap ? maskOfLabels(predMap, STATE_LABELS[s]) : emptyMask(gtMap.width, gtMap.height);
    const score = jAndF(g, p, voidMask);
    j[s] = score.j;
    f[s] = score.f;
  }
  return { j, f };
}

/**
 * DAVIS statistics per state over the clip: per-frame values in frame order with ignored frames as
 * NaN (kept in place so the decay bins stay temporal). A state the GT never shows in an evaluated
 * frame is not an object of this clip (DAVIS only scores objects present in the GT): null.
 */
function davisOfClip(frames: readonly FrameResult[]): PerState<DavisStats | null> {
  const out = { act: null, trf: null, obj: null } as PerState<DavisStats | null>;
  for (const s of STATES) {
    const present = frames.some((fr) => !fr.ignored && (s === 'act' ? fr.gtAreas.act : s === 'trf' ? fr.gtAreas.trf : fr.gtAreas.act + fr.gtAreas.trf) > 0);
    if (!present) continue;
    const j = sequenceStatistics(frames.map((fr) => fr.j[s]));
    const f = sequenceStatistics(frames.map((fr) => fr.f[s]));
    out[s] = { j, f, jf: (j.mean + f.mean) / 2 };
  }
  return out;
}

/**
 * The clip's progress curve R_t = A_act / (A_act + A_trf) from the prediction (or GT) areas, as
 * clipProgress computes it from the label maps: NaN on ignored frames, on a missing prediction and
 * where neither state is visible; tau over the whole curve; end statistics over GT 'end' frames.
 */
function progressOf(id: string, verb: string, frames: readonly FrameResult[], source: 'pred' | 'gt'): ClipProgress {
  const curve = frames.map((fr) => {
    if (fr.ignored) return NaN;
    const areas = source === 'pred' ? fr.predAreas : fr.gtAreas;
    return areas ? progressRatio(areas) : NaN;
  });
  const endValues = curve.filter((_, i) => frames[i].phase === 'end');
  return { id, verb, curve, tau: kendallTau(curve), end: endStateStats(endValues) };
}
