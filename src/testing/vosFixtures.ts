/**
 * Generated multi-object VOS sequences for the --task vos tests: moving rectangles and ellipses with
 * ids 1..n (the largest drawn last, so the first frame holds it), void (255) rings, an object that
 * only appears after the first frame, and results derived from the GT: shifted and resized objects,
 * objects missing in some frames or everywhere, ids permuted and an extra object (unsupervised).
 * Seeded: the same options give the same maps.
 */
import type { LabelMap } from '../masks/labelMap';

export interface VosFixtureSequence {
  name: string;
  ids: string[];
  gt: LabelMap[];
  semi: Map<string, LabelMap>;
  unsup: Map<string, LabelMap>;
}

export interface VosFixtureOptions {
  name: string;
  seed: number;
  width: number;
  height: number;
  frames: number;
  objects: number;
  /** Draw a void ring around object 1. */
  voidRing?: boolean;
  /** An object with id objects + 1 enters at frame 2 (not counted: the first frame lacks it). */
  lateObject?: boolean;
  /** GT object never predicted (semi-supervised ids). */
  missingObject?: number;
  /** Unsupervised result has fewer objects than the GT (its largest ids left out), so the reference pads. */
  unsupDropLast?: boolean;
}

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Shape {
  x: number;
  y: number;
  rx: number;
  ry: number;
  vx: number;
  vy: number;
  ellipse: boolean;
}

function draw(map: LabelMap, s: Shape, value: number, dx = 0, dy = 0, grow = 0): void {
  const { width: w, height: h, data } = map;
  const cx = s.x + dx;
  const cy = s.y + dy;
  const rx = Math.max(1, s.rx + grow);
  const ry = Math.max(1, s.ry + grow);
  for (let y = Math.max(0, Math.floor(cy - ry)); y <= Math.min(h - 1, Math.ceil(cy + ry)); y++) {
    for (let x = Math.max(0, Math.floor(cx - rx)); x <= Math.min(w - 1, Math.ceil(cx + rx)); x++) {
      const u = (x - cx) / rx;
      const v = (y - cy) / ry;
      const inside = s.ellipse ? u * u + v * v <= 1 : Math.abs(u) <= 1 && Math.abs(v) <= 1;
      if (inside) data[y * w + x] = value;
    }
  }
}

export function vosFixtureSequence(o: VosFixtureOptions): VosFixtureSequence {
  const rnd = mulberry32(o.seed);
  const { width: w, height: h } = o;
  const count = o.objects + (o.lateObject ? 1 : 0);
  const shapes: Shape[] = Array.from({ length: count }, () => ({
    x: w * (0.2 + 0.6 * rnd()),
    y: h * (0.2 + 0.6 * rnd()),
    rx: Math.max(2, w * (0.06 + 0.1 * rnd())),
    ry: Math.max(2, h * (0.06 + 0.1 * rnd())),
    vx: (rnd() - 0.5) * w * 0.03,
    vy: (rnd() - 0.5) * h * 0.03,
    ellipse: rnd() < 0.5,
  }));
  // Ids permuted for the unsupervised result, plus one extra object id.
  const perm = Array.from({ length: o.objects }, (_, k) => k + 1).sort(() => rnd() - 0.5);
  const extraId = o.objects + 1;
  const seq: VosFixtureSequence = { name: o.name, ids: [], gt: [], semi: new Map(), unsup: new Map() };
  for (let t = 0; t < o.frames; t++) {
    const id = String(t).padStart(5, '0');
    const at = (s: Shape): Shape => {
      // Bounce inside the frame.
      const px = s.x + s.vx * t;
      const py = s.y + s.vy * t;
      const fold = (p: number, lo: number, hi: number): number => {
        const span = hi - lo;
        const m = ((((p - lo) % (2 * span)) + 2 * span) % (2 * span)) + lo;
        return m > hi ? 2 * hi - m : m;
      };
      return { ...s, x: fold(px, 0, w - 1), y: fold(py, 0, h - 1) };
    };
    const gt: LabelMap = { width: w, height: h, data: new Uint8Array(w * h) };
    const semi: LabelMap = { width: w, height: h, data: new Uint8Array(w * h) };
    const unsup: LabelMap = { width: w, height: h, data: new Uint8Array(w * h) };
    for (let k = 1; k <= count; k++) {
      const late = o.lateObject && k === count;
      if (late && t < 2) continue;
      const s = at(shapes[k - 1]);
      if (o.voidRing && k === 1) draw(gt, s, 255, 0, 0, 2);
      draw(gt, s, k);
      if (late) continue;
      const dx = Math.round((rnd() - 0.5) * 4);
      const dy = Math.round((rnd() - 0.5) * 4);
      const grow = Math.round((rnd() - 0.5) * 3);
      const dropped = rnd() < 0.12;
      if (!dropped && k !== o.missingObject) draw(semi, s, k, dx, dy, grow);
      if (!dropped && !(o.unsupDropLast && k === o.objects)) draw(unsup, s, o.unsupDropLast ? k : perm[k - 1], dx, dy, grow);
    }
    // An extra result object the GT does not have.
    if (!o.unsupDropLast && t % 3 !== 1) {
      draw(unsup, { x: w * 0.5, y: h * 0.5, rx: 3, ry: 2, vx: 0, vy: 0, ellipse: false }, extraId, t % 5, 0);
    }
    seq.ids.push(id);
    seq.gt.push(gt);
    seq.semi.set(id, semi);
    seq.unsup.set(id, unsup);
  }
  return seq;
}
