import { describe, expect, it } from 'vitest';
import { createCarriedClip } from '../../demo/carried';
import { translateMask } from './synthetic';
import { refitLabels } from './refit';
import { nodeCv } from '../../testing/opencv';

describe('refitLabels (GrabCut from a carried mask)', () => {
  it('fits the same frame and mask the same way whatever ran before it in the worker', async () => {
    // GrabCut seeds its colour models from OpenCV's global random generator: unseeded, a fit
    // depended on the fits before it (the bench's figures changed with the order of its scenes).
    const { cv } = await nodeCv();
    const clip = createCarriedClip({ seed: 5, durationSec: 3 });
    const frame = clip.renderAt(1);
    const carried = translateMask(clip.groundTruthAt(0.9), 3, -2);
    const first = refitLabels(cv, frame, carried);
    for (const t of [0, 0.5, 2]) refitLabels(cv, clip.renderAt(t), clip.groundTruthAt(t));
    const again = refitLabels(cv, frame, carried);
    expect(Array.from(again.map.data)).toEqual(Array.from(first.map.data));
    expect(again.groups).toEqual(first.groups);
  }, 60_000);
});
