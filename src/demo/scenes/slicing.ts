/**
 * Slicing: a cucumber or a loaf is cut from its right end; each cut produces a separate slice that
 * joins a fanned row of slices on the right. A knife (held by one hand) comes down at each cut while
 * the other hand steadies the object from below. A second, uncut object lies at the bottom.
 */
import { clamp, dcos, dsin, smoothstep } from '../math';
import { capsule, darkenPaint, ellipse, rgb, roundedRect, solidPaint, spriteFor, spritePaint, type Rgb, type Shape } from '../raster';
import { activity, anchorX, anchorY, px, pickNoun, type Scene, type SceneFactory, type SceneItem } from '../scene';
import { pickSkin, buildHand, buildKnife } from '../props';
import { sampleTile } from '../texture';

interface NounSpec {
  noun: string;
  actionable: string;
  transformed: string;
  length: number;
  /** Half height of the body (design units). */
  half: number;
  slices: number;
  loaf: boolean;
  skin: Rgb;
  flesh: Rgb;
}

const NOUNS: readonly NounSpec[] = [
  { noun: 'cucumber', actionable: 'whole cucumber', transformed: 'cucumber slices', length: 300, half: 22, slices: 12, loaf: false, skin: [52, 110, 44], flesh: [206, 226, 152] },
  { noun: 'bread', actionable: 'whole loaf of bread', transformed: 'bread slices', length: 230, half: 40, slices: 8, loaf: true, skin: [176, 112, 52], flesh: [242, 224, 182] },
];

export const SLICING_NOUNS = NOUNS.map((n) => n.noun);

export const createSlicingScene: SceneFactory = (setup) => {
  const { view, rng, tiles, t0, t1 } = setup;
  const s = view.s;
  const inv = 1 / s;
  const spec = pickNoun(setup, NOUNS, 'slicing');
  const handSkin = pickSkin(rng.fork('skin'));
  const { skin, flesh, half } = spec;

  // ---- body: local x from 0 (left end) to length, centred on y = 0 ----
  const bodyShape = (length: number, h: number): Shape =>
    spec.loaf ? roundedRect(0, -h * s, length * s, 2 * h * s, 18 * s) : capsule(h * s, 0, (length - h) * s, 0, h * s);
  const body = bodyShape(spec.length, half);
  const bodySprite = (shape: Shape, h: number, shift: number) =>
    spriteFor([shape], (lx, ly) => {
      const xd = lx * inv;
      const yd = ly * inv;
      const q = clamp(yd / h, -1, 1);
      const n = sampleTile(tiles.fine, xd * 2 + shift, yd * 2);
      let k = 0.6 + 0.45 * Math.sqrt(1 - q * q) - 0.1 * q + 0.1 * (n - 0.5);
      if (spec.loaf) {
        // Diagonal scoring on top of the crust.
        const d = (xd + yd * 0.8) % 46;
        if (d > 20 && d < 26 && Math.abs(yd) < h * 0.6) k *= 1.2;
      } else {
        // Lighter stripes along the cucumber and small bumps.
        const st = sampleTile(tiles.coarse, xd * 0.4 + shift, yd * 6);
        if (st > 0.62) k *= 1.18;
        if (sampleTile(tiles.fine, xd * 5 + shift, yd * 5) > 0.86) k *= 0.8;
      }
      return rgb(skin[0] * k, skin[1] * k, skin[2] * k);
    });
  const bxD = 110 + rng.range(-8, 8);
  const byD = 180 + rng.range(-8, 8);
  const bAx = anchorX(view, bxD);
  const bAy = anchorY(view, byD);
  const bodyPaint = spritePaint(bodySprite(body, half, 0), 1);
  const cutFace = solidPaint(rgb(flesh[0] * 0.95, flesh[1] * 0.95, flesh[2] * 0.95), 1);
  const shadow = darkenPaint(0.68);
  const shOff = [px(view, 4), px(view, 6)] as const;
  const N = spec.slices;
  const thick = (spec.length * 0.7) / N;
  const faceW = px(view, 3);

  // ---- slices: faces fanned in a row to the right (label 2) ----
  const faceRx = spec.loaf ? 20 : 13;
  const faceRy = half + (spec.loaf ? 1 : 0);
  const spacing = spec.loaf ? 15 : 12;
  const sliceShape = spec.loaf
    ? roundedRect(-faceRx * s, -faceRy * s, 2 * faceRx * s, 2 * faceRy * s, 12 * s)
    : ellipse(0, 0, faceRx * s, faceRy * s);
  const sliceSprite = spriteFor([sliceShape], (lx, ly) => {
    const u = (lx + 0.5) * inv / faceRx;
    const v = (ly + 0.5) * inv / faceRy;
    const n = sampleTile(tiles.fine, lx * inv * 3, ly * inv * 3);
    let c: Rgb = flesh;
    let k = 0.92 + 0.12 * n;
    if (spec.loaf) {
      const edge = Math.max(Math.abs(u) - 1 + 4 / faceRx, Math.abs(v) - 1 + 4 / faceRy);
      if (edge > 0) c = skin;
      else if (sampleTile(tiles.coarse, lx * inv * 6, ly * inv * 6) > 0.75) k *= 0.85; // crumb holes
    } else {
      const rr = u * u + v * v;
      if (rr > 0.8) c = skin;
      else if (rr > 0.16 && rr < 0.3 && sampleTile(tiles.fine, lx * inv * 4, ly * inv * 4) > 0.55) k *= 1.08; // seeds
      else if (rr < 0.3) k *= 0.94;
    }
    return rgb(c[0] * k, c[1] * k, c[2] * k);
  });
  const slicePaint = spritePaint(sliceSprite, 2);
  const sliceX0D = bxD + spec.length + 22 + faceRx;
  const slicePos: [number, number][] = [];
  const slrng = rng.fork('slices');
  for (let j = 0; j < N; j++) {
    slicePos.push([anchorX(view, sliceX0D + j * spacing + slrng.range(-1.5, 1.5)), anchorY(view, byD + slrng.range(-4, 4))]);
  }

  // ---- spare (uncut), bottom ----
  const spareLen = spec.loaf ? 120 : 220;
  const spareHalf = spec.loaf ? 26 : half * 0.9;
  const spareBody = bodyShape(spareLen, spareHalf);
  const spareAx = anchorX(view, (spec.loaf ? 440 : 350) + rng.range(-8, 8));
  const spareAy = anchorY(view, 308 + rng.range(-3, 3));
  const spareItems: SceneItem[] = [
    { shape: spareBody, ax: spareAx + shOff[0], ay: spareAy + shOff[1], paint: shadow, layer: 'shadow' },
    { shape: spareBody, ax: spareAx, ay: spareAy, paint: spritePaint(bodySprite(spareBody, spareHalf, 51), 1), layer: 'object', instance: 'spare' },
  ];

  // ---- hands and knife ----
  const knifeAngle = 1.95; // blade points down-left
  const bladeLen = 110;
  const knife = buildKnife(view, tiles, knifeAngle, bladeLen, 20);
  const knifeHand = buildHand(view, tiles, { skin: handSkin, angle: knifeAngle + 0.9, size: 26, arm: 480, thumbSide: -1, reach: 0.55 });
  // Handle origin relative to the blade tip (design units).
  const tipFromHandle = 24 + bladeLen;
  const hx = -tipFromHandle * dcos(knifeAngle);
  const hy = -tipFromHandle * dsin(knifeAngle);
  const steady = buildHand(view, tiles, { skin: handSkin, angle: -Math.PI / 2 + 0.15, size: 28, arm: 480, thumbSide: 1, reach: 0.85 });
  const steadyAx = bAx + px(view, spec.loaf ? 70 : 80);
  const steadyAy = bAy + px(view, half + 36);
  const restTipX = bxD + spec.length + 6;
  const restTipY = byD - half - 28;
  const jitterX = rng.range(-2, 2);

  const scene: Scene = {
    noun: spec.noun,
    actionable: spec.actionable,
    transformed: spec.transformed,
    itemsAt(t, p) {
      const cuts = Math.min(N, Math.floor(p * N));
      const K1 = Math.round((spec.length - cuts * thick) * s);
      const items: SceneItem[] = [];
      for (let j = 0; j < cuts; j++) items.push({ shape: sliceShape, ax: slicePos[j][0] + shOff[0], ay: slicePos[j][1] + shOff[1], paint: shadow, layer: 'shadow' });
      for (let j = 0; j < cuts; j++) items.push({ shape: sliceShape, ax: slicePos[j][0], ay: slicePos[j][1], paint: slicePaint, layer: 'object', instance: 'pieces' });
      items.push({ shape: body, ax: bAx + shOff[0], ay: bAy + shOff[1], paint: shadow, layer: 'shadow', clipK1: K1 });
      items.push({ shape: body, ax: bAx, ay: bAy, paint: bodyPaint, layer: 'object', instance: 'primary', clipK1: K1 });
      if (cuts > 0) items.push({ shape: body, ax: bAx, ay: bAy, paint: cutFace, layer: 'object', instance: 'primary', clipK0: K1 - faceW, clipK1: K1 });
      items.push(...spareItems);
      items.push(...steady.items(steadyAx, steadyAy));
      // Knife: the next cut position; the blade comes down through the body once per slice.
      const act = activity(t, t0, t1);
      const phase = p * N - cuts;
      const nextX = bxD + spec.length - Math.min(N, cuts + 1) * thick + jitterX;
      const down = smoothstep(0.15, 0.85, phase) * (1 - smoothstep(0.9, 1, phase));
      const cutTipY = byD - half - 16 + (2 * half + 22) * down;
      const tipX = restTipX + (nextX - restTipX) * act;
      const tipY = restTipY + (cutTipY - restTipY) * act;
      const tAx = anchorX(view, tipX + hx);
      const tAy = anchorY(view, tipY + hy);
      items.push(...knife.items(tAx, tAy));
      items.push(...knifeHand.items(tAx + px(view, -4), tAy + px(view, 2)));
      return items;
    },
  };
  return scene;
};
