import { describe, expect, it } from 'vitest';
import { reviewMasksRequest } from './reviewMasks';
import type { OverlayMode } from './reviewUiState';

const MODES: OverlayMode[] = ['gt', 'pred', 'both', 'error'];

describe('reviewMasksRequest', () => {
  it('shows the gt masks in "GT only" and "both", hides them in the prediction-only modes', () => {
    const visible = (overlay: OverlayMode) => reviewMasksRequest({ overlay, predSource: 'pred:unet', annotatorVersion: false }).visible;
    expect(MODES.map(visible)).toEqual([true, false, true, false]);
  });

  it('shows them in every mode while there is no prediction to overlay', () => {
    for (const overlay of MODES) expect(reviewMasksRequest({ overlay, predSource: null, annotatorVersion: false }).visible).toBe(true);
  });

  it("hides them while the annotator's version shows, whatever the overlay mode", () => {
    for (const overlay of MODES) for (const predSource of [null, 'pred:unet']) expect(reviewMasksRequest({ overlay, predSource, annotatorVersion: true }).visible).toBe(false);
  });

  it('names every view apart, so switching view starts from what it asks', () => {
    const keys = new Set<string>();
    for (const overlay of MODES) for (const predSource of [null, 'pred:a', 'pred:b']) for (const annotatorVersion of [false, true]) keys.add(reviewMasksRequest({ overlay, predSource, annotatorVersion }).key);
    expect(keys.size).toBe(MODES.length * 3 * 2);
  });
});
