/**
 * Grating: a carrot or a block of cheese rubbed over a flat grater shrinks from its grating end while
 * a pile of shreds grows beside the grater. A second, untouched piece lies at the bottom right.
 */
import { clamp } from '../math';
import { capsule, darkenPaint, rgb, roundedRect, solidPaint, spriteFor, spritePaint, type Paint, type Rgb, type Shape } from '../raster';
import { activity, anchorX, anchorY, px, pickNoun, type Scene, type SceneFactory, type SceneItem } from '../scene';
import { pickSkin, buildHand } from '../props';
import { sampleTile } from '../texture';
import { dsin, TAU } from '../math';

interface NounSpec {
  noun: string;
  actionable: string;
  transformed: string;
  /** Body in design units along +x from the grating end (x = 0). */
  length: number;
  thick: number;
  tip: number;
  block: boolean;
  color: Rgb;
  shred: Rgb;
}

const NOUNS: readonly NounSpec[] = [
  { noun: 'carrot', actionable: 'whole carrot', transformed: 'grated carrot', length: 210, thick: 17, tip: 6, block: false, color: [236, 120, 34], shred: [246, 142, 50] },
  { noun: 'cheese', actionable: 'block of cheese', transformed: 'grated cheese', length: 150, thick: 30, tip: 30, block: true, color: [238, 200, 104], shred: [250, 222, 128] },
];

export const GRATING_NOUNS = NOUNS.map((n) => n.noun);

export const createGratingScene: SceneFactory = (setup) => {
  const { view, rng, tiles, t0, t1 } = setup;
  const s = view.s;
  const spec = pickNoun(setup, NOUNS, 'grating');
  const handSkin = pickSkin(rng.fork('skin'));
  const inv = 1 / s;

  // ---- grater (support, label 0) ----
  const gxD = 300 + rng.range(-10, 10);
  const gyD = 190 + rng.range(-8, 8);
  const graterW = 100;
  const graterH = 180;
  const gAx = anchorX(view, gxD);
  const gAy = anchorY(view, gyD);
  const graterFrame = roundedRect((-graterW / 2) * s, (-graterH / 2) * s, graterW * s, graterH * s, 8 * s);
  const graterFace = roundedRect((-graterW / 2 + 6) * s, (-graterH / 2 + 6) * s, (graterW - 12) * s, (graterH - 12) * s, 5 * s);
  const graterHandle = capsule(0, (-graterH / 2 - 4) * s, 0, (-graterH / 2 - 34) * s, 9 * s);
  const faceSprite = spriteFor([graterFace], (lx, ly) => {
    const xd = lx * inv;
    const yd = ly * inv;
    // Staggered rows of grating holes.
    const row = Math.floor((yd + 200) / 9);
    const off = row % 2 === 0 ? 0 : 5;
    const cx = ((((xd + 200 + off) % 10) + 10) % 10) - 5;
    const cy = ((((yd + 200) % 9) + 9) % 9) - 4.5;
    const hole = (cx * cx) / 9 + (cy * cy) / 4 < 1;
    const n = sampleTile(tiles.fine, lx * inv * 3, ly * inv * 0.5);
    const k = hole ? 0.35 : 0.82 + 0.22 * n;
    return rgb(188 * k, 192 * k, 198 * k);
  });
  const graterItems: SceneItem[] = [
    { shape: graterFrame, ax: gAx + px(view, 4), ay: gAy + px(view, 6), paint: darkenPaint(0.7), layer: 'shadow' },
    { shape: graterFrame, ax: gAx, ay: gAy, paint: solidPaint(rgb(120, 124, 130), 0), layer: 'support' },
    { shape: graterFace, ax: gAx, ay: gAy, paint: spritePaint(faceSprite, 0), layer: 'support' },
    { shape: graterHandle, ax: gAx, ay: gAy, paint: solidPaint(rgb(30, 30, 34), 0), layer: 'support' },
  ];

  // ---- the body being grated: local x from 0 (grating end) to length ----
  function bodyShape(length: number, thick: number, tip: number): Shape {
    if (spec!.block) return roundedRect(0, -thick * s, length * s, 2 * thick * s, 5 * s);
    return capsule(tip * s, 0, (length - thick) * s, 0, tip * s, thick * s);
  }
  const body = bodyShape(spec.length, spec.thick, spec.tip);
  const [cr, cg, cb] = spec.color;
  const radiusAt = (xd: number): number =>
    spec.block ? spec.thick : spec.tip + ((spec.thick - spec.tip) * clamp(xd / (spec.length - spec.thick), 0, 1));
  const bodySprite = (seedShift: number) =>
    spriteFor([body], (lx, ly) => {
      const xd = lx * inv;
      const yd = ly * inv;
      const n = sampleTile(tiles.fine, xd * 2 + seedShift, yd * 2);
      let k: number;
      if (spec.block) {
        k = 0.86 + 0.16 * n - (yd > spec.thick - 6 ? 0.12 : 0);
        const hole = sampleTile(tiles.coarse, xd * 3 + seedShift, yd * 3);
        if (hole > 0.8) k -= 0.1;
      } else {
        const r = radiusAt(xd);
        const q = clamp(yd / r, -1, 1);
        k = 0.62 + 0.45 * Math.sqrt(1 - q * q) - 0.12 * q + 0.12 * (n - 0.5);
        // Root rings across the carrot.
        const ring = sampleTile(tiles.coarse, xd * 0.5 + seedShift, 3) * 5 + xd / 11;
        if (ring - Math.floor(ring) < 0.1) k *= 0.84;
      }
      return rgb(cr * k, cg * k, cb * k);
    });
  const bodyPaint = spritePaint(bodySprite(0), 1);
  const facePaint = solidPaint(rgb(Math.min(255, cr * 1.12), Math.min(255, cg * 1.2), Math.min(255, cb * 1.4)), 1);
  const bodyShadow = darkenPaint(0.7);
  const faceW = px(view, 3);
  const consumable = spec.length * (spec.block ? 0.66 : 0.72);
  const baseY = gyD - 10 + rng.range(-6, 6);
  const rubAmp = rng.range(35, 48);
  const rubHz = rng.range(1.0, 1.6);
  const rubPhase = rng.next() * TAU;

  // ---- hand gripping the back end ----
  const hand = buildHand(view, tiles, { skin: handSkin, angle: 2.25, size: 30, arm: 480, thumbSide: 1, reach: 0.95 });
  const handDx = px(view, spec.block ? -16 : -38);
  const handDy = px(view, -24);

  // ---- shreds pile (label 2), static geometry, revealed in order ----
  const pileAx = anchorX(view, gxD - 135 + rng.range(-6, 6));
  const pileAy = anchorY(view, gyD + 25 + rng.range(-10, 10));
  const shredCount = spec.block ? 300 : 340;
  const shredShapes: Shape[] = [];
  const shredPaints: Paint[] = [];
  const srng = rng.fork('shreds');
  const tones = [0.78, 0.9, 1.0, 1.1].map((k) => solidPaint(rgb(spec.shred[0] * k, spec.shred[1] * k, spec.shred[2] * k), 2));
  for (let i = 0; i < shredCount; i++) {
    const grow = 0.35 + 0.65 * (i / shredCount);
    const a = srng.next() * TAU;
    const rr = 62 * grow * Math.sqrt(srng.next());
    const cx = rr * dsin(a + Math.PI / 2);
    const cy = 0.72 * rr * dsin(a);
    const len = srng.range(6, 13);
    const ang = srng.next() * TAU;
    const hx = (len / 2) * dsin(ang + Math.PI / 2);
    const hy = (len / 2) * dsin(ang);
    const w = srng.range(1.2, 2.1);
    shredShapes.push(capsule((cx - hx) * s, (cy - hy) * s, (cx + hx) * s, (cy + hy) * s, w * s));
    shredPaints.push(tones[srng.int(tones.length)]);
  }

  // ---- the spare piece (always actionable) ----
  const spareBody = spec.block ? roundedRect(0, -spec.thick * 0.8 * s, 120 * s, spec.thick * 1.6 * s, 5 * s) : body;
  const spareSprite = spriteFor([spareBody], (lx, ly) => {
    const n = sampleTile(tiles.fine, lx * inv * 2 + 77, ly * inv * 2);
    const yd = ly * inv;
    const r = spec.block ? spec.thick : radiusAt(lx * inv);
    const q = clamp(yd / r, -1, 1);
    const k = spec.block ? 0.86 + 0.16 * n : 0.62 + 0.45 * Math.sqrt(1 - q * q) - 0.12 * q + 0.12 * (n - 0.5);
    return rgb(cr * k, cg * k, cb * k);
  });
  const spareAx = anchorX(view, spec.block ? 455 : 395 + rng.range(-8, 8));
  const spareAy = anchorY(view, 312 + rng.range(-4, 4));
  const spareItems: SceneItem[] = [
    { shape: spareBody, ax: spareAx + px(view, 4), ay: spareAy + px(view, 5), paint: bodyShadow, layer: 'shadow' },
    { shape: spareBody, ax: spareAx, ay: spareAy, paint: spritePaint(spareSprite, 1), layer: 'object', instance: 'spare' },
  ];

  const scene: Scene = {
    noun: spec.noun,
    actionable: spec.actionable,
    transformed: spec.transformed,
    itemsAt(t, p) {
      const items: SceneItem[] = graterItems.slice();
      const visible = Math.min(shredCount, Math.floor(p * shredCount));
      for (let i = 0; i < visible; i++) {
        items.push({ shape: shredShapes[i], ax: pileAx, ay: pileAy, paint: shredPaints[i], layer: 'object', instance: 'pieces' });
      }
      // Body: clip away the grated part; keep its cut end on the grater; rub up and down.
      const K = Math.round(p * consumable * s);
      const act = activity(t, t0, t1);
      const rub = Math.round(act * rubAmp * dsin(TAU * rubHz * (t - t0) + rubPhase) * s);
      const bAx = gAx - K;
      const bAy = anchorY(view, baseY) + rub;
      items.push({ shape: body, ax: bAx + px(view, 4), ay: bAy + px(view, 6), paint: bodyShadow, layer: 'shadow', clipK0: K });
      items.push({ shape: body, ax: bAx, ay: bAy, paint: bodyPaint, layer: 'object', instance: 'primary', clipK0: K });
      if (K > 0) items.push({ shape: body, ax: bAx, ay: bAy, paint: facePaint, layer: 'object', instance: 'primary', clipK0: K, clipK1: K + faceW });
      items.push(...spareItems);
      const backX = bAx + Math.round(spec.length * s);
      items.push(...hand.items(backX + handDx, bAy + handDy));
      return items;
    },
  };
  return scene;
};
