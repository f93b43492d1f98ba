/**
 * Shared scene vocabulary: the design viewport (scenes are laid out on a 640 x 360 design canvas,
 * scaled uniformly and centred into the requested frame size), layers, timing and motion helpers.
 */
import type { DrawItem } from './raster';
import type { Rng } from './random';
import type { NoiseTile } from './texture';
import { smoothstep } from './math';

export const DESIGN_W = 640;
export const DESIGN_H = 360;

/** Design area kept free for the frame barcode (top-left), in design units, with a safety margin. */
export const BARCODE_KEEP_OUT = { x: 0, y: 0, w: 250, h: 40 } as const;

export interface Viewport {
  readonly width: number;
  readonly height: number;
  /** Pixels per design unit. */
  readonly s: number;
  readonly ox: number;
  readonly oy: number;
}

export function viewportFor(width: number, height: number): Viewport {
  const s = Math.min(width / DESIGN_W, height / DESIGN_H);
  return { width, height, s, ox: (width - DESIGN_W * s) / 2, oy: (height - DESIGN_H * s) / 2 };
}

/** Integer pixel anchor of a design point. */
export function anchorX(v: Viewport, xd: number): number {
  return Math.round(v.ox + v.s * xd);
}
export function anchorY(v: Viewport, yd: number): number {
  return Math.round(v.oy + v.s * yd);
}

/**
 * Paint order is the item order. Layers say what an item is:
 * - support: tools lying under the object (grater): label 0, drawn before objects;
 * - shadow: overlays that darken what is below and keep its label;
 * - object: the object of interest, label 1 (actionable) or 2 (transformed), per pixel if needed;
 * - debris: things that are neither state (detached peel): label 0;
 * - occluder: hands and held tools on top of everything: label 0.
 */
export type Layer = 'support' | 'shadow' | 'object' | 'debris' | 'occluder';
export type InstanceRole = 'primary' | 'spare' | 'pieces';

export interface SceneItem extends DrawItem {
  readonly layer: Layer;
  /** For objects: which instance the item belongs to. */
  readonly instance?: InstanceRole;
}

export interface SceneTiles {
  /** Coarse fractal noise (4 cells across). */
  readonly coarse: NoiseTile;
  /** Finer fractal noise (16 cells across). */
  readonly fine: NoiseTile;
}

export interface SceneSetup {
  readonly view: Viewport;
  readonly rng: Rng;
  readonly durationSec: number;
  /** Transition start and end, seconds. */
  readonly t0: number;
  readonly t1: number;
  readonly tiles: SceneTiles;
  /** Optional noun override; must be one the scene supports. */
  readonly noun?: string;
}

export interface Scene {
  readonly noun: string;
  readonly actionable: string;
  readonly transformed: string;
  /** Items in paint order for time t with state-change progress p in [0, 1], un-jittered. */
  itemsAt(t: number, p: number): SceneItem[];
}

export type SceneFactory = (setup: SceneSetup) => Scene;

/** The scene's noun: the one asked for (refused by name when the scene cannot draw it), else a seeded pick. */
export function pickNoun<N extends { noun: string }>(setup: SceneSetup, nouns: readonly N[], verb: string): N {
  if (!setup.noun) return setup.rng.pick(nouns);
  const spec = nouns.find((n) => n.noun === setup.noun);
  if (!spec) throw new RangeError(`${verb} does not support noun "${setup.noun}"; use one of ${nouns.map((n) => n.noun).join(', ')}`);
  return spec;
}

/**
 * Motion envelope: 0 outside the transition, easing to 1 within `ramp` seconds of its ends, so
 * hands and tools are still (and the ground truth flat) in the initial and end phases.
 */
export function activity(t: number, t0: number, t1: number): number {
  if (t <= t0 || t >= t1) return 0;
  const ramp = Math.min(0.6, (t1 - t0) / 4);
  return smoothstep(t0, t0 + ramp, t) * (1 - smoothstep(t1 - ramp, t1, t));
}

/** Design-unit distance to whole pixels (at least 1). */
export function px(view: Viewport, d: number): number {
  return Math.max(1, Math.round(d * view.s));
}
