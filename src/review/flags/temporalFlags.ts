/**
 * Flags across frames: reversals of the irreversible change, unannotated frames, sudden area jumps
 * and states that vanish. Definitions and defaults: docs/review.md and FLAG_DEFAULTS.
 */
import { boxUnion, labelBbox } from '../../masks/geometry';
import type { Box, StateLabel } from '../../masks/labelMap';
import { components, erode } from './components';
import { makeFlag } from './flagId';
import { STATE_NAMES, frameLabel, isAnswered, resolveThresholds, type Flag, type FlagFrame, type FlagOptions } from './types';

const STATES: readonly StateLabel[] = [1, 2];

function sorted(frames: readonly FlagFrame[]): FlagFrame[] {
  return [...frames].sort((a, b) => a.index - b.index);
}

function areaOf(f: FlagFrame, s: StateLabel): number {
  return s === 1 ? f.actArea : f.trfArea;
}

function bboxOf(f: FlagFrame, s: StateLabel): Box | null {
  if (f.map) return labelBbox(f.map, s);
  return (s === 1 ? f.boxes?.act : f.boxes?.trf) ?? null;
}

function unionOrNull(a: Box | null, b: Box | null): Box | undefined {
  if (a && b) return boxUnion(a, b);
  return a ?? b ?? undefined;
}

/**
 * unannotated: a frame with no paint in either state that is neither ignored nor marked reviewed
 * (the same rule as the store's progress count). Severity error: the clip is not finished.
 */
export function unannotatedFlags(frames: readonly FlagFrame[]): Flag[] {
  return sorted(frames)
    .filter((f) => !f.ignored && !f.reviewed && f.actArea + f.trfArea === 0)
    .map((f) =>
      makeFlag({
        kind: 'unannotated',
        frameIndex: f.index,
        message: `${capitalise(frameLabel(f.index))} is neither annotated nor ignored: paint it, mark it reviewed (nothing to paint), or ignore it.`,
        severity: 'error',
      }),
    );
}

/**
 * area_jump, per state, between consecutive answered frames (non-ignored, painted or reviewed;
 * ignored and unannotated frames are skipped over): |a(t) - a(t')| / max(a(t), a(t')) > ratio and
 * |a(t) - a(t')| >= minPixels, where t' is the previous answered frame. Only when the state is
 * present on both frames: appearing is how a change starts, and disappearing is `vanished`.
 * The box is the union of the state's boxes on both frames (when decoded).
 */
export function areaJumpFlags(frames: readonly FlagFrame[], options: FlagOptions = {}): Flag[] {
  const { ratio, minPixels } = resolveThresholds(options).areaJump;
  const seq = sorted(frames).filter(isAnswered);
  const out: Flag[] = [];
  for (let k = 1; k < seq.length; k++) {
    const prev = seq[k - 1];
    const cur = seq[k];
    for (const s of STATES) {
      const a0 = areaOf(prev, s);
      const a1 = areaOf(cur, s);
      if (a0 === 0 || a1 === 0) continue;
      const change = Math.abs(a1 - a0);
      if (change < minPixels || change / Math.max(a0, a1) <= ratio) continue;
      const pct = Math.round(((a1 - a0) / a0) * 100);
      out.push(
        makeFlag({
          kind: 'area_jump',
          frameIndex: cur.index,
          box: unionOrNull(bboxOf(prev, s), bboxOf(cur, s)),
          message: `${capitalise(STATE_NAMES[s])} area jumps from ${a0} px (${frameLabel(prev.index)}) to ${a1} px (${pct > 0 ? '+' : ''}${pct}%).`,
          severity: 'warning',
          state: s,
          pixels: change,
          relatedFrameIndex: prev.index,
        }),
      );
    }
  }
  return out;
}

/**
 * vanished: a state with at least `minArea` pixels on an answered frame t and none on the next
 * answered frame t' (non-ignored, painted or reviewed). Ignored and unannotated frames in between
 * are skipped over, as for area_jump: a state present on frames 1–2 and gone from frame 4 on, with
 * frame 3 ignored or not yet painted, vanished at frame 4 (frame 3 itself is flagged unannotated
 * or explained by its ignore, never as vanished). Actionable may legitimately run out once the
 * change is complete, so when frame t' is in the 'end' phase an actionable vanishing is only
 * 'info'; otherwise (and always for transformed) it is a 'warning'. The box is where the state
 * was on frame t.
 */
export function vanishedFlags(frames: readonly FlagFrame[], options: FlagOptions = {}): Flag[] {
  const { minArea } = resolveThresholds(options).vanished;
  const seq = sorted(frames).filter(isAnswered);
  const out: Flag[] = [];
  for (let k = 1; k < seq.length; k++) {
    const prev = seq[k - 1];
    const cur = seq[k];
    for (const s of STATES) {
      const before = areaOf(prev, s);
      if (before < minArea || areaOf(cur, s) !== 0) continue;
      const ended = s === 1 && cur.phase === 'end';
      out.push(
        makeFlag({
          kind: 'vanished',
          frameIndex: cur.index,
          box: bboxOf(prev, s) ?? undefined,
          message: ended
            ? `Actionable is gone on ${frameLabel(cur.index)} (${before} px on ${frameLabel(prev.index)}); the frame is in the end phase, so the change may simply be complete.`
            : `${capitalise(STATE_NAMES[s])} (${before} px on ${frameLabel(prev.index)}) is missing on ${frameLabel(cur.index)}, which is not ignored: paint it, or ignore the frame if the object cannot be seen.`,
          severity: ended ? 'info' : 'warning',
          state: s,
          pixels: before,
          relatedFrameIndex: prev.index,
        }),
      );
    }
  }
  return out;
}

/**
 * reversal: pixels transformed at an earlier frame t and actionable at frame t' > t, both frames
 * non-ignored and decoded. Camera-motion tolerance: the earlier transformed mask is eroded by a
 * (2r+1)² square (r = tolerancePx) first, so a pixel counts only when the transformed region
 * covered everything within r px of it — a boundary that merely shifted by up to r px between the
 * frames does not count. The reversed pixels are then grouped into 8-connected regions and only
 * regions of at least `minPixels` are flagged. Each frame is compared with the `lookback` previous
 * usable frames (so a region that went transformed -> background -> actionable is still caught);
 * each pixel is attributed to the nearest of them. Severity error: the change is irreversible.
 * Large camera motion can still raise this flag; the reviewer dismisses it with that reason.
 */
export function reversalFlags(frames: readonly FlagFrame[], options: FlagOptions = {}): Flag[] {
  const scanner = new ReversalScanner(options);
  return sorted(frames).flatMap((f) => scanner.push(f));
}

/**
 * reversalFlags one frame at a time, in frame order, holding only the eroded transformed masks of
 * the last `lookback` usable frames: what lets the flags of a long 4K clip be computed without
 * every decoded frame in memory at once (flagLoader.ts). Frames must come in increasing index order.
 */
export class ReversalScanner {
  private readonly t: ReturnType<typeof resolveThresholds>;
  /** Eroded transformed masks of the most recent usable frames, nearest last. */
  private readonly recent: { index: number; eroded: Uint8Array | null }[] = [];
  private last = -Infinity;

  constructor(options: FlagOptions = {}) {
    this.t = resolveThresholds(options);
  }

  push(cur: FlagFrame): Flag[] {
    if (cur.index <= this.last) throw new RangeError(`frame ${cur.index} comes after frame ${this.last}; frames must be pushed in order`);
    this.last = cur.index;
    if (cur.ignored || !cur.map) return [];
    const { tolerancePx, minPixels, lookback } = this.t.reversal;
    const { recent } = this;
    const { width, height, data } = cur.map;
    const n = data.length;
    const out: Flag[] = [];
    if (data.indexOf(1) >= 0) {
      const from = new Int32Array(n).fill(-1);
      const reversed = new Uint8Array(n);
      let any = false;
      for (let r = recent.length - 1; r >= 0; r--) {
        const e = recent[r].eroded;
        if (!e || e.length !== n) continue;
        for (let i = 0; i < n; i++) {
          if (data[i] === 1 && e[i] !== 0 && from[i] < 0) {
            from[i] = recent[r].index;
            reversed[i] = 1;
            any = true;
          }
        }
      }
      if (any) {
        const comps = components(reversed, width, height, 8);
        const found: Flag[] = [];
        for (const c of comps.list) {
          if (c.area < minPixels) continue;
          // The nearest earlier frame any pixel of the region was transformed on.
          let nearest = -1;
          for (let y = c.box.y; y < c.box.y + c.box.h; y++) {
            for (let x = c.box.x; x < c.box.x + c.box.w; x++) {
              const i = y * width + x;
              if (comps.labels[i] === c.id && from[i] > nearest) nearest = from[i];
            }
          }
          found.push(
            makeFlag({
              kind: 'reversal',
              frameIndex: cur.index,
              box: c.box,
              message: `${c.area} px were transformed on ${frameLabel(nearest)} and are actionable here: a state change cannot be undone.`,
              severity: 'error',
              state: 1,
              pixels: c.area,
              relatedFrameIndex: nearest,
            }),
          );
        }
        // The largest regions first; more than maxPerFrame reversed regions on one frame is rare.
        found.sort((a, b) => (b.pixels ?? 0) - (a.pixels ?? 0));
        out.push(...found.slice(0, Math.max(1, this.t.maxPerFrame)));
      }
    }
    recent.push({ index: cur.index, eroded: data.indexOf(2) >= 0 ? erode(transformedMask(data), width, height, tolerancePx) : null });
    if (recent.length > Math.max(1, lookback)) recent.shift();
    return out;
  }
}

function transformedMask(data: Uint8Array): Uint8Array {
  const out = new Uint8Array(data.length);
  for (let i = 0; i < data.length; i++) out[i] = data[i] === 2 ? 1 : 0;
  return out;
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
