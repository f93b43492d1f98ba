/**
 * Progress curves of several sources of one clip on one chart: gt and each prediction or second
 * annotation, each R_t computed exactly as the progress panel does (progressFromAreas over the
 * source's stored areas, so a frame without a layer has no object), with Kendall tau and the
 * end-state statistics per source. Pure.
 */
import { type AreaRow, type FrameAreas, type FrameMeta, type ProgressSeries, mergeAreas, progressFromAreas } from './progressSeries';

export interface SourceProgress extends ProgressSeries {
  source: string;
}

export function progressBySource(
  frameCount: number,
  frames: readonly FrameMeta[],
  gt: FrameAreas,
  others: readonly { source: string; rows: readonly AreaRow[] }[],
): SourceProgress[] {
  const out: SourceProgress[] = [{ source: 'gt', ...progressFromAreas(gt, frames) }];
  for (const o of others) out.push({ source: o.source, ...progressFromAreas(mergeAreas(frameCount, o.rows, new Map()), frames) });
  return out;
}

/** Distinct, colour-blind-friendly line colours: gt keeps the progress panel's amber, others follow Okabe–Ito. */
const PALETTE = ['#56B4E9', '#CC79A7', '#009E73', '#E69F00', '#0072B2', '#D55E00', '#F0E442'];

export function sourceColour(index: number): string {
  return index === 0 ? '#fbbf24' : PALETTE[(index - 1) % PALETTE.length];
}
