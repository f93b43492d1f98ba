import { describe, expect, it } from 'vitest';
import { createLabelMap, type LabelMap } from '../../masks/labelMap';
import { stateAreas } from '../progress';
import { countFrame } from '../spoc';
import { rng } from '../../testing/metricFixtures';
import { CompareModel } from './compareModel';
import { mergeAreas } from './progressSeries';

function blob(seed: number, label: number, empty = false): LabelMap {
  const r = rng(seed);
  const map = createLabelMap(32, 24);
  if (empty) return map;
  const x0 = Math.floor(r() * 16);
  const y0 = Math.floor(r() * 12);
  for (let y = y0; y < y0 + 10; y++) for (let x = x0; x < x0 + 12; x++) map.data[y * 32 + x] = r() < 0.8 ? label : 3 - label;
  return map;
}

function setup(frameCount = 12) {
  const gt = Array.from({ length: frameCount }, (_, k) => blob(k + 1, 1, k % 4 === 0));
  const pred = new Map<number, LabelMap>();
  for (let k = 0; k < frameCount; k++) if (k % 3 !== 0) pred.set(k, blob(100 + k, k % 2 ? 1 : 2, k === 5));
  const decoded: number[] = [];
  const model = new CompareModel({
    frameCount,
    loadGt: async (k) => {
      decoded.push(k);
      return gt[k];
    },
    loadPred: async (_s, k) => pred.get(k) ?? null,
    yieldToPage: () => Promise.resolve(),
    chunkMs: 0,
  });
  const areas = mergeAreas(frameCount, gt.map((m, k) => ({ frameIndex: k, actArea: stateAreas(m).act, trfArea: stateAreas(m).trf })), new Map());
  model.setGtAreas(areas);
  const predAreas = new Map([...pred].map(([k, m]) => [k, stateAreas(m)]));
  return { gt, pred, model, predAreas, decoded };
}

describe('CompareModel', () => {
  it('counts every frame like countFrame, decoding only frames where both sides have pixels', async () => {
    const { gt, pred, model, predAreas, decoded } = setup();
    await model.start('pred:x', predAreas);
    const snap = model.getSnapshot();
    expect(snap.done).toBe(12);
    for (let k = 0; k < 12; k++) expect(snap.counts[k]).toEqual(countFrame(gt[k], pred.get(k) ?? null));
    const both = [...Array(12).keys()].filter((k) => {
      const g = stateAreas(gt[k]);
      const p = pred.has(k) ? stateAreas(pred.get(k)!) : { act: 0, trf: 0 };
      return g.act + g.trf > 0 && p.act + p.trf > 0;
    });
    expect(decoded).toEqual(both);
    expect(both.length).toBeGreaterThan(0);
    expect(both.length).toBeLessThan(12);
  });

  it('recounts the current frame from the live map, and a running job does not overwrite it', async () => {
    const { gt, pred, model, predAreas } = setup();
    const edited = blob(999, 2);
    const job = model.start('pred:x', predAreas);
    await model.recountLive(7, edited);
    await job;
    expect(model.getSnapshot().counts[7]).toEqual(countFrame(edited, pred.get(7)!));
    expect(model.getSnapshot().counts[6]).toEqual(countFrame(gt[6], pred.get(6) ?? null));
  });

  it('starting again (another source) drops the old counts; stop() ends the job', async () => {
    const { model, predAreas } = setup();
    await model.start('pred:x', predAreas);
    const job = model.start('pred:y', new Map());
    model.stop();
    await job;
    expect(model.getSnapshot().source).toBe('pred:y');
    expect(model.getSnapshot().done).toBeLessThan(12);
  });
});
