/**
 * Eq. 1 thresholds per verb. SPOC grid-searched one (tau, delta) over all verbs (0.5 / 0.01) but
 * tunes them per verb; here an annotator adjusts them per verb while looking at the labels, and
 * they are remembered in the store's meta table (one row holding verb -> {tau, delta}), so every
 * clip of that verb starts from the same values on the next visit.
 */
import type { SpocDb } from '../../../store/db';
import { getMeta, META_KEYS, setMeta } from '../../../store/meta';
import { SPOC_EQ1_DEFAULTS, type Eq1Params } from '../../spoc/eq1';

export type VerbThresholds = Readonly<Record<string, Eq1Params>>;

export const EQ1_META_KEY = META_KEYS.eq1ByVerb;

/** Bounds that keep a typo from hiding every proposal: raw cosines sum to [-2, 2], differ by at most 2. */
export const TAU_RANGE = [-2, 2] as const;
export const DELTA_RANGE = [0, 2] as const;

export function validThresholds(p: unknown): p is Eq1Params {
  if (!p || typeof p !== 'object') return false;
  const { tau, delta } = p as Record<string, unknown>;
  return (
    typeof tau === 'number' &&
    typeof delta === 'number' &&
    Number.isFinite(tau) &&
    Number.isFinite(delta) &&
    tau >= TAU_RANGE[0] &&
    tau <= TAU_RANGE[1] &&
    delta >= DELTA_RANGE[0] &&
    delta <= DELTA_RANGE[1]
  );
}

/** The verb's thresholds, or SPOC's defaults. */
export function thresholdsFor(table: VerbThresholds, verb: string): Eq1Params {
  const t = table[verb.trim().toLowerCase()];
  return t ? { tau: t.tau, delta: t.delta } : { ...SPOC_EQ1_DEFAULTS };
}

/** A new table with the verb's thresholds set (back to the defaults removes the entry). Throws on values out of range. */
export function withThresholds(table: VerbThresholds, verb: string, params: Eq1Params): VerbThresholds {
  const { tau, delta } = params;
  if (!validThresholds(params)) {
    throw new RangeError(`tau must be in [${TAU_RANGE.join(', ')}] and delta in [${DELTA_RANGE.join(', ')}], got ${tau}, ${delta}`);
  }
  const key = verb.trim().toLowerCase();
  const next: Record<string, Eq1Params> = { ...table };
  if (params.tau === SPOC_EQ1_DEFAULTS.tau && params.delta === SPOC_EQ1_DEFAULTS.delta) delete next[key];
  else next[key] = { tau: params.tau, delta: params.delta };
  return next;
}

/** A stored value as a table; entries that are not valid thresholds are dropped, not trusted. */
export function parseThresholds(value: unknown): VerbThresholds {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
  const out: Record<string, Eq1Params> = {};
  for (const [verb, p] of Object.entries(value as Record<string, unknown>)) if (validThresholds(p)) out[verb] = { tau: p.tau, delta: p.delta };
  return out;
}

export async function loadThresholds(db: SpocDb): Promise<VerbThresholds> {
  return parseThresholds(await getMeta<unknown>(db, EQ1_META_KEY));
}

export async function saveThresholds(db: SpocDb, table: VerbThresholds): Promise<void> {
  await setMeta(db, EQ1_META_KEY, table);
}
