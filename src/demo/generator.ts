/**
 * Seedable procedural state-change clips. A clip is a pure function of time: nothing is rendered
 * until asked for, and any frame rate can be sampled. Pure TypeScript, no DOM: runs in Node, workers
 * and the page.
 */
import { assertSize, createLabelMap, type Box, type LabelMap, type RgbaImage } from '../masks/labelMap';
import { barcodeRect, BARCODE_MAX, drawBarcode } from './barcode';
import { buildBackground, type Background } from './background';
import { clamp, dsin, smoothstep, TAU } from './math';
import { createRng, hash2, hashString, normalizeSeed } from './random';
import { applyBrightness, drawColor, drawLabels, drawMask, forEachSpan, type ColorTarget } from './raster';
import { viewportFor, type InstanceRole, type Layer, type Scene, type SceneFactory, type SceneItem } from './scene';
import { makeNoiseTile } from './texture';
import { createGratingScene, GRATING_NOUNS } from './scenes/grating';
import { createPeelingScene, PEELING_NOUNS } from './scenes/peeling';
import { createSlicingScene, SLICING_NOUNS } from './scenes/slicing';

export const DEMO_KINDS = ['grating', 'peeling', 'slicing'] as const;
export type DemoKind = (typeof DEMO_KINDS)[number];
export type DemoPhase = 'initial' | 'transitioning' | 'end';

/** Nouns each kind can show (the seed picks one unless `noun` is given). */
export const DEMO_NOUNS: Readonly<Record<DemoKind, readonly string[]>> = {
  grating: GRATING_NOUNS,
  peeling: PEELING_NOUNS,
  slicing: SLICING_NOUNS,
};

const FACTORIES: Record<DemoKind, SceneFactory> = {
  grating: createGratingScene,
  peeling: createPeelingScene,
  slicing: createSlicingScene,
};

export interface DemoClipOptions {
  seed: number;
  kind: DemoKind;
  width?: number;
  height?: number;
  durationSec?: number;
  /** Pick the object instead of letting the seed choose; must be in DEMO_NOUNS[kind]. */
  noun?: string;
}

export interface DemoMeta {
  readonly kind: DemoKind;
  readonly verb: string;
  readonly noun: string;
  /** Text prompt for the actionable state, e.g. "whole carrot". */
  readonly actionable: string;
  /** Text prompt for the transformed state, e.g. "grated carrot". */
  readonly transformed: string;
  /** Human-readable clip name, e.g. "grating carrot (demo 42)". */
  readonly name: string;
  readonly seed: number;
}

export interface RenderOptions {
  /** Integer written into the frame barcode (mod 65536). Default round(t * 30). */
  frameIndex?: number;
}

export interface DemoInstance {
  /** primary: the object being changed; spare: the untouched second instance; pieces: the transformed pieces apart from the body. */
  readonly role: InstanceRole;
  /** Pixel box of the instance's (amodal) extent in this frame, clipped to the frame. */
  readonly box: Box;
}

export interface DemoClip {
  readonly meta: DemoMeta;
  readonly width: number;
  readonly height: number;
  readonly durationSec: number;
  /** Transition start and end in seconds: initial is [0, start), transitioning [start, end), end [end, duration]. */
  readonly transition: { readonly start: number; readonly end: number };
  /** The frame at time t (seconds; clamped to [0, durationSec]). Rendered on demand, never cached. */
  renderAt(tSec: number, options?: RenderOptions): RgbaImage;
  /** Exact labels of what renderAt draws: 1 actionable, 2 transformed, 0 elsewhere (hands, tools, peel, barcode). */
  groundTruthAt(tSec: number): LabelMap;
  phaseAt(tSec: number): DemoPhase;
  /** State-change progress in [0, 1]: 0 through the initial phase, rising over the transition, 1 in the end phase. */
  progressAt(tSec: number): number;
  /** Like groundTruthAt but ignoring hands, tools and debris (what the object would show unoccluded). */
  amodalTruthAt(tSec: number): LabelMap;
  /** 1 wherever an item of the layer covers the frame (e.g. 'occluder' for hands and held tools). */
  layerMaskAt(tSec: number, layer: Layer): LabelMap;
  /** Boxes of the object instances in the frame. */
  instancesAt(tSec: number): DemoInstance[];
  /** Integer camera offset (px) applied to the whole scene at t. */
  cameraAt(tSec: number): { dx: number; dy: number };
  /** Global brightness factor applied at t (1 = neutral). */
  brightnessAt(tSec: number): number;
}

/** Frame times k / fps for k = 0, 1, ... while k / fps < durationSec. */
export function sampleTimes(durationSec: number, fps: number): number[] {
  if (!Number.isFinite(durationSec)) throw new RangeError(`durationSec must be finite, got ${durationSec}`);
  if (!Number.isFinite(fps) || fps <= 0) throw new RangeError(`fps must be a positive finite number, got ${fps}`);
  if (durationSec * fps > 10_000_000) throw new RangeError(`too many frames: ${durationSec} s at ${fps} fps`);
  const out: number[] = [];
  for (let k = 0; k / fps < durationSec; k++) out.push(k / fps);
  return out;
}

export function createDemoClip(options: DemoClipOptions): DemoClip {
  const { kind, width = 640, height = 360, durationSec = 20 } = options;
  if (!DEMO_KINDS.includes(kind)) throw new RangeError(`unknown demo kind "${String(kind)}"; use one of ${DEMO_KINDS.join(', ')}`);
  assertSize(width, height);
  if (!Number.isFinite(durationSec) || durationSec <= 0) throw new RangeError(`durationSec must be positive, got ${durationSec}`);
  const seed = normalizeSeed(options.seed);
  const root = createRng(hash2(seed, hashString(kind)));
  const view = viewportFor(width, height);

  // Timing: a still start, a transition, a still end.
  const trng = root.fork('timing');
  const t0 = durationSec * trng.range(0.14, 0.24);
  const t1 = durationSec * trng.range(0.7, 0.82);
  const tiles = {
    coarse: makeNoiseTile((root.fork('tile-coarse').next() * 4294967296) >>> 0, 4, 4),
    fine: makeNoiseTile((root.fork('tile-fine').next() * 4294967296) >>> 0, 16, 3),
  };
  const scene: Scene = FACTORIES[kind]({ view, rng: root.fork('scene'), durationSec, t0, t1, tiles, noun: options.noun });

  // Camera jitter: two slow sines plus a hashed 12 Hz shake, rounded to whole pixels.
  const crng = root.fork('camera');
  const amp = 2.5 * view.s;
  const shake = 0.8 * view.s;
  const margin = Math.ceil(amp + shake) + 1;
  const cam = {
    fx: [crng.range(0.15, 0.4), crng.range(0.9, 1.7)],
    fy: [crng.range(0.15, 0.4), crng.range(0.9, 1.7)],
    px: [crng.next() * TAU, crng.next() * TAU],
    py: [crng.next() * TAU, crng.next() * TAU],
    seed: (crng.next() * 4294967296) >>> 0,
  };
  const cameraAt = (tSec: number): { dx: number; dy: number } => {
    const t = clampTime(tSec);
    const step = Math.floor(t * 12);
    const hx = (hash2(step, cam.seed) / 4294967296) * 2 - 1;
    const hy = (hash2(step, cam.seed ^ 0x9e3779b9) / 4294967296) * 2 - 1;
    const x = amp * (0.65 * dsin(TAU * cam.fx[0] * t + cam.px[0]) + 0.35 * dsin(TAU * cam.fx[1] * t + cam.px[1])) + shake * hx;
    const y = amp * (0.65 * dsin(TAU * cam.fy[0] * t + cam.py[0]) + 0.35 * dsin(TAU * cam.fy[1] * t + cam.py[1])) + shake * hy;
    return { dx: Math.round(clamp(x, -margin + 1, margin - 1)), dy: Math.round(clamp(y, -margin + 1, margin - 1)) };
  };

  // Lighting: a slow ramp, a faint flicker and one passing shadow.
  const lrng = root.fork('light');
  const b0 = lrng.range(0.88, 1.06);
  const b1 = lrng.range(0.82, 1.12);
  const flickHz = lrng.range(3, 7);
  const flickAmp = lrng.range(0.01, 0.03);
  const dipAt = lrng.range(0.2, 0.9) * durationSec;
  const dipW = Math.max(0.3, lrng.range(0.04, 0.1) * durationSec);
  const dipDepth = lrng.range(0.06, 0.16);
  const brightnessAt = (tSec: number): number => {
    const t = clampTime(tSec);
    const ramp = b0 + (b1 - b0) * smoothstep(0, durationSec, t);
    const flick = flickAmp * dsin(TAU * flickHz * t);
    const z = (t - dipAt) / dipW;
    const dip = z * z < 1 ? dipDepth * (1 - z * z) * (1 - z * z) : 0;
    return clamp(ramp + flick - dip, 0.55, 1.3);
  };

  function clampTime(tSec: number): number {
    if (Number.isNaN(tSec)) throw new RangeError('time must be a number');
    return clamp(tSec, 0, durationSec);
  }
  const progressAt = (tSec: number): number => {
    const t = clampTime(tSec);
    if (t <= t0) return 0;
    if (t >= t1) return 1;
    const u = (t - t0) / (t1 - t0);
    return 0.5 * u + 0.5 * u * u * (3 - 2 * u);
  };
  const phaseAt = (tSec: number): DemoPhase => {
    const t = clampTime(tSec);
    return t < t0 ? 'initial' : t < t1 ? 'transitioning' : 'end';
  };
  const itemsAt = (tSec: number): SceneItem[] => {
    const t = clampTime(tSec);
    return scene.itemsAt(t, progressAt(t));
  };

  let background: Background | null = null;
  const getBackground = (): Background => (background ??= buildBackground(view, margin, root.fork('background')));
  const code = barcodeRect(width, height);
  const lut = new Uint8Array(256);

  const renderAt = (tSec: number, opts?: RenderOptions): RgbaImage => {
    const t = clampTime(tSec);
    const frameIndex = opts?.frameIndex ?? Math.round(t * 30);
    if (!Number.isSafeInteger(frameIndex) || frameIndex < 0) throw new RangeError(`frameIndex must be a non-negative integer, got ${frameIndex}`);
    const bg = getBackground();
    const { dx, dy } = cameraAt(t);
    const data = new Uint8ClampedArray(width * height * 4);
    const u32 = new Uint32Array(data.buffer);
    const target: ColorTarget = { width, height, u32, u8: data };
    // Backdrop, slid by the camera offset.
    const off = bg.margin - dx;
    for (let y = 0; y < height; y++) {
      const src = (y - dy + bg.margin) * bg.width + off;
      u32.set(bg.px.subarray(src, src + width), y * width);
    }
    for (const item of itemsAt(t)) drawColor(target, item, dx, dy);
    // Global lighting.
    applyBrightness(u32, brightnessAt(t), lut);
    const img: RgbaImage = { width, height, data };
    drawBarcode(img, frameIndex % (BARCODE_MAX + 1));
    return img;
  };

  const labelsFor = (tSec: number, keep: (item: SceneItem) => boolean): LabelMap => {
    const t = clampTime(tSec);
    const { dx, dy } = cameraAt(t);
    const map = createLabelMap(width, height);
    for (const item of itemsAt(t)) if (keep(item)) drawLabels(map.data, width, height, item, dx, dy);
    // The barcode is drawn over everything; nothing of the object shows there.
    for (let y = code.y; y < code.y + code.h; y++) map.data.fill(0, y * width + code.x, y * width + code.x + code.w);
    return map;
  };

  const noun = scene.noun;
  return {
    meta: { kind, verb: kind, noun, actionable: scene.actionable, transformed: scene.transformed, name: `${kind} ${noun} (demo ${options.seed})`, seed: options.seed },
    width,
    height,
    durationSec,
    transition: { start: t0, end: t1 },
    renderAt,
    groundTruthAt: (tSec) => labelsFor(tSec, () => true),
    amodalTruthAt: (tSec) => labelsFor(tSec, (item) => item.layer === 'object'),
    layerMaskAt(tSec, layer) {
      const t = clampTime(tSec);
      const { dx, dy } = cameraAt(t);
      const map = createLabelMap(width, height);
      for (const item of itemsAt(t)) if (item.layer === layer) drawMask(map.data, width, height, item, 1, dx, dy);
      return map;
    },
    instancesAt(tSec) {
      const t = clampTime(tSec);
      const { dx, dy } = cameraAt(t);
      const boxes = new Map<InstanceRole, [number, number, number, number]>();
      for (const item of itemsAt(t)) {
        if (item.layer !== 'object' || !item.instance) continue;
        let b = boxes.get(item.instance);
        forEachSpan(item, width, height, dx, dy, (y, x0, x1) => {
          if (!b) {
            b = [x0, y, x1, y + 1];
            boxes.set(item.instance!, b);
          } else {
            if (x0 < b[0]) b[0] = x0;
            if (y < b[1]) b[1] = y;
            if (x1 > b[2]) b[2] = x1;
            if (y + 1 > b[3]) b[3] = y + 1;
          }
        });
      }
      const order: InstanceRole[] = ['primary', 'pieces', 'spare'];
      return order.filter((r) => boxes.has(r)).map((role) => {
        const [x0, y0, x1, y1] = boxes.get(role)!;
        return { role, box: { x: x0, y: y0, w: x1 - x0, h: y1 - y0 } };
      });
    },
    phaseAt,
    progressAt,
    cameraAt,
    brightnessAt,
  };
}
