/**
 * Per-frame verdicts in the review workflow: stepping to the next unreviewed frame, the rejected
 * frames a change request lists, and why a clip with rejected frames cannot be approved (the rest of
 * the approval rule is reviewGate.ts; approving itself is reviewSteps.ts `approveClip`).
 * Pure: the helpers take the verdicts in force (store `listFrameVerdicts` / `latestVerdicts`).
 */
import type { FrameVerdict } from '../store/types';

export type Verdicts = ReadonlyMap<number, Pick<FrameVerdict, 'verdict' | 'note' | 'by'>>;

/**
 * The next frame after `current` (or before it, `step` -1) without a verdict, wrapping around the
 * clip; null when every frame has one.
 */
export function nextUnreviewed(frameCount: number, verdicts: Verdicts, current: number, step: 1 | -1 = 1): number | null {
  for (let k = 1; k <= frameCount; k++) {
    const i = (((current + step * k) % frameCount) + frameCount) % frameCount;
    if (!verdicts.has(i)) return i;
  }
  return null;
}

/** Rejected frames, in frame order, with their notes. */
export function rejectedFrames(verdicts: Verdicts): { frameIndex: number; note?: string; by: string }[] {
  return [...verdicts.entries()]
    .filter(([, v]) => v.verdict === 'reject')
    .sort(([a], [b]) => a - b)
    .map(([frameIndex, v]) => ({ frameIndex, note: v.note, by: v.by }));
}

/** Counts for the strip's summary. */
export function verdictTally(frameCount: number, verdicts: Verdicts): { accepted: number; rejected: number; open: number } {
  let accepted = 0;
  let rejected = 0;
  for (const v of verdicts.values()) {
    if (v.verdict === 'accept') accepted++;
    else if (v.verdict === 'reject') rejected++;
  }
  return { accepted, rejected, open: frameCount - accepted - rejected };
}

/**
 * The change-request note's list of rejected frames (frames numbered from 1, as the timeline),
 * one line each: "Frame 3: the peel is missing". Empty when none is rejected.
 */
export function rejectedFramesNote(verdicts: Verdicts): string {
  const rows = rejectedFrames(verdicts);
  if (rows.length === 0) return '';
  return ['Rejected frames:', ...rows.map((r) => `Frame ${r.frameIndex + 1}${r.note ? `: ${r.note}` : ''}`)].join('\n');
}

/** Why the clip cannot be approved (frames numbered from 1), or null when it can. */
export function approvalBlocker(verdicts: Verdicts): string | null {
  const rows = rejectedFrames(verdicts);
  if (rows.length === 0) return null;
  const list = rows.map((r) => r.frameIndex + 1).join(', ');
  return `${rows.length === 1 ? 'Frame' : 'Frames'} ${list} ${rows.length === 1 ? 'is' : 'are'} rejected: accept ${rows.length === 1 ? 'it' : 'them'} (after the fix) or request changes instead of approving.`;
}
