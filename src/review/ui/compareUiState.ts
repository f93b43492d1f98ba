/**
 * State of the review room's comparison views (side-by-side, agreement): which two sources are
 * compared (A left, B right), whether the side-by-side view covers the canvas, whether it shows
 * the disputed pixels, and the merge rule. Kept apart from reviewUiState so the two review
 * features do not edit one store.
 *
 * One owner decides the compared pair (docs/architecture.md, "One owner per UI fact"): the
 * choices belong to the clip they were made on (another clip starts afresh, with nothing to reset),
 * every choice goes through `choose`, and both views read the pair from `useCompared`, over the
 * clip's sources that the editor hands down.
 */
import { useMemo } from 'react';
import { create } from 'zustand';
import type { LayerSource } from '../../store/types';
import { DEFAULT_MERGE, type MergeRule } from '../agreement/resolve';
import { useReviewUi } from './reviewUiState';

/** What the reviewer chose on one clip. */
export interface CompareChoice {
  sideBySide: boolean;
  /** Left / A: the reference (gt unless chosen otherwise). */
  a: LayerSource;
  /** Right / B as chosen: a prediction or a second annotation; null: the default (effectiveB). */
  b: LayerSource | null;
  /** Side-by-side shows the disputed pixels of A vs B instead of each side's masks. */
  disputes: boolean;
}

export interface CompareUiState extends CompareChoice {
  /** The clip these choices were made on; on any other clip they are the fresh ones. */
  clipId: string | null;
  rule: MergeRule;
  /** The one way a choice is made: on `clipId`, starting afresh if the last ones were made on another clip. */
  choose: (clipId: string, patch: Partial<CompareChoice>) => void;
  setRule: (rule: MergeRule) => void;
}

/** The choices of a clip nobody has chosen anything on yet: gt against the default B, side-by-side closed. */
export const FRESH_CHOICE: CompareChoice = { sideBySide: false, a: 'gt', b: null, disputes: false };

/** The choices in force on a clip. Pure. */
export function choiceOn(state: CompareChoice & { clipId: string | null }, clipId: string): CompareChoice {
  if (state.clipId !== clipId) return FRESH_CHOICE;
  return { sideBySide: state.sideBySide, a: state.a, b: state.b, disputes: state.disputes };
}

/** The store after a choice on `clipId`. Pure. */
export function afterChoice(state: CompareChoice & { clipId: string | null }, clipId: string, patch: Partial<CompareChoice>): CompareChoice & { clipId: string } {
  return { ...choiceOn(state, clipId), ...patch, clipId };
}

export const useCompareUi = create<CompareUiState>()((set) => ({
  ...FRESH_CHOICE,
  clipId: null,
  rule: DEFAULT_MERGE,
  choose: (clipId, patch) => set((s) => afterChoice(s, clipId, patch)),
  setRule: (rule) => set({ rule }),
}));

/** The compared pair as both views show it. */
export interface Compared extends CompareChoice {
  /** B as shown (effectiveB), null while the clip has nothing to compare with. */
  b: LayerSource | null;
  /** What B can be. */
  options: LayerSource[];
}

/** The pair from the clip's choices, its sources and the prediction the review panel compares with. Pure. */
export function comparedPair(choice: CompareChoice, sources: readonly string[], preferred: LayerSource | null): Compared {
  const options = comparableSources(sources, choice.a);
  return { ...choice, b: effectiveB(choice.b, options, preferred), options };
}

/** The compared pair on a clip, for the side-by-side view and the agreement panel alike. */
export function useCompared(clipId: string, sources: readonly string[]): Compared {
  const owner = useCompareUi((s) => s.clipId);
  const sideBySide = useCompareUi((s) => s.sideBySide);
  const a = useCompareUi((s) => s.a);
  const b = useCompareUi((s) => s.b);
  const disputes = useCompareUi((s) => s.disputes);
  const preferred = useReviewUi((s) => s.predSource);
  return useMemo(() => comparedPair(choiceOn({ clipId: owner, sideBySide, a, b, disputes }, clipId), sources, preferred), [owner, sideBySide, a, b, disputes, clipId, sources, preferred]);
}

/** Sources B can be: second annotations first, then predictions, then proposals; never A itself. */
export function comparableSources(sources: readonly string[], a: LayerSource): LayerSource[] {
  const rank = (s: string) => (s.startsWith('ann:') ? 0 : s.startsWith('pred:') ? 1 : s === 'proposal' ? 2 : 3);
  return (sources.filter((s) => s !== a && rank(s) < 3) as LayerSource[]).sort((x, y) => rank(x) - rank(y) || x.localeCompare(y));
}

/**
 * B as shown: the one chosen, else the first second annotation, else the prediction the review
 * panel compares with (`preferred`), else the first comparable source.
 */
export function effectiveB(chosen: LayerSource | null, options: readonly LayerSource[], preferred: LayerSource | null): LayerSource | null {
  if (chosen !== null && options.includes(chosen)) return chosen;
  const ann = options.find((s) => s.startsWith('ann:'));
  if (ann) return ann;
  if (preferred !== null && options.includes(preferred)) return preferred;
  return options[0] ?? null;
}
