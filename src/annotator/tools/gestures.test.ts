import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { History } from '../history';
import { applyPatch } from '../patch';
import type { PaintClass } from '../paint/paintRule';
import { TOOL_IDS } from './createTool';
import { ToolDriver } from './toolDriver';
import type { ToolId } from './types';

const W = 40;
const H = 30;

const point = fc.tuple(fc.double({ min: -5, max: W + 5, noNaN: true }), fc.double({ min: -5, max: H + 5, noNaN: true }));
const gestureArb = fc.record({
  tool: fc.constantFrom<ToolId>(...TOOL_IDS),
  points: fc.array(point, { minLength: 1, maxLength: 6 }),
  button: fc.constantFrom(0, 2),
  alt: fc.boolean(),
  activeClass: fc.constantFrom<PaintClass>(0, 1, 2),
  protect: fc.boolean(),
  brushSize: fc.integer({ min: 1, max: 12 }),
  cancel: fc.boolean(),
});

type Gesture = typeof gestureArb extends fc.Arbitrary<infer T> ? T : never;

/**
 * Runs one gesture the way a person would with each tool, cancelling it when asked. Returns whether
 * the cancel dropped a gesture still in progress: a click on a polygon's first vertex closes and
 * commits it (PolygonTool), so an Escape after that finds nothing to drop and the fill stays.
 */
function perform(d: ToolDriver, g: Gesture): boolean {
  const b = { button: g.button, alt: g.alt };
  if (g.tool === 'polygon') {
    for (const [x, y] of g.points) d.click(x, y, b);
    const closedByClick = d.ctx.commits.length > 0;
    if (g.cancel) d.key('Escape');
    else d.key('Enter');
    d.tool.cancel(); // an unclosable polygon (< 3 vertices) is dropped
    return g.cancel && !closedByClick;
  }
  const [first, ...rest] = g.points;
  d.down(first[0], first[1], b);
  for (const [x, y] of rest) d.move(x, y, b);
  if (g.cancel) d.tool.cancel();
  const last = g.points[g.points.length - 1];
  d.up(last[0], last[1], b);
  // A fill that leaks to the border or over half the frame waits for a yes (Enter).
  if (d.tool.busy) d.key('Enter');
  return g.cancel;
}

/** Index of the first pixel where the two maps differ, -1 when they are equal. */
function firstDifference(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return a.length === b.length ? -1 : n;
}

/** The property: a session of gestures on one map, each checked alone, then undone and redone whole. */
function checkSession(data: Uint8Array, gestures: readonly Gesture[]): void {
  const map = { width: W, height: H, data: data.slice() };
  const history = new History();
  const states = [map.data.slice()];
  for (const [i, g] of gestures.entries()) {
    const d = new ToolDriver(map, g.tool, { activeClass: g.activeClass, protect: g.protect, brushSize: g.brushSize, hitRadius: 2 });
    const before = map.data.slice();
    const cancelled = perform(d, g);
    expect(d.tool.busy, `gesture ${i} (${g.tool}) left the tool busy`).toBe(false);
    expect(d.ctx.commits.length, `gesture ${i} (${g.tool}) committed more than one patch`).toBeLessThanOrEqual(1);
    if (cancelled || d.ctx.commits.length === 0) {
      expect(firstDifference(map.data, before), `gesture ${i} (${g.tool}) was cancelled or committed nothing, yet changed this pixel`).toBe(-1);
      expect(d.ctx.commits, `gesture ${i} (${g.tool}) was cancelled, yet committed`).toHaveLength(0);
      continue;
    }
    const patch = d.ctx.commits[0];
    const after = map.data.slice();
    applyPatch(map, patch, 'undo');
    expect(firstDifference(map.data, before), `gesture ${i} (${g.tool}): its patch undone leaves this pixel changed`).toBe(-1);
    applyPatch(map, patch, 'redo');
    expect(firstDifference(map.data, after), `gesture ${i} (${g.tool}): its patch redone misses this pixel`).toBe(-1);
    history.commit(patch);
    states.push(after);
  }
  for (let k = states.length - 2; k >= 0; k--) {
    expect(history.undo(0, map)).not.toBeNull();
    expect(firstDifference(map.data, states[k]), `History undo back to state ${k}: this pixel differs`).toBe(-1);
  }
  for (let k = 1; k < states.length; k++) {
    expect(history.redo(0, map)).not.toBeNull();
    expect(firstDifference(map.data, states[k]), `History redo to state ${k}: this pixel differs`).toBe(-1);
  }
}

/**
 * 150 random sessions in all, as three tests of 50 so each has the whole test timeout to itself on
 * a loaded machine (each test draws its own seed). Pixels are compared with firstDifference rather
 * than toEqual: vitest's deep equal of two 1200-pixel maps costs ~4 ms of CPU (firstDifference
 * ~0.02 ms), up to thirty times a session, and was almost all of the property's time.
 */
const PARTS = 3;
const RUNS_PER_PART = 50;

describe('every tool: one gesture = at most one patch, cancel restores, undo restores (property)', () => {
  for (let part = 1; part <= PARTS; part++) {
    it(`holds for random gestures on random maps, and History undoes and redoes the whole session (${part}/${PARTS})`, () => {
      fc.assert(
        fc.property(fc.uint8Array({ minLength: W * H, maxLength: W * H, max: 2 }), fc.array(gestureArb, { minLength: 1, maxLength: 8 }), checkSession),
        { numRuns: RUNS_PER_PART },
      );
    });
  }

  it('regression (fast-check seed 1437717114): a polygon closed by a click on its first vertex is finished, so the Escape after it drops nothing', () => {
    const data = new Uint8Array(W * H);
    data[1] = 1;
    const gestures: Gesture[] = [
      // The 4th click lands on the first vertex: the polygon closes there and cuts pixel (1, 0).
      { tool: 'polygon', points: [[0, 0], [0, 0.7109599853049483], [5.055176584392795, 0], [0, 0]], button: 0, alt: false, activeClass: 0, protect: false, brushSize: 1, cancel: true },
      { tool: 'brush', points: [[0, 0]], button: 0, alt: false, activeClass: 0, protect: false, brushSize: 1, cancel: false },
    ];
    checkSession(data, gestures);
  });
});
