/**
 * Hands and hand-held tools: occluders that are drawn on top of the objects and never labelled.
 * Each prop is precomputed once (shapes in a local pixel frame plus a sprite) and only translated
 * per frame by an integer anchor.
 */
import type { Rng } from './random';
import type { SceneItem, SceneTiles, Viewport } from './scene';
import { capsule, darkenPaint, ellipse, hull, rgb, solidPaint, spriteFor, spritePaint, type Paint, type Rgb, type Shape } from './raster';
import { dcos, dsin } from './math';
import { sampleTile } from './texture';

const SKINS: readonly Rgb[] = [
  [233, 190, 160],
  [214, 160, 122],
  [176, 120, 86],
  [122, 80, 56],
];

export interface Prop {
  /** Shadow overlays followed by the prop itself, anchored at (ax, ay). */
  items(ax: number, ay: number): SceneItem[];
}

interface Part {
  shape: Shape;
  paint: Paint;
}

function makeProp(parts: Part[], shadowOffset: [number, number] | null, layer: 'occluder' | 'support'): Prop {
  const shadow = darkenPaint(0.72);
  const [sx, sy] = shadowOffset ?? [0, 0];
  return {
    items(ax, ay) {
      const out: SceneItem[] = [];
      if (shadowOffset) for (const p of parts) out.push({ shape: p.shape, ax: ax + sx, ay: ay + sy, paint: shadow, layer: 'shadow' });
      for (const p of parts) out.push({ shape: p.shape, ax, ay, paint: p.paint, layer });
      return out;
    },
  };
}

function shadowOffsetFor(view: Viewport, dx: number, dy: number): [number, number] {
  return [Math.max(1, Math.round(dx * view.s)), Math.max(1, Math.round(dy * view.s))];
}

export interface HandOptions {
  /** Direction the fingers point, radians (0 = +x, pi/2 = +y). */
  angle: number;
  /** Palm radius in design units. */
  size: number;
  /** Forearm length in design units, from the palm centre backwards. */
  arm: number;
  /** Which side the thumb is on: +1 or -1. */
  thumbSide: 1 | -1;
  /** Finger length factor (curled fingers are shorter). */
  reach?: number;
  /** Skin colour; both hands of a clip share one (see pickSkin). */
  skin: Rgb;
}

/** One skin tone per clip. */
export function pickSkin(rng: Rng): Rgb {
  return rng.pick(SKINS);
}

/** A hand with forearm. Local origin is the palm centre. */
export function buildHand(view: Viewport, tiles: SceneTiles, o: HandOptions): Prop {
  const s = view.s;
  const R = o.size * s;
  const skin = o.skin;
  const reach = o.reach ?? 1;
  const dir = (a: number, r: number): [number, number] => [r * dcos(a), r * dsin(a)];
  const shapes: Shape[] = [];
  const outlines: Shape[] = [];
  // Forearm (tapered), drawn first.
  const [bx, by] = dir(o.angle + Math.PI, o.arm * s);
  shapes.push(capsule(0, 0, bx, by, 0.7 * R, 0.8 * R));
  // Palm.
  shapes.push(ellipse(0, 0, 1.05 * R, 0.9 * R, o.angle));
  // Fingers.
  const lens = [1.15, 1.35, 1.3, 1.05];
  for (let f = 0; f < 4; f++) {
    const a = o.angle + (f - 1.5) * 0.2;
    const [px, py] = dir(a, 0.75 * R);
    const [qx, qy] = dir(a, (0.75 + lens[f] * reach) * R);
    const w = 0.2 * R;
    outlines.push(capsule(px, py, qx, qy, w + Math.max(1, 0.6 * s)));
    shapes.push(capsule(px, py, qx, qy, w));
  }
  // Thumb.
  const ta = o.angle - o.thumbSide * 1.25;
  const [tx0, ty0] = dir(ta, 0.55 * R);
  const [tx1, ty1] = dir(o.angle - o.thumbSide * 0.7, 1.55 * R * reach);
  outlines.push(capsule(tx0, ty0, tx1, ty1, 0.27 * R + Math.max(1, 0.6 * s)));
  shapes.push(capsule(tx0, ty0, tx1, ty1, 0.25 * R));

  const inv = 1 / s;
  const sprite = spriteFor(shapes.concat(outlines), (lx, ly) => {
    const n = sampleTile(tiles.fine, lx * inv * 2, ly * inv * 2);
    const k = 0.9 + 0.2 * n;
    return rgb(skin[0] * k, skin[1] * k, skin[2] * k);
  });
  const skinPaint = spritePaint(sprite, 0);
  const crease = solidPaint(rgb(skin[0] * 0.72, skin[1] * 0.68, skin[2] * 0.66), 0);
  const parts: Part[] = [
    { shape: shapes[0], paint: skinPaint },
    { shape: shapes[1], paint: skinPaint },
  ];
  for (let f = 0; f < outlines.length; f++) {
    parts.push({ shape: outlines[f], paint: crease });
    parts.push({ shape: shapes[f + 2], paint: skinPaint });
  }
  return makeProp(parts, shadowOffsetFor(view, 5, 7), 'occluder');
}

/** A kitchen knife: handle at the local origin, blade pointing along `angle`. */
export function buildKnife(view: Viewport, tiles: SceneTiles, angle: number, bladeLen: number, bladeWidth: number): Prop {
  const s = view.s;
  const c = dcos(angle);
  const sn = dsin(angle);
  const at = (u: number, v: number): [number, number] => [(u * c - v * sn) * s, (u * sn + v * c) * s];
  const handle = capsule(...at(-30, 0), ...at(18, 0), 6 * s);
  const bolster = capsule(...at(18, 0), ...at(24, 0), 5 * s);
  const pts: number[] = [];
  for (const [u, v] of [
    [24, -bladeWidth / 2],
    [24 + bladeLen * 0.75, -bladeWidth / 2],
    [24 + bladeLen, bladeWidth * 0.1],
    [24 + bladeLen * 0.8, bladeWidth / 2],
    [24, bladeWidth / 2],
  ] as const) {
    pts.push(...at(u, v));
  }
  const inv = 1 / s;
  const bladeShape = hull(pts);
  const steel = spriteFor([bladeShape], (lx, ly) => {
    const n = sampleTile(tiles.fine, lx * inv * 0.7, ly * inv * 4);
    const k = 0.8 + 0.25 * n;
    return rgb(196 * k, 202 * k, 210 * k);
  });
  const parts: Part[] = [
    { shape: bladeShape, paint: spritePaint(steel, 0) },
    { shape: bolster, paint: solidPaint(rgb(150, 150, 156), 0) },
    { shape: handle, paint: solidPaint(rgb(40, 32, 30), 0) },
  ];
  return makeProp(parts, shadowOffsetFor(view, 6, 8), 'occluder');
}

/** A Y-peeler: handle at the local origin pointing along `angle` + pi. */
export function buildPeeler(view: Viewport, angle: number): Prop {
  const s = view.s;
  const c = dcos(angle);
  const sn = dsin(angle);
  const at = (u: number, v: number): [number, number] => [(u * c - v * sn) * s, (u * sn + v * c) * s];
  const handle = capsule(...at(-55, 0), ...at(0, 0), 6 * s);
  const armA = capsule(...at(0, 0), ...at(14, -11), 2 * s);
  const armB = capsule(...at(0, 0), ...at(14, 11), 2 * s);
  const blade = capsule(...at(16, -12), ...at(16, 12), 2.6 * s);
  const parts: Part[] = [
    { shape: handle, paint: solidPaint(rgb(200, 40, 48), 0) },
    { shape: armA, paint: solidPaint(rgb(170, 172, 178), 0) },
    { shape: armB, paint: solidPaint(rgb(170, 172, 178), 0) },
    { shape: blade, paint: solidPaint(rgb(215, 218, 224), 0) },
  ];
  return makeProp(parts, shadowOffsetFor(view, 4, 6), 'occluder');
}
