/**
 * Which frames interpolation fills for one object (docs/objects.md "Keyframes and interpolation"),
 * VISOR's rules (§3.4) as options: the frames strictly between two consecutive keyframes of the
 * object are filled from both ends when the object is present (has pixels) on both; an object
 * present on only one of the two is not interpolated there (it may have left or come in), except
 * hands, which are always carried on, from the one keyframe that has them; spans with more frames
 * between the keyframes than a limit are skipped. Pure.
 */

/** One keyframe of an object: its frame and whether the object has pixels there. */
export interface ObjectKeyframe {
  frame: number;
  present: boolean;
}

export interface SpanRules {
  /** Most frames strictly between two keyframes that are filled (VISOR skips long gaps). */
  maxFramesBetween: number;
  /** VISOR's rule: only an object present on both keyframes is interpolated (default true). */
  requireBothKeyframes: boolean;
  /** Hands are carried from the one keyframe that has them even when the rule above holds (default true). */
  handsAlways: boolean;
}

export const DEFAULT_SPAN_RULES: SpanRules = { maxFramesBetween: 60, requireBothKeyframes: true, handsAlways: true };

/** Both ends, or only from the first (forward) or the last (backward) keyframe. */
export type SpanDirection = 'both' | 'forward' | 'backward';

export type SkipReason = 'too-long' | 'one-keyframe' | 'absent';

export type SpanPlan =
  | { a: number; b: number; kind: 'fill'; direction: SpanDirection }
  | { a: number; b: number; kind: 'skip'; reason: SkipReason };

export const SKIP_TEXT: Record<SkipReason, string> = {
  'too-long': 'more frames between the keyframes than the limit',
  'one-keyframe': 'present on only one of the two keyframes',
  absent: 'absent on both keyframes',
};

/**
 * The spans between consecutive keyframes (sorted, one per frame; spans without a frame between
 * are left out), each to fill or skipped with the reason.
 */
export function planSpans(keyframes: readonly ObjectKeyframe[], hand: boolean, rules: SpanRules = DEFAULT_SPAN_RULES): SpanPlan[] {
  const sorted = [...keyframes].sort((x, y) => x.frame - y.frame);
  const out: SpanPlan[] = [];
  for (let i = 1; i < sorted.length; i++) {
    const { frame: a, present: pa } = sorted[i - 1];
    const { frame: b, present: pb } = sorted[i];
    if (b - a < 2) continue;
    if (b - a - 1 > rules.maxFramesBetween) out.push({ a, b, kind: 'skip', reason: 'too-long' });
    else if (pa && pb) out.push({ a, b, kind: 'fill', direction: 'both' });
    else if (!pa && !pb) out.push({ a, b, kind: 'skip', reason: 'absent' });
    else if (rules.requireBothKeyframes && !(hand && rules.handsAlways)) out.push({ a, b, kind: 'skip', reason: 'one-keyframe' });
    else out.push({ a, b, kind: 'fill', direction: pa ? 'forward' : 'backward' });
  }
  return out;
}

/** Keyframes a < k < b where the middle one can be held out to check the interpolation across it (both ends and k present). */
export function heldOutTriples(keyframes: readonly ObjectKeyframe[]): [number, number, number][] {
  const sorted = [...keyframes].sort((x, y) => x.frame - y.frame);
  const out: [number, number, number][] = [];
  for (let i = 2; i < sorted.length; i++) {
    const [a, k, b] = [sorted[i - 2], sorted[i - 1], sorted[i]];
    if (a.present && k.present && b.present) out.push([a.frame, k.frame, b.frame]);
  }
  return out;
}
