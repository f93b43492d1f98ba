import { type BinaryMask, assertSameSize, emptyMask, maskArea } from './binaryMask';
import { DAVIS_BOUND_TH, boundaryF } from './boundary';
import { jaccard } from './jaccard';
import { nanMean } from './statistics';

/**
 * EgoMask referring-segmentation metrics (LaVi-Lab/EgoMask `evaluation/eval_egomask.py`), per
 * expression, then averaged over expressions. Long egocentric videos show the object only part of
 * the time, so besides the DAVIS J/F over all frames they score when the object is present:
 *
 * - T_precision / T_recall / T_f1 / T_acc: per frame, "object present" in prediction vs GT.
 * - IoU_all: mean IoU over all frames (= J). IoU_gold: over frames where GT has the object.
 *   IoU_gold_pred: over frames where GT or the prediction has it (punishes hallucinations).
 *
 * Presence means a non-empty mask: a frame that is absent and a frame listed with an empty mask
 * are the same thing here (so a listed-but-empty GT frame is not a gold frame).
 *
 * Deliberate difference: when a frame listed in the GT is empty in both GT and prediction, the
 * reference reuses the previous frame's IoU (a stale variable). We score every frame that is empty
 * in both 1 (DAVIS convention: nothing predicted where there is nothing), whatever came before.
 */

export interface EgoExpression {
  id?: string;
  /** Number of frames in the evaluated video; frames are 0..frameCount-1. */
  frameCount: number;
  /** Per frame: the GT mask, or null/undefined when the object is not annotated there. */
  gt: readonly (BinaryMask | null | undefined)[];
  pred: readonly (BinaryMask | null | undefined)[];
}

export interface EgoMaskScores {
  tPrecision: number;
  tRecall: number;
  tF1: number;
  tAcc: number;
  iouAll: number;
  iouGold: number;
  iouGoldPred: number;
  j: number;
  f: number;
  jf: number;
}

export interface EgoExpressionResult extends EgoMaskScores {
  id?: string;
  tp: number;
  fp: number;
  fn: number;
  tn: number;
  /** Per-frame IoU and boundary F, frame order. */
  iou: number[];
  boundaryF: number[];
}

export function evaluateExpression(expr: EgoExpression, boundTh: number = DAVIS_BOUND_TH): EgoExpressionResult {
  const { frameCount } = expr;
  if (!Number.isInteger(frameCount) || frameCount <= 0) throw new RangeError(`frameCount must be a positive integer, got ${frameCount}`);
  if (expr.gt.length > frameCount || expr.pred.length > frameCount) {
    throw new RangeError(`expression ${expr.id ?? ''} lists masks beyond frameCount ${frameCount}`);
  }
  const iou: number[] = [];
  const bf: number[] = [];
  let tp = 0;
  let fp = 0;
  let fn = 0;
  let tn = 0;
  const gold: number[] = [];
  const goldPred: number[] = [];
  for (let t = 0; t < frameCount; t++) {
    const g = expr.gt[t] ?? null;
    const p = expr.pred[t] ?? null;
    const gIn = g !== null && maskArea(g) > 0;
    const pIn = p !== null && maskArea(p) > 0;
    if (gIn && pIn) tp++;
    else if (pIn) fp++;
    else if (gIn) fn++;
    else tn++;
    let frameIou: number;
    let frameF: number;
    if (g === null && p === null) {
      frameIou = 1;
      frameF = 1;
    } else {
      const ref = (g ?? p) as BinaryMask;
      if (g && p) assertSameSize(g, p, `expression ${expr.id ?? ''} frame ${t}`);
      const gm = g ?? emptyMask(ref.width, ref.height);
      const pm = p ?? emptyMask(ref.width, ref.height);
      frameIou = jaccard(gm, pm);
      frameF = boundaryF(gm, pm, undefined, boundTh).f;
    }
    iou.push(frameIou);
    bf.push(frameF);
    if (gIn) gold.push(frameIou);
    if (gIn || pIn) goldPred.push(frameIou);
  }
  const t = temporalScores(tp, fp, fn, tn);
  const j = nanMean(iou);
  const f = nanMean(bf);
  return {
    id: expr.id,
    ...t,
    iouAll: j,
    iouGold: nanMean(gold),
    iouGoldPred: nanMean(goldPred),
    j,
    f,
    jf: (j + f) / 2,
    tp,
    fp,
    fn,
    tn,
    iou,
    boundaryF: bf,
  };
}

/**
 * Frame-presence precision, recall, F1 and accuracy. A 0/0 ratio (no predicted or no GT frames)
 * is 1 when there was nothing to find and nothing was claimed (tp = fp = fn = 0), else 0.
 */
function temporalScores(tp: number, fp: number, fn: number, tn: number): Pick<EgoMaskScores, 'tPrecision' | 'tRecall' | 'tF1' | 'tAcc'> {
  const nothing = tp + fp + fn === 0;
  const tPrecision = tp + fp === 0 ? (nothing ? 1 : 0) : tp / (tp + fp);
  const tRecall = tp + fn === 0 ? (nothing ? 1 : 0) : tp / (tp + fn);
  const tF1 = tPrecision + tRecall === 0 ? 0 : (2 * tPrecision * tRecall) / (tPrecision + tRecall);
  return { tPrecision, tRecall, tF1, tAcc: (tp + tn) / (tp + fp + fn + tn) };
}

/** Mean of every score over expressions (NaN values, e.g. IoU_gold without gold frames, skipped). */
export function summarizeEgoMask(results: readonly EgoExpressionResult[]): EgoMaskScores & { expressions: number } {
  const m = (key: keyof EgoMaskScores): number => nanMean(results.map((r) => r[key]));
  return {
    expressions: results.length,
    tPrecision: m('tPrecision'),
    tRecall: m('tRecall'),
    tF1: m('tF1'),
    tAcc: m('tAcc'),
    iouAll: m('iouAll'),
    iouGold: m('iouGold'),
    iouGoldPred: m('iouGoldPred'),
    j: m('j'),
    f: m('f'),
    jf: m('jf'),
  };
}
