/**
 * State of the review room's comparison views (side-by-side, agreement): which two sources are
 * compared (A left, B right), whether the side-by-side view covers the canvas, whether it shows
 * the disputed pixels, and the merge rule. Kept apart from reviewUiState so the two review
 * features do not edit one store.
 */
import { create } from 'zustand';
import type { LayerSource } from '../../store/types';
import { DEFAULT_MERGE, type MergeRule } from '../agreement/resolve';

export interface CompareUiState {
  sideBySide: boolean;
  /** The clip these choices were made on; opening another clip starts afresh (side-by-side off). */
  clipId: string | null;
  /** Left / A: the reference (gt unless chosen otherwise). */
  a: LayerSource;
  /** Right / B: a prediction or a second annotation; null until one exists. */
  b: LayerSource | null;
  /** Side-by-side shows the disputed pixels of A vs B instead of each side's masks. */
  disputes: boolean;
  rule: MergeRule;
  set: (patch: Partial<Omit<CompareUiState, 'set'>>) => void;
}

export const useCompareUi = create<CompareUiState>()((set) => ({
  sideBySide: false,
  clipId: null,
  a: 'gt',
  b: null,
  disputes: false,
  rule: DEFAULT_MERGE,
  set: (patch) => set(patch),
}));

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
