/**
 * Fitting the weight-free propagation's confidence (calibration.ts) on chains measured against
 * exact ground truth (bench/propagation-accuracy.bench.ts). The raw score of a step folds in the
 * confidence of the step before, and the table sets that confidence, so the table is fitted to a
 * fixed point: chains re-scored with the current table, the table refitted on what they give,
 * until it stops changing. The per-step depth decay is chosen on a grid by the squared error of the
 * confidences the chains then show. Pure: no OpenCV, no DOM.
 */
import { capAmbiguous, chainConfidence, fitIsotonic, type Calibration } from './calibration';

/** One step of a measured chain: the score before the previous confidence is folded in, and the IoU reached. */
export interface ChainSample {
  score: number;
  iou: number;
}

export interface ChainScored {
  depth: number;
  raw: number;
  confidence: number;
  iou: number;
}

/** The confidences a chain would show with this table and decay (each step capped by the one before, as in the app: shownTrackConfidence). */
export function scoreChain(chain: readonly ChainSample[], table: Calibration, decay: number): ChainScored[] {
  let previous = 1;
  return chain.map((s, depth) => {
    const raw = s.score * previous;
    const confidence = capAmbiguous(raw, chainConfidence(raw, previous, table, decay, depth));
    previous = confidence;
    return { depth, raw, confidence, iou: s.iou };
  });
}

export interface ChainFit {
  table: Calibration;
  decay: number;
  /** Mean squared difference of the chains' confidences and IoUs. */
  error: number;
}

/** Decays tried: 1 (depth ignored) down to 0.85 a step. */
export const DECAY_GRID = Array.from({ length: 31 }, (_, i) => 1 - i * 0.005);

export function fitChains(chains: readonly (readonly ChainSample[])[], start: Calibration, decays: readonly number[] = DECAY_GRID, maxIterations = 20): ChainFit {
  let best: ChainFit | null = null;
  for (const decay of decays) {
    let table = start;
    let seen = '';
    for (let it = 0; it < maxIterations; it++) {
      const scored = chains.flatMap((c) => scoreChain(c, table, decay));
      // The IoU the table must give before the decay: measured IoU / decay^depth.
      table = fitIsotonic(scored.map((s) => ({ x: s.raw, y: s.iou / Math.pow(decay, s.depth) })));
      const key = JSON.stringify(table);
      if (key === seen) break;
      seen = key;
    }
    const scored = chains.flatMap((c) => scoreChain(c, table, decay));
    const error = scored.reduce((a, s) => a + (s.confidence - s.iou) ** 2, 0) / Math.max(1, scored.length);
    if (!best || error < best.error) best = { table, decay, error };
  }
  if (!best) throw new RangeError('no decay to try');
  return best;
}
