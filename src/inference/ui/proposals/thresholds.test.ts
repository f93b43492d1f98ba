import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SpocDb } from '../../../store/db';
import { setMeta } from '../../../store/meta';
import { freshDb } from '../../../testing/storeFixtures';
import { EQ1_META_KEY, loadThresholds, parseThresholds, saveThresholds, thresholdsFor, withThresholds } from './thresholds';

let db: SpocDb;
beforeEach(async () => {
  db = await freshDb();
});
afterEach(() => db.close());

describe('per-verb Eq. 1 thresholds', () => {
  it('defaults to SPOC 0.5 / 0.01 and keeps verbs apart', () => {
    expect(thresholdsFor({}, 'peeling')).toEqual({ tau: 0.5, delta: 0.01 });
    const t = withThresholds({}, 'Peeling', { tau: 0.45, delta: 0.02 });
    expect(thresholdsFor(t, 'peeling')).toEqual({ tau: 0.45, delta: 0.02 });
    expect(thresholdsFor(t, 'grating')).toEqual({ tau: 0.5, delta: 0.01 });
    expect(withThresholds(t, 'peeling', { tau: 0.5, delta: 0.01 })).toEqual({});
    expect(() => withThresholds(t, 'peeling', { tau: Number.NaN, delta: 0 })).toThrow(/tau must be/);
    expect(() => withThresholds(t, 'peeling', { tau: 0.5, delta: -1 })).toThrow(/delta/);
  });

  it('persists in the meta table and ignores malformed rows', async () => {
    expect(await loadThresholds(db)).toEqual({});
    await saveThresholds(db, withThresholds({}, 'mashing', { tau: 0.4, delta: 0.05 }));
    expect(await loadThresholds(db)).toEqual({ mashing: { tau: 0.4, delta: 0.05 } });
    await setMeta(db, EQ1_META_KEY, { mashing: { tau: 'x', delta: 0 }, melting: { tau: 0.3, delta: 0.1 } });
    expect(await loadThresholds(db)).toEqual({ melting: { tau: 0.3, delta: 0.1 } });
    expect(parseThresholds([1, 2])).toEqual({});
    expect(parseThresholds(null)).toEqual({});
  });
});
