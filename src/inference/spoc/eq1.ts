/**
 * SPOC Eq. 1: the state pseudo-label of one mask proposal from its CLIP similarities to the
 * actionable and transformed descriptions (see similarity.ts for what S means). Rules are tried in
 * order; comparisons are strict as written in the paper, so on the boundaries:
 * - S_act + S_trf == tau is NOT background;
 * - |S_act - S_trf| == delta is NOT ambiguous;
 * - S_act == S_trf (possible only when delta <= 0) falls to rule 4: transformed.
 */

export type ProposalState = 'background' | 'ambiguous' | 'actionable' | 'transformed';

export interface Eq1Params {
  /** Sigma in the paper: minimum S_act + S_trf for a proposal to be the object at all. */
  tau: number;
  /** Delta: minimum |S_act - S_trf| for a confident state. */
  delta: number;
}

/** The paper's grid-search optimum over all verbs (it also tunes them per verb). */
export const SPOC_EQ1_DEFAULTS: Readonly<Eq1Params> = Object.freeze({ tau: 0.5, delta: 0.01 });

export function labelProposal(sAct: number, sTrf: number, params: Eq1Params = SPOC_EQ1_DEFAULTS): ProposalState {
  if (!Number.isFinite(sAct) || !Number.isFinite(sTrf)) throw new RangeError(`similarities must be finite, got ${sAct}, ${sTrf}`);
  if (!Number.isFinite(params.tau) || !Number.isFinite(params.delta)) throw new RangeError('tau and delta must be finite');
  if (sAct + sTrf < params.tau) return 'background';
  if (Math.abs(sAct - sTrf) < params.delta) return 'ambiguous';
  if (sAct > sTrf) return 'actionable';
  return 'transformed';
}
