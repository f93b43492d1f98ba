/**
 * Flags about the shape of one frame's masks: specks, holes, and regions of one state enclosed by
 * the other. Definitions (docs/review.md):
 * - speck: a component of a state (8-connected) of fewer than `speck.maxArea` pixels;
 * - hole: a background component (4-connected) that does not touch the image border, of fewer than
 *   `hole.maxArea` pixels (it lies inside the object: inside one state, or between both);
 * - enclosed: a component of one state that does not touch the border and touches only the other
 *   state (no background around it), of fewer than `enclosed.maxArea` pixels — a likely mislabel,
 *   since a state change spreads over a surface rather than leaving islands. Peeling does leave
 *   legitimate islands (a patch of peel left on peeled flesh); those are dismissed with a reason.
 *   A component that is enclosed is reported as enclosed only, not also as a speck.
 * Every message names its frame: the flag list shows flags of the whole clip together.
 */
import type { LabelMap, StateLabel } from '../../masks/labelMap';
import { boxUnion } from '../../masks/geometry';
import { classMap, components, selectClass, type Component } from './components';
import { makeFlag } from './flagId';
import { FLAG_KINDS, STATE_NAMES, frameLabel, resolveThresholds, type Flag, type FlagKind, type FlagOptions, type FlagThresholds } from './types';

const STATES: readonly StateLabel[] = [1, 2];

type RegionKind = Extract<FlagKind, 'speck' | 'hole' | 'enclosed'>;

/** Speck, hole and enclosed flags of one frame, sharing one component pass per class. */
export function regionFlags(map: LabelMap, frameIndex: number, options: FlagOptions = {}): Flag[] {
  const t = resolveThresholds(options);
  const kinds = new Set<FlagKind>(options.kinds ?? FLAG_KINDS);
  const { width, height } = map;
  const cls = classMap(map);
  const out: Flag[] = [];

  if (kinds.has('speck') || kinds.has('enclosed')) {
    for (const s of STATES) {
      const other: StateLabel = s === 1 ? 2 : 1;
      const comps = components(selectClass(cls, s), width, height, 8, cls).list;
      const specks: Component[] = [];
      const enclosed: Component[] = [];
      for (const c of comps) {
        const isEnclosed = !c.border && c.neighbours === 1 << other;
        if (isEnclosed && c.area < t.enclosed.maxArea) {
          if (kinds.has('enclosed')) enclosed.push(c);
        } else if (c.area < t.speck.maxArea && kinds.has('speck')) {
          specks.push(c);
        }
      }
      out.push(...capped('enclosed', frameIndex, s, enclosed, t, (c) => enclosedMessage(c, s, other, frameIndex)));
      out.push(...capped('speck', frameIndex, s, specks, t, (c) => `Speck of ${STATE_NAMES[s]} on ${frameLabel(frameIndex)}: ${c.area} px (under ${t.speck.maxArea} px); erase it or join it to its region.`));
    }
  }

  if (kinds.has('hole')) {
    const comps = components(selectClass(cls, 0), width, height, 4, cls).list;
    const holes = comps.filter((c) => !c.border && c.area < t.hole.maxArea);
    // Holes are grouped by what surrounds them: one state (its own group) or both.
    for (const around of [2, 4, 6]) {
      const group = holes.filter((c) => c.neighbours === around);
      const state: StateLabel | undefined = around === 2 ? 1 : around === 4 ? 2 : undefined;
      const where = state ? `in ${STATE_NAMES[state]}` : 'between actionable and transformed';
      out.push(...capped('hole', frameIndex, state, group, t, (c) => `Hole of ${c.area} px ${where} on ${frameLabel(frameIndex)} (under ${t.hole.maxArea} px); fill it unless the object really has one.`));
    }
  }
  return out;
}

/** Speck flags of one frame only. */
export function speckFlags(map: LabelMap, frameIndex: number, options: FlagOptions = {}): Flag[] {
  return regionFlags(map, frameIndex, { ...options, kinds: ['speck', 'enclosed'] }).filter((f) => f.kind === 'speck');
}

/** Hole flags of one frame only. */
export function holeFlags(map: LabelMap, frameIndex: number, options: FlagOptions = {}): Flag[] {
  return regionFlags(map, frameIndex, { ...options, kinds: ['hole'] });
}

/** Enclosed-region ("wrong state") flags of one frame only. */
export function enclosedFlags(map: LabelMap, frameIndex: number, options: FlagOptions = {}): Flag[] {
  return regionFlags(map, frameIndex, { ...options, kinds: ['enclosed'] });
}

function enclosedMessage(c: Component, s: StateLabel, other: StateLabel, frameIndex: number): string {
  return `${capitalise(STATE_NAMES[s])} region of ${c.area} px on ${frameLabel(frameIndex)} lies entirely inside ${STATE_NAMES[other]}: check it is not painted with the wrong state.`;
}

/** One flag per component, in scan order, up to `maxPerFrame`; the rest summarised in one more. */
function capped(
  kind: RegionKind,
  frameIndex: number,
  state: StateLabel | undefined,
  comps: readonly Component[],
  t: FlagThresholds,
  message: (c: Component) => string,
): Flag[] {
  const severity = 'warning';
  const keep = Math.max(0, t.maxPerFrame);
  const flags = comps.slice(0, keep).map((c) => makeFlag({ kind, frameIndex, box: c.box, message: message(c), severity, state, pixels: c.area }));
  const rest = comps.slice(keep);
  if (rest.length > 0) {
    const box = rest.map((c) => c.box).reduce(boxUnion);
    const pixels = rest.reduce((n, c) => n + c.area, 0);
    const noun = kind === 'speck' ? 'specks' : kind === 'hole' ? 'holes' : 'enclosed regions';
    const of = state ? ` of ${STATE_NAMES[state]}` : '';
    flags.push(makeFlag({ kind, frameIndex, box, message: `…and ${rest.length} more ${noun}${of} (${pixels} px in all) on ${frameLabel(frameIndex)}.`, severity, state, pixels }, true));
  }
  return flags;
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
