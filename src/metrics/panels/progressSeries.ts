/**
 * The progress panel's numbers from per-frame areas alone (no pixels): R_t, Kendall tau and the
 * end-state statistics, with the same definitions and conventions as `clipProgress` in
 * ../progress.ts (ignored frames and frames with no object give NaN and are skipped). Pure.
 */
import { type EndStateStats, type StateAreas, endStateStats, kendallTau, progressRatio } from '../progress';
import type { Phase } from '../spoc';

/** A stored area row (store/layers.ts LayerAreas has this shape). */
export interface AreaRow {
  frameIndex: number;
  actArea: number;
  trfArea: number;
}

/** What the panel needs to know of a frame (store Frame rows have this shape). */
export interface FrameMeta {
  index: number;
  phase?: Phase;
  ignored?: unknown;
}

export interface FrameAreas {
  act: Float64Array;
  trf: Float64Array;
}

/**
 * Areas of every frame 0..frameCount-1: a live value (a frame edited in this tab) wins over the
 * stored one, which may lag behind by the write-behind delay; a frame with neither has no object.
 */
export function mergeAreas(frameCount: number, stored: readonly AreaRow[], live: ReadonlyMap<number, StateAreas>): FrameAreas {
  const act = new Float64Array(frameCount);
  const trf = new Float64Array(frameCount);
  for (const row of stored) {
    if (row.frameIndex < 0 || row.frameIndex >= frameCount) continue;
    act[row.frameIndex] = row.actArea;
    trf[row.frameIndex] = row.trfArea;
  }
  for (const [k, a] of live) {
    if (k < 0 || k >= frameCount) continue;
    act[k] = a.act;
    trf[k] = a.trf;
  }
  return { act, trf };
}

export interface ProgressSeries {
  /** R_t per frame; NaN where no object is visible or the frame is ignored. */
  r: Float64Array;
  /** Kendall tau of R_t against time (SPOC definition, ties non-increasing). */
  tau: number;
  /** Statistics of R_t over the frames whose phase is 'end' (end_sigma = sigma, end_l2 = l2). */
  end: EndStateStats;
}

export function progressFromAreas(areas: FrameAreas, frames: readonly FrameMeta[]): ProgressSeries {
  const n = areas.act.length;
  const meta = new Array<FrameMeta | undefined>(n);
  for (const f of frames) if (f.index >= 0 && f.index < n) meta[f.index] = f;
  const r = new Float64Array(n);
  const endValues: number[] = [];
  const a: StateAreas = { act: 0, trf: 0 };
  for (let k = 0; k < n; k++) {
    a.act = areas.act[k];
    a.trf = areas.trf[k];
    r[k] = meta[k]?.ignored ? NaN : progressRatio(a);
    if (meta[k]?.phase === 'end') endValues.push(r[k]);
  }
  return { r, tau: kendallTau(Array.from(r)), end: endStateStats(endValues) };
}
