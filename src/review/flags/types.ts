/**
 * Automatic review flags: what they are, what they are computed from, and every threshold in one
 * place (FLAG_DEFAULTS). Pure data; see docs/review.md for the definitions.
 */
import type { Box, LabelMap, StateLabel } from '../../masks/labelMap';
import type { FramePhase } from '../../store/types';

export const FLAG_KINDS = ['reversal', 'unannotated', 'enclosed', 'speck', 'hole', 'area_jump', 'vanished'] as const;
export type FlagKind = (typeof FLAG_KINDS)[number];

/** error: breaks a rule of the task; warning: probably a mistake; info: worth a glance, often fine. */
export type FlagSeverity = 'error' | 'warning' | 'info';
export const SEVERITY_ORDER: Record<FlagSeverity, number> = { error: 0, warning: 1, info: 2 };

export interface Flag {
  /** Stable id: a hash of kind, frame, state and box (flagId.ts); dismissals are keyed by it. */
  id: string;
  kind: FlagKind;
  /** The frame to go to (index into the clip, 0-based). */
  frameIndex: number;
  /** The region to show, in that frame's pixels; absent for whole-frame flags. */
  box?: Box;
  /** One sentence for the reviewer; frames are numbered from 1 as in the timeline. */
  message: string;
  severity: FlagSeverity;
  /** The state the flag is about (1 actionable, 2 transformed), for per-state flags. */
  state?: StateLabel;
  /** Pixels involved: the region's area, or the change of area. */
  pixels?: number;
  /** The other frame of a temporal flag (the earlier frame of a reversal, jump or vanishing). */
  relatedFrameIndex?: number;
}

/** One frame as the flags see it: its review metadata, its areas and, when decoded, its label map. */
export interface FlagFrame {
  index: number;
  ignored?: boolean;
  /** Someone looked and found nothing to paint: an empty layer is then an answer. */
  reviewed?: boolean;
  phase?: FramePhase;
  /** Pixels of each state (0 without a layer): from the store's area index, or counted from `map`. */
  actArea: number;
  trfArea: number;
  /** The decoded layer (values 0, 1, 2); absent/null = not decoded or no layer. Region flags need it. */
  map?: LabelMap | null;
  /**
   * Bounding boxes of each state, kept when the map is let go (streaming over long clips): the
   * temporal flags point at them. Used only when `map` is absent.
   */
  boxes?: { act: Box | null; trf: Box | null };
}

export interface FlagThresholds {
  reversal: {
    /** Camera-motion tolerance: a pixel counts only if the earlier transformed region covered the whole (2r+1)² square around it. */
    tolerancePx: number;
    /** A reversed region (8-connected) must have at least this many pixels. */
    minPixels: number;
    /** How many earlier usable frames each frame is compared with (1 = only the previous one). */
    lookback: number;
  };
  /** Components of a state (8-connected) with fewer pixels are specks. */
  speck: { maxArea: number };
  /** Background components (4-connected) enclosed by the object with fewer pixels are holes. */
  hole: { maxArea: number };
  /** A region of one state entirely surrounded by the other state, with fewer pixels, is a likely mislabel. */
  enclosed: { maxArea: number };
  areaJump: {
    /** |a(t) - a(t')| / max(a(t), a(t')) above this is a jump. */
    ratio: number;
    /** ...and the change must be at least this many pixels. */
    minPixels: number;
  };
  /** A state must have had at least this many pixels to count as present before vanishing. */
  vanished: { minArea: number };
  /** Region flags of one kind and state per frame beyond this are summarised in one flag. */
  maxPerFrame: number;
}

/** Every default in one place (pixels are frame pixels; raise them for 4K footage). */
export const FLAG_DEFAULTS: Readonly<FlagThresholds> = Object.freeze({
  reversal: { tolerancePx: 2, minPixels: 50, lookback: 2 },
  speck: { maxArea: 25 },
  hole: { maxArea: 25 },
  enclosed: { maxArea: 200 },
  areaJump: { ratio: 0.5, minPixels: 200 },
  vanished: { minArea: 50 },
  maxPerFrame: 10,
});

export interface FlagOptions {
  reversal?: Partial<FlagThresholds['reversal']>;
  speck?: Partial<FlagThresholds['speck']>;
  hole?: Partial<FlagThresholds['hole']>;
  enclosed?: Partial<FlagThresholds['enclosed']>;
  areaJump?: Partial<FlagThresholds['areaJump']>;
  vanished?: Partial<FlagThresholds['vanished']>;
  maxPerFrame?: number;
  /** Which kinds to compute (default all). */
  kinds?: readonly FlagKind[];
}

/** The defaults with `options` laid over them. */
export function resolveThresholds(options: FlagOptions = {}): FlagThresholds {
  const d = FLAG_DEFAULTS;
  return {
    reversal: { ...d.reversal, ...options.reversal },
    speck: { ...d.speck, ...options.speck },
    hole: { ...d.hole, ...options.hole },
    enclosed: { ...d.enclosed, ...options.enclosed },
    areaJump: { ...d.areaJump, ...options.areaJump },
    vanished: { ...d.vanished, ...options.vanished },
    maxPerFrame: options.maxPerFrame ?? d.maxPerFrame,
  };
}

export const STATE_NAMES: Record<StateLabel, string> = { 1: 'actionable', 2: 'transformed' };

/** "frame 5" for index 4: messages number frames from 1, as the timeline does. */
export function frameLabel(index: number): string {
  return `frame ${index + 1}`;
}

/** Non-ignored and either painted or explicitly reviewed: the frame holds an answer. */
export function isAnswered(f: FlagFrame): boolean {
  return !f.ignored && (f.reviewed === true || f.actArea + f.trfArea > 0);
}
