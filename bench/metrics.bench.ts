/**
 * Metric throughput on realistic 854x480 frames, one core.
 * Run: npx tsx bench/metrics.bench.ts
 *
 * Masks are blobs (a wobbly disc, split into an actionable and a transformed part, plus a few
 * small transformed pieces); predictions are perturbed copies (shifted, different wobble, one piece
 * relabelled), so boundaries are a few hundred pixels and the metrics do real matching work.
 */
import { performance } from 'node:perf_hooks';
import type { LabelMap } from '../src/masks/labelMap';
import { mulberry32 as rng } from '../src/demo/random';
import { type BinaryMask, boundaryF, countFrame, jAndF, maskOfLabels } from '../src/metrics';

const W = 854;
const H = 480;


interface BlobShape {
  cx: number;
  cy: number;
  r: number;
  harmonics: { k: number; a: number; phase: number }[];
}

function randomShape(rand: () => number, r: number): BlobShape {
  const harmonics = [2, 3, 5, 7].map((k) => ({ k, a: (0.12 * rand()) / Math.sqrt(k), phase: rand() * Math.PI * 2 }));
  return { cx: W * (0.3 + 0.4 * rand()), cy: H * (0.3 + 0.4 * rand()), r, harmonics };
}

function perturb(s: BlobShape, rand: () => number): BlobShape {
  return {
    cx: s.cx + (rand() - 0.5) * 12,
    cy: s.cy + (rand() - 0.5) * 12,
    r: s.r * (0.95 + 0.1 * rand()),
    harmonics: s.harmonics.map((h) => ({ ...h, a: h.a * (0.7 + 0.6 * rand()), phase: h.phase + (rand() - 0.5) * 0.3 })),
  };
}

function inside(s: BlobShape, x: number, y: number): boolean {
  const dx = x - s.cx;
  const dy = y - s.cy;
  const theta = Math.atan2(dy, dx);
  let rr = s.r;
  for (const h of s.harmonics) rr += s.r * h.a * Math.sin(h.k * theta + h.phase);
  return dx * dx + dy * dy <= rr * rr;
}

/** Label map: blob left of a cut line actionable, right of it transformed, plus small pieces. */
function labelFrame(s: BlobShape, cut: number, pieces: { x: number; y: number; r: number }[], pieceLabel: number): LabelMap {
  const data = new Uint8Array(W * H);
  const y0 = Math.max(0, Math.floor(s.cy - s.r * 1.6));
  const y1 = Math.min(H - 1, Math.ceil(s.cy + s.r * 1.6));
  const x0 = Math.max(0, Math.floor(s.cx - s.r * 1.6));
  const x1 = Math.min(W - 1, Math.ceil(s.cx + s.r * 1.6));
  for (let y = y0; y <= y1; y++) {
    for (let x = x0; x <= x1; x++) if (inside(s, x, y)) data[y * W + x] = x < s.cx + cut ? 1 : 2;
  }
  for (const p of pieces) {
    for (let y = Math.max(0, p.y - p.r); y <= Math.min(H - 1, p.y + p.r); y++) {
      for (let x = Math.max(0, p.x - p.r); x <= Math.min(W - 1, p.x + p.r); x++) {
        if ((x - p.x) ** 2 + (y - p.y) ** 2 <= p.r * p.r) data[y * W + x] = pieceLabel;
      }
    }
  }
  return { width: W, height: H, data };
}

function makePair(seed: number, radius: number): { gt: LabelMap; pred: LabelMap } {
  const rand = rng(seed);
  const shape = randomShape(rand, radius);
  const cut = (rand() - 0.5) * radius;
  const pieces = Array.from({ length: 4 }, () => ({
    x: Math.round(shape.cx + radius * (1.3 + 0.5 * rand())),
    y: Math.round(shape.cy + (rand() - 0.5) * radius * 2),
    r: 4 + Math.round(rand() * 8),
  }));
  const gt = labelFrame(shape, cut, pieces, 2);
  const predPieces = pieces.map((p) => ({ ...p, x: p.x + Math.round((rand() - 0.5) * 6) }));
  const pred = labelFrame(perturb(shape, rand), cut + (rand() - 0.5) * 20, predPieces, rand() < 0.5 ? 2 : 1);
  return { gt, pred };
}

function boundaryPixels(m: BinaryMask): number {
  const s = boundaryF(m, m);
  return s.gtBoundary;
}

function time(run: () => void, repeats: number): number {
  run(); // warm-up: let the JIT compile the hot loops before measuring
  const samples: number[] = [];
  for (let i = 0; i < repeats; i++) {
    const t0 = performance.now();
    run();
    samples.push(performance.now() - t0);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)];
}

const rows: { case: string; frames: number; total: string; perFrame: string; target: string; ok: string }[] = [];
function report(name: string, frames: number, ms: number, target: string, within: boolean): void {
  rows.push({
    case: name,
    frames,
    total: `${ms.toFixed(1)} ms`,
    perFrame: `${(ms / frames).toFixed(3)} ms`,
    target,
    ok: within ? 'yes' : 'NO',
  });
}

// 50 distinct frame pairs, cycled: 1,000 distinct full frames would need ~820 MB of label maps.
const PAIRS = 50;
const typical = Array.from({ length: PAIRS }, (_, i) => makePair(1000 + i, 45));
const large = Array.from({ length: 10 }, (_, i) => makePair(5000 + i, 180));
const objectMask = (m: LabelMap): BinaryMask => maskOfLabels(m, [1, 2]);
const typicalBinary = typical.map((p) => ({ gt: objectMask(p.gt), pred: objectMask(p.pred) }));
const largeBinary = large.map((p) => ({ gt: objectMask(p.gt), pred: objectMask(p.pred) }));

const meanBoundary = (ms: { gt: BinaryMask }[]): number => ms.reduce((t, m) => t + boundaryPixels(m.gt), 0) / ms.length;

const FRAMES = 1000;
let sink = 0;
const spocMs = time(() => {
  for (let f = 0; f < FRAMES; f++) {
    const p = typical[f % PAIRS];
    const c = countFrame(p.gt, p.pred);
    sink += c.iAct / (c.uAct || 1) + c.iTrf / (c.uTrf || 1);
  }
}, 5);
report('SPOC J act + trf + object (countFrame)', FRAMES, spocMs, '<= 1000 ms total', spocMs <= 1000);

const JF_FRAMES = 200;
const jfMs = time(() => {
  for (let f = 0; f < JF_FRAMES; f++) sink += jAndF(typicalBinary[f % PAIRS].gt, typicalBinary[f % PAIRS].pred).jf;
}, 5);
report(`DAVIS J&F, typical blob (~${Math.round(meanBoundary(typicalBinary))} boundary px)`, JF_FRAMES, jfMs, '<= 10 ms / frame', jfMs / JF_FRAMES <= 10);

const fMs = time(() => {
  for (let f = 0; f < JF_FRAMES; f++) sink += boundaryF(typicalBinary[f % PAIRS].gt, typicalBinary[f % PAIRS].pred).f;
}, 5);
report('DAVIS F only, typical blob', JF_FRAMES, fMs, '-', true);

const LARGE_FRAMES = 50;
const largeMs = time(() => {
  for (let f = 0; f < LARGE_FRAMES; f++) sink += jAndF(largeBinary[f % 10].gt, largeBinary[f % 10].pred).jf;
}, 5);
report(`DAVIS J&F, large blob (~${Math.round(meanBoundary(largeBinary))} boundary px)`, LARGE_FRAMES, largeMs, '<= 10 ms / frame', largeMs / LARGE_FRAMES <= 10);

const perClass = time(() => {
  for (let f = 0; f < JF_FRAMES; f++) {
    const p = typical[f % PAIRS];
    for (const label of [1, 2]) sink += jAndF(maskOfLabels(p.gt, [label]), maskOfLabels(p.pred, [label])).jf;
  }
}, 3);
report('DAVIS J&F act and trf (incl. mask extraction)', JF_FRAMES, perClass, '-', true);

console.log(`metrics bench, ${W}x${H}, node ${process.version}, one core (median of repeats)`);
console.table(rows);
if (Number.isNaN(sink)) console.log('unexpected NaN');
