/**
 * Peeling: a fruit held by one hand while a peeler (in the other hand) removes its skin; the peeled
 * area grows outward from where peeling started. Detached peel strips fall to the board: they are
 * neither state (taxonomy), so they are drawn but left unlabelled. A second, unpeeled fruit lies at
 * the bottom right.
 */
import { clamp, dcos, dsin, TAU } from '../math';
import { capsule, darkenPaint, ellipse, makeSprite, rgb, colRange, rowRange, solidPaint, type Paint, type Rgb, type Shape, type Sprite } from '../raster';
import { activity, anchorX, anchorY, px, pickNoun, type Scene, type SceneFactory, type SceneItem, type SceneTiles } from '../scene';
import { pickSkin, buildHand, buildPeeler } from '../props';
import { sampleTile } from '../texture';

interface NounSpec {
  noun: string;
  actionable: string;
  transformed: string;
  rx: number;
  ry: number;
  skin: Rgb;
  flesh: Rgb;
  /** 'pores' (citrus), 'spots' (potato), 'streaks' (apple). */
  look: 'pores' | 'spots' | 'streaks';
}

const NOUNS: readonly NounSpec[] = [
  { noun: 'orange', actionable: 'unpeeled orange', transformed: 'peeled orange', rx: 70, ry: 68, skin: [240, 128, 28], flesh: [250, 196, 140], look: 'pores' },
  { noun: 'potato', actionable: 'unpeeled potato', transformed: 'peeled potato', rx: 86, ry: 60, skin: [160, 118, 74], flesh: [240, 224, 160], look: 'spots' },
  { noun: 'apple', actionable: 'unpeeled apple', transformed: 'peeled apple', rx: 72, ry: 68, skin: [196, 34, 44], flesh: [246, 236, 196], look: 'streaks' },
];

export const PEELING_NOUNS = NOUNS.map((n) => n.noun);

interface Fruit {
  shape: Shape;
  skin: Sprite;
  flesh: Sprite;
  /** Peel order per sprite pixel, 0..65535: a pixel is peeled once progress passes it. */
  order: Uint16Array;
}

function buildFruit(spec: NounSpec, s: number, rot: number, tiles: SceneTiles, start: number, noiseShift: number): Fruit {
  const rx = spec.rx * s;
  const ry = spec.ry * s;
  const shape = ellipse(0, 0, rx, ry, rot);
  const [c0, c1] = colRange(shape);
  const [r0, r1] = rowRange(shape);
  const x0 = c0 - 1;
  const y0 = r0 - 1;
  const w = c1 - c0 + 2;
  const h = r1 - r0 + 2;
  const cr = dcos(-rot);
  const sr = dsin(-rot);
  const ux0 = dcos(start);
  const uy0 = dsin(start);
  // Unit-disc coordinates of a local pixel centre.
  const unit = (lx: number, ly: number): [number, number] => {
    const x = lx + 0.5;
    const y = ly + 0.5;
    return [(x * cr - y * sr) / rx, (x * sr + y * cr) / ry];
  };
  const shadeK = (u: number, v: number): number => {
    const q = clamp(u * u + v * v, 0, 1);
    return 0.6 + 0.42 * Math.sqrt(1 - q) - 0.14 * (u + v) * 0.7;
  };
  const segs = 10;
  const skin = makeSprite(x0, y0, w, h, (lx, ly) => {
    const [u, v] = unit(lx, ly);
    let k = shadeK(u, v);
    const f = sampleTile(tiles.fine, u * 90 + noiseShift, v * 90);
    const c = sampleTile(tiles.coarse, u * 40 + noiseShift, v * 40);
    if (spec.look === 'pores') k *= 0.93 + 0.1 * f;
    else if (spec.look === 'spots') k *= (sampleTile(tiles.fine, u * 110 + noiseShift, v * 110) > 0.8 ? 0.7 : 1) * (0.88 + 0.12 * c + 0.1 * f);
    else k *= 0.85 + 0.25 * sampleTile(tiles.fine, u * 20 + noiseShift, v * 140);
    return rgb(spec.skin[0] * k, spec.skin[1] * k, spec.skin[2] * k);
  });
  const flesh = makeSprite(x0, y0, w, h, (lx, ly) => {
    const [u, v] = unit(lx, ly);
    let k = shadeK(u, v) * (0.95 + 0.08 * sampleTile(tiles.fine, u * 60 + noiseShift, v * 60));
    if (spec.look === 'pores') {
      // Segment seams of a peeled orange.
      for (let j = 0; j < segs; j++) {
        const a = (TAU * j) / segs;
        const ca = dcos(a);
        const sa = dsin(a);
        if (Math.abs(u * sa - v * ca) < 0.018 && u * ca + v * sa > 0.12) k *= 0.86;
      }
    }
    return rgb(spec.flesh[0] * k, spec.flesh[1] * k, spec.flesh[2] * k);
  });
  const order = new Uint16Array(w * h);
  for (let r = 0; r < h; r++) {
    for (let k = 0; k < w; k++) {
      const [u, v] = unit(x0 + k, y0 + r);
      const du = u - ux0;
      const dv = v - uy0;
      const d = Math.min(2, Math.sqrt(du * du + dv * dv));
      const n = sampleTile(tiles.coarse, u * 50 + noiseShift, v * 50);
      const f = 0.75 * (d / 2) + 0.25 * clamp(n, 0, 1);
      order[r * w + k] = Math.min(65535, Math.floor(f * 65535));
    }
  }
  return { shape, skin, flesh, order };
}

/** Paint for a fruit at progress threshold thr (0..65536): order < thr is peeled (label 2). */
function fruitPaint(fruit: Fruit, thr: number): Paint {
  const { skin, flesh, order } = fruit;
  const { w, x0, y0 } = skin;
  return {
    color: (t, i, n, lx, ly) => {
      const s = (ly - y0) * w + (lx - x0);
      const out = t.u32;
      for (let j = 0; j < n; j++) out[i + j] = order[s + j] < thr ? flesh.px[s + j] : skin.px[s + j];
    },
    label: (out, i, n, lx, ly) => {
      const s = (ly - y0) * w + (lx - x0);
      for (let j = 0; j < n; j++) out[i + j] = order[s + j] < thr ? 2 : 1;
    },
  };
}

export const createPeelingScene: SceneFactory = (setup) => {
  const { view, rng, tiles, t0, t1 } = setup;
  const s = view.s;
  const spec = pickNoun(setup, NOUNS, 'peeling');
  const handSkin = pickSkin(rng.fork('skin'));

  const rot = spec.noun === 'potato' ? rng.range(-0.3, 0.3) : 0;
  // Peeling starts in the upper-right part of the fruit, where the peeler comes from.
  const start = rng.range(-Math.PI / 2 - 0.2, 0.1);
  const fruit = buildFruit(spec, s, rot, tiles, start, rng.range(0, 200));
  const cxD = 320 + rng.range(-10, 10);
  const cyD = 195 + rng.range(-8, 8);
  const fAx = anchorX(view, cxD);
  const fAy = anchorY(view, cyD);
  const shadow = darkenPaint(0.68);
  const shOff = [px(view, 5), px(view, 7)] as const;

  // Spare fruit, unpeeled, bottom right.
  const spareScale = 0.62;
  const spareSpec = { ...spec, rx: spec.rx * spareScale, ry: spec.ry * spareScale };
  const spare = buildFruit(spareSpec, s, rot, tiles, start, 37);
  const spAx = anchorX(view, 545 + rng.range(-8, 8));
  const spAy = anchorY(view, 298 + rng.range(-4, 4));
  const spareItems: SceneItem[] = [
    { shape: spare.shape, ax: spAx + shOff[0], ay: spAy + shOff[1], paint: shadow, layer: 'shadow' },
    { shape: spare.shape, ax: spAx, ay: spAy, paint: fruitPaint(spare, 0), layer: 'object', instance: 'spare' },
  ];

  // Detached peel strips (debris, label 0) on the right, kept clear of both fruits.
  const stripCount = 16;
  const strips: { shapes: Shape[]; paint: Paint }[] = [];
  const prng = rng.fork('peel');
  const box = { x0: 440, x1: 600, y0: 100, y1: 232 };
  for (let i = 0; i < stripCount; i++) {
    let x = prng.range(box.x0 + 10, box.x1 - 10);
    let y = prng.range(box.y0 + 10, box.y1 - 10);
    let a = prng.next() * TAU;
    const w = prng.range(3, 4.5);
    const pts: number[] = [x, y];
    const steps = 4 + prng.int(4);
    for (let k = 0; k < steps; k++) {
      a += prng.range(-0.8, 0.8);
      x = clamp(x + 8 * dcos(a), box.x0, box.x1);
      y = clamp(y + 8 * dsin(a), box.y0, box.y1);
      pts.push(x, y);
    }
    const shapes: Shape[] = [];
    for (let k = 0; k + 3 < pts.length; k += 2) shapes.push(capsule(pts[k] * s, pts[k + 1] * s, pts[k + 2] * s, pts[k + 3] * s, w * s));
    const tone = prng.range(0.75, 1.05);
    strips.push({ shapes, paint: solidPaint(rgb(spec.skin[0] * tone, spec.skin[1] * tone, spec.skin[2] * tone), 0) });
  }
  const stripAx = anchorX(view, 0);
  const stripAy = anchorY(view, 0);

  // Holding hand from the left; peeler hand from the top right.
  const holdHand = buildHand(view, tiles, { skin: handSkin, angle: -0.12, size: 30, arm: 480, thumbSide: -1, reach: 0.9 });
  const holdAx = fAx - px(view, spec.rx + 18);
  const holdAy = fAy + px(view, 14);
  const peelAngle = -0.75; // handle points up-right
  const peeler = buildPeeler(view, peelAngle + Math.PI);
  const peelHand = buildHand(view, tiles, { skin: handSkin, angle: peelAngle + 2.1, size: 26, arm: 480, thumbSide: -1, reach: 0.6 });
  const restU = 1.45;
  const sweepHz = rng.range(0.8, 1.3);
  const su = dcos(start);
  const sv = dsin(start);

  const scene: Scene = {
    noun: spec.noun,
    actionable: spec.actionable,
    transformed: spec.transformed,
    itemsAt(t, p) {
      const thr = p >= 1 ? 65536 : Math.floor(p * 65536);
      const items: SceneItem[] = [
        { shape: fruit.shape, ax: fAx + shOff[0], ay: fAy + shOff[1], paint: shadow, layer: 'shadow' },
        { shape: fruit.shape, ax: fAx, ay: fAy, paint: fruitPaint(fruit, thr), layer: 'object', instance: 'primary' },
        ...spareItems,
      ];
      const shown = Math.min(stripCount, Math.floor(p * (stripCount + 1)));
      for (let i = 0; i < shown; i++) {
        for (const shape of strips[i].shapes) items.push({ shape, ax: stripAx, ay: stripAy, paint: strips[i].paint, layer: 'debris' });
      }
      items.push(...holdHand.items(holdAx, holdAy));
      // The peeler works along the peeling front: from the start point across the fruit.
      const act = activity(t, t0, t1);
      const along = 1 - 1.7 * p;
      const wob = 0.35 * dsin(TAU * sweepHz * (t - t0));
      let u = along * su - wob * sv;
      let v = along * sv + wob * su;
      // Rest well outside the fruit when idle.
      u = u * act + restU * su * (1 - act);
      v = v * act + restU * sv * (1 - act);
      const tipAx = fAx + Math.round(u * spec.rx * s);
      const tipAy = fAy + Math.round(v * spec.ry * s);
      items.push(...peeler.items(tipAx, tipAy));
      items.push(...peelHand.items(tipAx + Math.round(50 * s * dcos(peelAngle)), tipAy + Math.round(50 * s * dsin(peelAngle))));
      return items;
    },
  };
  return scene;
};
