import { describe, expect, it } from 'vitest';
import { createLabelMap } from '../../masks/labelMap';
import { stateAreas } from '../progress';
import { countFrame } from '../spoc';
import { rng } from '../../testing/metricFixtures';
import { countsFromAreas, frameIoUs } from './compareCounts';

function randomMap(seed: number, empty: boolean) {
  const r = rng(seed);
  const map = createLabelMap(23, 17);
  if (!empty) for (let i = 0; i < map.data.length; i++) map.data[i] = r() < 0.3 ? 1 : r() < 0.3 ? 2 : 0;
  return map;
}

describe('countsFromAreas', () => {
  it('equals countFrame whenever one side is empty or missing', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const full = randomMap(seed, false);
      const empty = randomMap(seed, true);
      expect(countsFromAreas(stateAreas(full), stateAreas(empty))).toEqual(countFrame(full, empty));
      expect(countsFromAreas(stateAreas(empty), stateAreas(full))).toEqual(countFrame(empty, full));
      expect(countsFromAreas(stateAreas(full), null)).toEqual(countFrame(full, null));
      expect(countsFromAreas(stateAreas(empty), null)).toEqual(countFrame(empty, null));
    }
  });

  it('declines when both sides have pixels', () => {
    expect(countsFromAreas({ act: 1, trf: 0 }, { act: 0, trf: 1 })).toBeNull();
  });
});

describe('frameIoUs', () => {
  it('is I/U per state, NaN where U = 0 or the frame is not counted', () => {
    expect(frameIoUs({ iAct: 1, uAct: 4, iTrf: 0, uTrf: 0, iObj: 3, uObj: 6 })).toEqual({ act: 0.25, trf: NaN, obj: 0.5 });
    expect(frameIoUs(null)).toEqual({ act: NaN, trf: NaN, obj: NaN });
  });
});
