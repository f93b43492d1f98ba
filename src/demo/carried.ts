/**
 * A cup carried across the board by a hand while coffee rises in it: the propagation scene with
 * real motion (the stock demo objects only sit under camera jitter). The cup's centre follows two
 * seeded sines with a chosen peak speed, so at 1 fps it moves by a large fraction of its own width
 * between sampled frames, like a cup moved by hand. The hand holding it moves with it and covers
 * part of it; a static mug of a similar colour sits elsewhere as a distractor (never labelled).
 *
 * Same contract as the demo clips (src/demo/generator.ts): a pure function of time, any frame rate,
 * exact ground truth (1 the cup, 2 the coffee, 0 hand, distractor and board).
 */
import type { LabelMap, RgbaImage } from '../masks/labelMap';
import { createLabelMap } from '../masks/labelMap';
import { buildBackground, type Background } from './background';
import { clamp, dsin, TAU } from './math';
import { buildHand, pickSkin } from './props';
import { createRng, hash2 } from './random';
import { applyBrightness, capsule, drawColor, drawLabels, rgb, roundedRect, spriteFor, spritePaint, darkenPaint, type Rgb } from './raster';
import { viewportFor, type SceneItem } from './scene';
import { makeNoiseTile, sampleTile } from './texture';

export interface CarriedClipOptions {
  seed: number;
  width?: number;
  height?: number;
  durationSec?: number;
  /** Peak speed of the cup in cup widths per second (default 0.8). */
  speed?: number;
  /** Draw the static look-alike mug (default true). */
  distractor?: boolean;
}

export interface CarriedClip {
  readonly width: number;
  readonly height: number;
  readonly durationSec: number;
  renderAt(tSec: number): RgbaImage;
  groundTruthAt(tSec: number): LabelMap;
  /** The cup's centre in pixels at t (without camera jitter). */
  cupAt(tSec: number): { x: number; y: number };
}

const MUGS: readonly Rgb[] = [
  [226, 222, 212],
  [180, 52, 48],
  [52, 92, 160],
  [214, 170, 60],
];

export function createCarriedClip(options: CarriedClipOptions): CarriedClip {
  const { width = 640, height = 360, durationSec = 8, speed = 0.8, distractor = true } = options;
  const root = createRng(hash2(options.seed >>> 0, 0x6375_7073));
  const view = viewportFor(width, height);
  const s = view.s;
  const tiles = { coarse: makeNoiseTile(root.fork('tc').int(2 ** 31), 4, 4), fine: makeNoiseTile(root.fork('tf').int(2 ** 31), 16, 3) };

  // ---- the cup: body (1), coffee surface (2) rising with time, handle (1) ----
  const rng = root.fork('cup');
  const cupW = rng.range(70, 90);
  const cupH = rng.range(80, 100);
  const colour = rng.pick(MUGS);
  const coffee: Rgb = [rng.range(70, 100), rng.range(42, 58), rng.range(24, 36)];
  const side = rng.next() < 0.5 ? -1 : 1;
  const shade = (base: Rgb, k0: number, rot: number) => {
    const c = Math.cos(rot);
    const sn = Math.sin(rot);
    return (lx: number, ly: number) => {
      // Texture in the cup's own frame, so it turns with the cup.
      const u = (lx * c + ly * sn) / s;
      const v = (-lx * sn + ly * c) / s;
      const n = sampleTile(tiles.fine, u * 2 + 50, v * 2 + 50);
      const k = k0 * (0.86 + 0.22 * n) * (1 - 0.25 * clamp(Math.abs(u) / cupW, 0, 1));
      return rgb(base[0] * k, base[1] * k, base[2] * k);
    };
  };
  /** The cup's shapes and paints at scale k and angle rot (built per frame: both change with time). */
  const cupAt = (k: number, rot: number, level: number) => {
    const w = cupW * k * s;
    const h = cupH * k * s;
    const body = roundedRect(-w / 2, -h / 2, w, h, 10 * k * s, rot);
    const c = Math.cos(rot);
    const sn = Math.sin(rot);
    const at = (u: number, v: number): [number, number] => [u * c - v * sn, u * sn + v * c];
    const handle = capsule(...at(side * (w / 2 - 2), -h * 0.15), ...at(side * (w / 2 + 14 * k * s), h * 0.1), 7 * k * s);
    // The coffee shows as a band at the top of the cup whose height grows as it fills.
    const depth = (8 + level * (cupH - 24)) * k * s;
    const [qx, qy] = at(0, -h / 2 + 8 * k * s + depth / 2);
    const coffeeShape = roundedRect(qx - (w - 12 * k * s) / 2, qy - depth / 2, w - 12 * k * s, depth, 6 * k * s, rot);
    return {
      body,
      handle,
      coffee: coffeeShape,
      bodyPaint: spritePaint(spriteFor([body, handle], shade(colour, 1, rot)), 1),
      coffeePaint: spritePaint(spriteFor([coffeeShape], shade(coffee, 1, rot)), 2),
    };
  };
  const shadow = darkenPaint(0.7);
  const hand = buildHand(view, tiles, { skin: pickSkin(rng.fork('skin')), angle: side > 0 ? Math.PI : 0, size: 22, arm: 400, thumbSide: 1, reach: 0.7 });
  const mug = roundedRect((-cupW / 2) * s, (-cupH / 2) * s, cupW * s, cupH * s, 10 * s);
  const mugPaint = spritePaint(spriteFor([mug], shade(colour, 0.93, 0)), 0);

  // ---- motion: two sines per axis, scaled so the peak speed is `speed` cup widths per second ----
  const m = root.fork('motion');
  const fx = m.range(0.12, 0.2);
  const fy = m.range(0.15, 0.3);
  const px0 = m.next() * TAU;
  const py0 = m.next() * TAU;
  const vmax = speed * cupW; // design units per second
  const ax = Math.min(200, vmax / (TAU * fx));
  const ay = Math.min(70, (0.5 * vmax) / (TAU * fy));
  const cx = 320 + m.range(-20, 20);
  const cy = 196 + m.range(-10, 10);
  const design = (t: number) => ({ x: cx + ax * dsin(TAU * fx * t + px0), y: cy + ay * dsin(TAU * fy * t + py0) });
  const mugAt = { x: m.next() < 0.5 ? 90 : 550, y: 120 };
  // Nearer and farther (scale) and a turn of the wrist (rotation), slower than the motion.
  const fk = m.range(0.08, 0.15);
  const fr = m.range(0.1, 0.2);
  const pk = m.next() * TAU;
  const pr = m.next() * TAU;
  const scaleAt = (t: number) => 1 + 0.15 * dsin(TAU * fk * t + pk);
  const angleAt = (t: number) => 0.15 * dsin(TAU * fr * t + pr);

  // ---- camera jitter and lighting, as the demo clips ----
  const c = root.fork('camera');
  const amp = 2.5 * s;
  const margin = Math.ceil(amp + 1) + 1;
  const cam = [c.range(0.15, 0.4), c.range(0.15, 0.4), c.next() * TAU, c.next() * TAU];
  const cameraAt = (t: number) => ({ dx: Math.round(amp * dsin(TAU * cam[0] * t + cam[2])), dy: Math.round(amp * dsin(TAU * cam[1] * t + cam[3])) });
  const flick = root.fork('light').range(3, 7);
  const brightnessAt = (t: number) => 1 + 0.02 * dsin(TAU * flick * t);

  let background: Background | null = null;
  const clampT = (t: number) => clamp(t, 0, durationSec);
  const itemsAt = (tSec: number): SceneItem[] => {
    const t = clampT(tSec);
    const p = design(t);
    const x = Math.round(view.ox + p.x * s);
    const y = Math.round(view.oy + p.y * s);
    const level = t / durationSec;
    const items: SceneItem[] = [];
    if (distractor) {
      const mx = Math.round(view.ox + mugAt.x * s);
      const my = Math.round(view.oy + mugAt.y * s);
      items.push({ shape: mug, ax: mx + Math.round(4 * s), ay: my + Math.round(6 * s), paint: shadow, layer: 'shadow' });
      items.push({ shape: mug, ax: mx, ay: my, paint: mugPaint, layer: 'debris' });
    }
    const k = scaleAt(t);
    const rot = angleAt(t);
    const cup = cupAt(k, rot, level);
    items.push({ shape: cup.body, ax: x + Math.round(4 * s), ay: y + Math.round(6 * s), paint: shadow, layer: 'shadow' });
    items.push({ shape: cup.handle, ax: x, ay: y, paint: cup.bodyPaint, layer: 'object', instance: 'primary' });
    items.push({ shape: cup.body, ax: x, ay: y, paint: cup.bodyPaint, layer: 'object', instance: 'primary' });
    items.push({ shape: cup.coffee, ax: x, ay: y, paint: cup.coffeePaint, layer: 'object', instance: 'primary' });
    const hx = side * (cupW / 2 + 24) * k * s;
    const hy = cupH * 0.05 * k * s;
    items.push(...hand.items(x + Math.round(hx * Math.cos(rot) - hy * Math.sin(rot)), y + Math.round(hx * Math.sin(rot) + hy * Math.cos(rot))));
    return items;
  };

  return {
    width,
    height,
    durationSec,
    renderAt(tSec) {
      const t = clampT(tSec);
      const bg = (background ??= buildBackground(view, margin, root.fork('background')));
      const { dx, dy } = cameraAt(t);
      const data = new Uint8ClampedArray(width * height * 4);
      const u32 = new Uint32Array(data.buffer);
      for (let row = 0; row < height; row++) {
        const src = (row - dy + bg.margin) * bg.width + bg.margin - dx;
        u32.set(bg.px.subarray(src, src + width), row * width);
      }
      const target = { width, height, u32, u8: data };
      for (const item of itemsAt(t)) drawColor(target, item, dx, dy);
      applyBrightness(u32, brightnessAt(t));
      return { width, height, data };
    },
    groundTruthAt(tSec) {
      const t = clampT(tSec);
      const { dx, dy } = cameraAt(t);
      const map = createLabelMap(width, height);
      for (const item of itemsAt(t)) drawLabels(map.data, width, height, item, dx, dy);
      return map;
    },
    cupAt(tSec) {
      const p = design(clampT(tSec));
      return { x: view.ox + p.x * s, y: view.oy + p.y * s };
    },
  };
}
