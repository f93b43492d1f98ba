import type { LabelMap } from '../masks/labelMap';
import { LABEL } from '../masks/labelMap';
import { wordView } from './binaryMask';
import { nanMean } from './statistics';

/**
 * SPOC / WhereToChange segmentation scores: IoU of the actionable and transformed states, their
 * mean (mIoU), and the fused-object IoU ("w/o OSC"), aggregated over frames, clips, verbs and
 * splits. Work is split so an editor can stay interactive: `countFrame` does the only pixel pass
 * (one histogram per frame); everything after that is arithmetic over six integers per frame.
 */

export type Phase = 'initial' | 'transitioning' | 'end';
export type Subset = 'seen' | 'novel';

export interface EvalFrame {
  gt: LabelMap;
  /** null = no prediction for this frame, scored as an all-background prediction. */
  pred: LabelMap | null;
  /** Annotator marked the frame ignored: it is left out of every score. */
  ignored?: boolean;
  /** HowToChange phase of the frame, used by the transition split and the progress metrics. */
  phase?: Phase;
}

export interface EvalClip {
  id: string;
  verb: string;
  noun: string;
  subset: Subset;
  frames: readonly EvalFrame[];
}

/** Per-frame intersections and unions (pixel counts) for actionable, transformed and fused object. */
export interface FrameCounts {
  iAct: number;
  uAct: number;
  iTrf: number;
  uTrf: number;
  iObj: number;
  uObj: number;
}

// Pixel codes for the histogram: 0 background, 1 actionable, 2 transformed, 3 excluded.
const BG = 0;
const ACT = 1;
const TRF = 2;
const EXCLUDED = 3;

/**
 * Ground truth: 4 (ambiguous), 5 (ignore) and 255 (void) are excluded pixels; 3 (release
 * background) and any other value are background.
 */
const GT_CODE = new Uint8Array(256);
GT_CODE[LABEL.actionable] = ACT;
GT_CODE[LABEL.transformed] = TRF;
GT_CODE[LABEL.ambiguous] = EXCLUDED;
GT_CODE[LABEL.ignore] = EXCLUDED;
GT_CODE[LABEL.void] = EXCLUDED;

/** Predictions only assert states; every value other than 1 and 2 means background. */
const PRED_CODE = new Uint8Array(256);
PRED_CODE[LABEL.actionable] = ACT;
PRED_CODE[LABEL.transformed] = TRF;

/**
 * I and U for one frame: pixels whose GT label is 4, 5 or 255 are left out; the prediction's
 * labels 1 and 2 are its states, anything else is background. `pred` null scores as empty.
 */
export function countFrame(gt: LabelMap, pred: LabelMap | null): FrameCounts {
  return countPair(gt, pred, GT_CODE, PRED_CODE);
}

/** `countFrame` for an EvalFrame, or null when the frame is ignored. */
export function frameCounts(frame: EvalFrame): FrameCounts | null {
  return frame.ignored ? null : countFrame(frame.gt, frame.pred);
}

/**
 * Counts between two annotations of equal standing (agreement.ts): a pixel is left out when
 * either side labels it 4, 5 or 255, so the result does not depend on which side is "GT".
 */
export function countSymmetric(a: LabelMap, b: LabelMap): FrameCounts {
  return countPair(a, b, GT_CODE, GT_CODE);
}

/** The one pixel pass: a 4x4 histogram of (code in a, code in b), from which every count follows. */
function countPair(a: LabelMap, b: LabelMap | null, codeA: Uint8Array, codeB: Uint8Array): FrameCounts {
  if (b && (a.width !== b.width || a.height !== b.height)) {
    throw new RangeError(`label maps differ in size: ${a.width}x${a.height} vs ${b.width}x${b.height}`);
  }
  const hist = new Float64Array(16);
  const da = a.data;
  const n = da.length;
  let start = 0;
  let zeros = 0;
  if (b === null) {
    const wa = wordView(da);
    if (wa) {
      for (let w = 0; w < wa.length; w++) {
        if (wa[w] === 0) {
          zeros += 4;
          continue;
        }
        const i = w << 2;
        hist[codeA[da[i]] << 2]++;
        hist[codeA[da[i + 1]] << 2]++;
        hist[codeA[da[i + 2]] << 2]++;
        hist[codeA[da[i + 3]] << 2]++;
      }
      start = wa.length << 2;
    }
    for (let i = start; i < n; i++) hist[codeA[da[i]] << 2]++;
  } else {
    const db = b.data;
    const wa = wordView(da);
    const wb = wordView(db);
    if (wa && wb) {
      // Most of a frame is background in both maps: four pixels per test.
      for (let w = 0; w < wa.length; w++) {
        if ((wa[w] | wb[w]) === 0) {
          zeros += 4;
          continue;
        }
        const i = w << 2;
        hist[(codeA[da[i]] << 2) | codeB[db[i]]]++;
        hist[(codeA[da[i + 1]] << 2) | codeB[db[i + 1]]]++;
        hist[(codeA[da[i + 2]] << 2) | codeB[db[i + 2]]]++;
        hist[(codeA[da[i + 3]] << 2) | codeB[db[i + 3]]]++;
      }
      start = wa.length << 2;
    }
    for (let i = start; i < n; i++) hist[(codeA[da[i]] << 2) | codeB[db[i]]]++;
  }
  // Label 0 has code 0 in every table, so all-zero words are (background, background).
  hist[(codeA[0] << 2) | codeB[0]] += zeros;
  return countsFromHistogram(hist);
}

function countsFromHistogram(hist: Float64Array): FrameCounts {
  const c: FrameCounts = { iAct: 0, uAct: 0, iTrf: 0, uTrf: 0, iObj: 0, uObj: 0 };
  for (let ga = BG; ga <= TRF; ga++) {
    for (let pb = BG; pb <= TRF; pb++) {
      const n = hist[(ga << 2) | pb];
      if (n === 0) continue;
      if (ga === ACT && pb === ACT) c.iAct += n;
      if (ga === ACT || pb === ACT) c.uAct += n;
      if (ga === TRF && pb === TRF) c.iTrf += n;
      if (ga === TRF || pb === TRF) c.uTrf += n;
      // Fused object: either state counts as "object", so an act/trf swap is still a hit.
      if (ga !== BG && pb !== BG) c.iObj += n;
      if (ga !== BG || pb !== BG) c.uObj += n;
    }
  }
  return c;
}

export function addCounts(into: FrameCounts, c: FrameCounts): FrameCounts {
  into.iAct += c.iAct;
  into.uAct += c.uAct;
  into.iTrf += c.iTrf;
  into.uTrf += c.uTrf;
  into.iObj += c.iObj;
  into.uObj += c.uObj;
  return into;
}

export function zeroCounts(): FrameCounts {
  return { iAct: 0, uAct: 0, iTrf: 0, uTrf: 0, iObj: 0, uObj: 0 };
}

// ---------------------------------------------------------------------------------------------
// Counted clips: what panels keep in memory and update one frame at a time.

export interface CountedFrame {
  /** null when the frame is ignored. */
  counts: FrameCounts | null;
  phase?: Phase;
  /** The prediction was missing (scored as empty); reported so panels can warn. */
  missingPred: boolean;
}

export interface CountedClip {
  id: string;
  verb: string;
  noun: string;
  subset: Subset;
  frames: CountedFrame[];
}

export function countEvalFrame(frame: EvalFrame): CountedFrame {
  return { counts: frameCounts(frame), phase: frame.phase, missingPred: frame.pred === null };
}

/** Pixel pass over every frame of a clip. */
export function countClip(clip: EvalClip): CountedClip {
  return { id: clip.id, verb: clip.verb, noun: clip.noun, subset: clip.subset, frames: clip.frames.map(countEvalFrame) };
}

/**
 * A copy of `clip` with frame `index` recounted: one pixel pass, and the clip stays immutable so
 * stores can compare by reference. Re-aggregating afterwards costs O(frames), not O(pixels).
 */
export function withFrame(clip: CountedClip, index: number, frame: EvalFrame): CountedClip {
  if (!Number.isInteger(index) || index < 0 || index >= clip.frames.length) {
    throw new RangeError(`frame ${index} is outside clip ${clip.id} (${clip.frames.length} frames)`);
  }
  const frames = clip.frames.slice();
  frames[index] = countEvalFrame(frame);
  return { ...clip, frames };
}

// ---------------------------------------------------------------------------------------------
// Aggregation

/**
 * - 'clip-pooled' (default): per clip, sum I and U over its evaluated frames; clip IoU = I/U;
 *   mean over clips.
 * - 'per-frame': per clip, mean of frame IoUs; mean over clips.
 * - 'dataset-pooled': sum I and U over every evaluated frame of every clip; one I/U.
 * In all three a unit (frame or clip) with U = 0 — the state is absent from GT and prediction —
 * is left out of that state's mean rather than scored 1 (DAVIS) or 0 (COCO): it carries no
 * evidence either way, and scoring it 1 would reward verbs whose clips rarely show a state.
 */
export type Convention = 'clip-pooled' | 'per-frame' | 'dataset-pooled';

export interface MiouScore {
  /** mIoU of the actionable state. NaN when no unit had that state in GT or prediction. */
  act: number;
  trf: number;
  /** (act + trf) / 2; when one of them is NaN, the other alone (NaN if both are). */
  miou: number;
  /** Fused object IoU, states merged ("w/o OSC"). */
  object: number;
  /** Number of clips that entered each mean (clips with U > 0; for 'dataset-pooled', clips that contributed pixels). */
  clipsAct: number;
  clipsTrf: number;
  clipsObject: number;
}

export interface ScoreFilter {
  /** Keep only clips of this subset. */
  subset?: Subset;
  /** Keep only frames whose phase is 'transitioning'. */
  transitionOnly?: boolean;
  /** Keep only clips of this verb. */
  verb?: string;
}

export interface CoverageCounts {
  clips: number;
  frames: number;
  evaluatedFrames: number;
  ignoredFrames: number;
  /** Evaluated frames whose prediction was missing (scored as empty). */
  missingPredictions: number;
}

type Pick = 'Act' | 'Trf' | 'Obj';

function frameSelected(f: CountedFrame, filter: ScoreFilter): f is CountedFrame & { counts: FrameCounts } {
  return f.counts !== null && (!filter.transitionOnly || f.phase === 'transitioning');
}

function clipSelected(c: CountedClip, filter: ScoreFilter): boolean {
  return (filter.subset === undefined || c.subset === filter.subset) && (filter.verb === undefined || c.verb === filter.verb);
}

function meanIoU(clips: readonly CountedClip[], which: Pick, convention: Convention, filter: ScoreFilter): [number, number] {
  const iKey = `i${which}` as const;
  const uKey = `u${which}` as const;
  if (convention === 'dataset-pooled') {
    let i = 0;
    let u = 0;
    let contributing = 0;
    for (const clip of clips) {
      let cu = 0;
      for (const f of clip.frames) {
        if (!frameSelected(f, filter)) continue;
        i += f.counts[iKey];
        cu += f.counts[uKey];
      }
      u += cu;
      if (cu > 0) contributing++;
    }
    return [u > 0 ? i / u : NaN, contributing];
  }
  const perClip: number[] = [];
  for (const clip of clips) {
    if (convention === 'clip-pooled') {
      let i = 0;
      let u = 0;
      for (const f of clip.frames) {
        if (!frameSelected(f, filter)) continue;
        i += f.counts[iKey];
        u += f.counts[uKey];
      }
      if (u > 0) perClip.push(i / u);
    } else {
      const perFrame: number[] = [];
      for (const f of clip.frames) {
        if (!frameSelected(f, filter)) continue;
        if (f.counts[uKey] > 0) perFrame.push(f.counts[iKey] / f.counts[uKey]);
      }
      if (perFrame.length > 0) perClip.push(nanMean(perFrame));
    }
  }
  return [perClip.length > 0 ? nanMean(perClip) : NaN, perClip.length];
}

/** mIoU of one set of clips under one convention and filter. */
export function scoreClips(
  clips: readonly CountedClip[],
  convention: Convention = 'clip-pooled',
  filter: ScoreFilter = {},
): MiouScore {
  const kept = clips.filter((c) => clipSelected(c, filter));
  const [act, clipsAct] = meanIoU(kept, 'Act', convention, filter);
  const [trf, clipsTrf] = meanIoU(kept, 'Trf', convention, filter);
  const [object, clipsObject] = meanIoU(kept, 'Obj', convention, filter);
  return { act, trf, miou: nanMean([act, trf]), object, clipsAct, clipsTrf, clipsObject };
}

/** One row of SPOC Tables 2/3: a mean column and one column per verb. */
export interface SpocColumns {
  /**
   * Mean over verbs: every field is the mean of the per-verb values (NaN verbs left out), so each
   * verb weighs the same however many clips it has — the reading of a table whose "Mean" column
   * sits next to per-verb columns.
   */
  meanOverVerbs: MiouScore;
  /** All clips pooled into one aggregation regardless of verb (clip-weighted). */
  meanOverClips: MiouScore;
  perVerb: Record<string, MiouScore>;
}

export function scoreColumns(
  clips: readonly CountedClip[],
  convention: Convention = 'clip-pooled',
  filter: Omit<ScoreFilter, 'verb'> = {},
): SpocColumns {
  const verbs = [...new Set(clips.filter((c) => clipSelected(c, filter)).map((c) => c.verb))].sort();
  const perVerb: Record<string, MiouScore> = {};
  for (const verb of verbs) perVerb[verb] = scoreClips(clips, convention, { ...filter, verb });
  const scores = verbs.map((v) => perVerb[v]);
  const avg = (key: keyof MiouScore): number => nanMean(scores.map((s) => s[key]));
  const sum = (key: 'clipsAct' | 'clipsTrf' | 'clipsObject'): number => scores.reduce((t, s) => t + s[key], 0);
  const meanOverVerbs: MiouScore = {
    act: avg('act'),
    trf: avg('trf'),
    miou: avg('miou'),
    object: avg('object'),
    clipsAct: sum('clipsAct'),
    clipsTrf: sum('clipsTrf'),
    clipsObject: sum('clipsObject'),
  };
  return { meanOverVerbs, meanOverClips: scoreClips(clips, convention, filter), perVerb };
}

export interface SpocReport {
  convention: Convention;
  all: SpocColumns;
  seen: SpocColumns;
  novel: SpocColumns;
  /** Only frames with phase 'transitioning'. */
  transition: SpocColumns;
  coverage: CoverageCounts;
}

/** The splits the SPOC paper reports: all clips, seen objects, novel objects, transition frames. */
export function evaluateSpoc(clips: readonly CountedClip[], convention: Convention = 'clip-pooled'): SpocReport {
  return {
    convention,
    all: scoreColumns(clips, convention),
    seen: scoreColumns(clips, convention, { subset: 'seen' }),
    novel: scoreColumns(clips, convention, { subset: 'novel' }),
    transition: scoreColumns(clips, convention, { transitionOnly: true }),
    coverage: coverage(clips),
  };
}

export function coverage(clips: readonly CountedClip[]): CoverageCounts {
  const out: CoverageCounts = { clips: clips.length, frames: 0, evaluatedFrames: 0, ignoredFrames: 0, missingPredictions: 0 };
  for (const clip of clips) {
    for (const f of clip.frames) {
      out.frames++;
      if (f.counts === null) out.ignoredFrames++;
      else {
        out.evaluatedFrames++;
        if (f.missingPred) out.missingPredictions++;
      }
    }
  }
  return out;
}
