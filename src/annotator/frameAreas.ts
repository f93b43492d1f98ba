/**
 * The gt areas of every frame as the editor knows them: the stored rows, with the frames edited in
 * this tab as painted (they reach the store only after the write-behind delay; this tab holds the
 * clip's edit lock, so its maps are the truth). The timeline and the rooms' panels read this one
 * merge, from one live source, so none lags another. Pure.
 */
import type { LayerAreas } from '../store/layers';

/** Areas of one frame by state (metrics/progress StateAreas has this shape). */
export interface EditedArea {
  act: number;
  trf: number;
}

/** The stored rows with each edited frame's areas in place of (or added to) its row, by frame index. */
export function withEditedAreas(stored: readonly LayerAreas[], edited: ReadonlyMap<number, EditedArea>): LayerAreas[] {
  if (edited.size === 0) return stored.slice();
  const rows = new Map(stored.map((r) => [r.frameIndex, r]));
  for (const [frameIndex, a] of edited) rows.set(frameIndex, { frameIndex, actArea: a.act, trfArea: a.trf });
  return [...rows.values()].sort((x, y) => x.frameIndex - y.frameIndex);
}
