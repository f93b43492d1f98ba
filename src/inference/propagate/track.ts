/**
 * Weight-free propagation that follows objects through motion (docs/inference.md, "Propagation
 * without weights"): each object group of frame t's map is tracked to t+1 by masked template
 * matching — through every native frame between the two sampled ones when the clip's video is at
 * hand (small steps, each predicted from the last), else in one jump with a search window as large
 * as the object — then carried there by its shift and re-fitted to t+1 by GrabCut initialised from
 * the carried mask. The pixel work runs behind `TrackBackend` (the classical worker); this loop is
 * pure, streams the native frames one at a time, and collects the evidence the confidence is
 * calibrated on (confidence.ts).
 */
import type { Box, LabelMap, RgbaImage } from '../../masks/labelMap';
import { objectGroups } from '../classical/groups';
import type { ShiftEstimate, ShiftQuery } from '../classical/motion';
import type { Refit, RefitOptions } from '../classical/refit';

export interface TrackBackend {
  estimateShifts(a: RgbaImage, b: RgbaImage, queries: ShiftQuery[]): Promise<ShiftEstimate[]>;
  refitLabels(image: RgbaImage, carried: LabelMap, options?: RefitOptions): Promise<Refit>;
}

export interface TrackInput {
  prev: RgbaImage;
  next: RgbaImage;
  /** The native frames strictly between prev and next, in order, at their size (optional). */
  between?: AsyncIterable<RgbaImage>;
  labels: LabelMap;
  /** Re-fit the carried mask to `next` with GrabCut (default true). */
  refit?: boolean;
  signal?: AbortSignal;
}

/** What one tracked group went through; the confidence's inputs. */
export interface GroupEvidence {
  box: Box;
  area: number;
  /** Sum of the step shifts. */
  dx: number;
  dy: number;
  steps: number;
  /** Worst matching residual (grey levels) and ambiguity over the steps. */
  rms: number;
  ambiguity: number;
  /** IoU of the re-fitted mask with the carried one (1 without re-fit). */
  agreement: number;
  /** Area after / before. */
  areaRatio: number;
  /** Share of the carried mask that fell outside the frame. */
  lost: number;
}

export interface TrackResult {
  map: LabelMap;
  groups: GroupEvidence[];
}

/** Search radius for one jump between sampled frames: objects moved by hand cross their own size in a second. */
export function jumpRadius(box: Box): number {
  return Math.max(16, Math.ceil(1.25 * Math.max(box.w, box.h)));
}

/** Search radius around the predicted position for one native-rate step. */
export function stepRadius(box: Box): number {
  return Math.max(6, Math.ceil(0.15 * Math.max(box.w, box.h)));
}

function aborted(signal?: AbortSignal): void {
  if (signal?.aborted) throw new DOMException('propagation cancelled', 'AbortError');
}

export async function trackLabels(backend: TrackBackend, input: TrackInput): Promise<TrackResult> {
  const { labels, prev, next } = input;
  const { width, height } = labels;
  const { ids, groups } = objectGroups(labels);
  const crops = groups.map((g) => {
    const mask = new Uint8Array(g.box.w * g.box.h);
    const states = new Uint8Array(g.box.w * g.box.h);
    for (let y = 0; y < g.box.h; y++) {
      for (let x = 0; x < g.box.w; x++) {
        const i = (g.box.y + y) * width + g.box.x + x;
        if (ids[i] !== g.id) continue;
        mask[y * g.box.w + x] = 1;
        states[y * g.box.w + x] = labels.data[i];
      }
    }
    return { mask, states };
  });
  const state = groups.map(() => ({ dx: 0, dy: 0, vx: 0, vy: 0, steps: 0, rms: 0, ambiguity: 0 }));
  const step = async (a: RgbaImage, b: RgbaImage, native: boolean) => {
    aborted(input.signal);
    const queries: ShiftQuery[] = groups.map((g, k) => ({
      box: { x: g.box.x + state[k].dx, y: g.box.y + state[k].dy, w: g.box.w, h: g.box.h },
      mask: crops[k].mask,
      predicted: native ? { dx: state[k].vx, dy: state[k].vy } : undefined,
      radius: native ? stepRadius(g.box) : jumpRadius(g.box),
    }));
    const found = await backend.estimateShifts(a, b, queries);
    found.forEach((f, k) => {
      const s = state[k];
      s.dx += f.dx;
      s.dy += f.dy;
      s.vx = f.dx;
      s.vy = f.dy;
      s.steps++;
      s.rms = Math.max(s.rms, f.rms);
      s.ambiguity = Math.max(s.ambiguity, f.ambiguity);
    });
  };
  if (groups.length > 0) {
    let a = prev;
    if (input.between) {
      for await (const frame of input.between) {
        if (frame.width !== width || frame.height !== height) throw new RangeError(`a native frame is ${frame.width}x${frame.height}, the clip ${width}x${height}`);
        await step(a, frame, true);
        a = frame;
      }
    }
    await step(a, next, a !== prev);
  }
  aborted(input.signal);
  // Carry each group by its shift.
  const carried = new Uint8Array(width * height);
  const inside = groups.map(() => 0);
  groups.forEach((g, k) => {
    const { dx, dy } = state[k];
    for (let y = 0; y < g.box.h; y++) {
      const ty = g.box.y + y + dy;
      if (ty < 0 || ty >= height) continue;
      for (let x = 0; x < g.box.w; x++) {
        const tx = g.box.x + x + dx;
        const v = crops[k].states[y * g.box.w + x];
        if (!v || tx < 0 || tx >= width) continue;
        carried[ty * width + tx] = v;
        inside[k]++;
      }
    }
  });
  let map: LabelMap = { width, height, data: carried };
  let fits: Refit['groups'] = [];
  if (input.refit ?? true) {
    const r = await backend.refitLabels(next, map);
    map = r.map;
    fits = r.groups;
  }
  aborted(input.signal);
  return {
    map,
    groups: groups.map((g, k) => {
      const s = state[k];
      // The fit of this group: the one whose box overlaps the carried box most.
      const moved = { x: g.box.x + s.dx, y: g.box.y + s.dy, w: g.box.w, h: g.box.h };
      const fit = fits.find((f) => overlaps(f.box, moved));
      return {
        box: g.box,
        area: g.area,
        dx: s.dx,
        dy: s.dy,
        steps: s.steps,
        rms: s.rms,
        ambiguity: s.ambiguity,
        agreement: fit?.agreement ?? 1,
        areaRatio: (fit?.fitted ?? inside[k]) / g.area,
        lost: 1 - inside[k] / g.area,
      };
    }),
  };
}

function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}
