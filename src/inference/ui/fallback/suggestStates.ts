/**
 * "Suggest states (fallback)": the colour/texture state classifier trained on the clip's other
 * labelled gt frames, applied to the shown frame. Framework-free so it can be tested headless.
 *
 * Scope (a choice, documented in docs/inference.md): when the shown frame already has object
 * pixels (actionable or transformed), the suggestion only re-decides the state of those pixels —
 * the user outlines the object with either class and the classifier splits it into states; the
 * rest of the frame is left alone. When the frame is empty, the whole frame is labelled
 * (background competes too). Accepting writes ONE patch to gt, so one Ctrl+Z undoes it.
 */
import type { LabelMap, RgbaImage } from '../../../masks/labelMap';
import { replaceFrame } from '../../../annotator/frameOps';
import type { Patch } from '../../../annotator/patch';
import type { TrainingFrame } from '../../classical/stateClassifier';
import type { StateSuggestion } from '../../classical/classicalClient';

/** Most labelled frames to learn from, nearest to the shown one first. */
export const MAX_TRAINING_FRAMES = 6;
/** Frames farther than this are not searched (a long clip with few labels stays quick). */
export const MAX_SCAN_DISTANCE = 100;

export interface SuggestSource {
  frameCount: number;
  loadMap(k: number): Promise<LabelMap>;
  getImage(k: number): Promise<RgbaImage>;
}

export function hasObject(map: LabelMap): boolean {
  for (const v of map.data) if (v === 1 || v === 2) return true;
  return false;
}

/** The labelled frames (any act/trf pixel) nearest to `k` within `maxDistance`, excluding `k`, up to `max`. */
export async function trainingFrames(source: SuggestSource, k: number, max = MAX_TRAINING_FRAMES, maxDistance = MAX_SCAN_DISTANCE): Promise<{ frames: TrainingFrame[]; indices: number[] }> {
  const frames: TrainingFrame[] = [];
  const indices: number[] = [];
  for (let d = 1; d < source.frameCount && d <= maxDistance && frames.length < max; d++) {
    for (const j of [k - d, k + d]) {
      if (j < 0 || j >= source.frameCount || frames.length >= max) continue;
      const labels = await source.loadMap(j);
      if (!hasObject(labels)) continue;
      frames.push({ image: await source.getImage(j), labels });
      indices.push(j);
    }
  }
  return { frames, indices };
}

/** Object pixels of the frame as a 0/1 mask, or undefined when there are none (whole-frame mode). */
export function objectMask(map: LabelMap): Uint8Array | undefined {
  if (!hasObject(map)) return undefined;
  return map.data.map((v) => (v === 1 || v === 2 ? 1 : 0));
}

/** The frame's labels after taking the suggestion (a new array). */
export function applySuggestion(map: LabelMap, suggestion: Pick<StateSuggestion, 'labels'>, targetMask: Uint8Array | undefined): Uint8Array {
  const next = map.data.slice();
  for (let i = 0; i < next.length; i++) {
    if (targetMask ? targetMask[i] : true) next[i] = suggestion.labels[i];
  }
  return next;
}

/**
 * What the preview shows before Accept: the state the suggestion gives each pixel it decides
 * (inside the painted object, or the whole frame), 0 elsewhere, with the count of each state. Both
 * states are shown, not only the transformed pixels: the user judges the split, not half of it.
 */
export function suggestionPreview(map: LabelMap, suggestion: Pick<StateSuggestion, 'labels'>, targetMask: Uint8Array | undefined): LabelMap & { act: number; trf: number } {
  const data = new Uint8Array(map.data.length);
  let act = 0;
  let trf = 0;
  for (let i = 0; i < data.length; i++) {
    if (targetMask && !targetMask[i]) continue;
    const v = suggestion.labels[i];
    if (v === 1) act++;
    else if (v === 2) trf++;
    else continue;
    data[i] = v;
  }
  return { width: map.width, height: map.height, data, act, trf };
}

/** Writes the suggestion to `map` as one patch (null when nothing changes). */
export function suggestionPatch(map: LabelMap, frameIndex: number, suggestion: Pick<StateSuggestion, 'labels'>, targetMask: Uint8Array | undefined): Patch | null {
  return replaceFrame(map, frameIndex, applySuggestion(map, suggestion, targetMask), 'suggest-states');
}
