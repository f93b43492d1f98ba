/**
 * Automatic flags over a long 4K clip, one core: the streaming accumulator the editor uses
 * (slices of 4 decoded frames) against computing over every decoded frame at once.
 * Run: npx tsx --expose-gc bench/review-flags.bench.ts   (npm run bench review-flags)
 *
 * Frames are 3840x2160 label maps of an object whose transformed part grows from left to right, with
 * a few specks and one reversal, encoded to RLE as the store holds them; each run decodes them
 * (flagFramesFromLayers) exactly as flagLoader.ts does. Peak memory is sampled after every slice.
 */
import { performance } from 'node:perf_hooks';
import { encodeLayer } from '../src/masks/layers';
import type { LabelMap } from '../src/masks/labelMap';
import { FlagAccumulator, computeFlags, flagFramesFromLayers } from '../src/review/flags';

const W = 3840;
const H = 2160;
const FRAMES = Number(process.env.FRAMES ?? 60);

function frame(k: number): LabelMap {
  const data = new Uint8Array(W * H);
  const x0 = 800;
  const x1 = 3000;
  const split = x0 + Math.round(((x1 - x0) * k) / (FRAMES - 1));
  for (let y = 500; y < 1700; y++) {
    const row = y * W;
    for (let x = x0; x < x1; x++) data[row + x] = x < split ? 2 : 1;
  }
  // Specks, and on one frame a transformed region painted back as actionable (a reversal).
  for (let s = 0; s < 5; s++) data[(100 + 37 * s + k) * W + 100 + 53 * s] = 1;
  if (k === Math.floor(FRAMES / 2)) for (let y = 900; y < 1000; y++) data.fill(1, y * W + x0 + 10, y * W + x0 + 110);
  return { width: W, height: H, data };
}

const gc = (globalThis as { gc?: () => void }).gc;
function mb(): number {
  gc?.();
  const m = process.memoryUsage();
  return (m.heapUsed + m.arrayBuffers) / 1e6;
}

const metas = Array.from({ length: FRAMES }, (_, index) => ({ index }));
const layers = metas.map(({ index }) => {
  const l = encodeLayer(frame(index));
  return { frameIndex: index, act: l.act, trf: l.trf, actArea: 0, trfArea: 0 };
});
const size = { width: W, height: H };
const base = mb();

let t = performance.now();
let peak = 0;
const acc = new FlagAccumulator();
for (let i = 0; i < FRAMES; i += 4) {
  acc.add(flagFramesFromLayers(metas.slice(i, i + 4), layers.slice(i, i + 4), size));
  peak = Math.max(peak, mb() - base);
}
const streamed = acc.finish();
const streamMs = performance.now() - t;

t = performance.now();
const all = flagFramesFromLayers(metas, layers, size);
const batchPeak = mb() - base;
const batch = computeFlags(all);
const batchMs = performance.now() - t;

console.log(`flags over ${FRAMES} frames of ${W}x${H}${gc ? '' : ' (run with --expose-gc for exact memory)'}`);
console.table([
  { mode: 'streamed, slices of 4 (editor)', 'ms/frame': (streamMs / FRAMES).toFixed(1), 'peak MB above base': peak.toFixed(0), flags: streamed.length },
  { mode: 'all frames decoded at once', 'ms/frame': (batchMs / FRAMES).toFixed(1), 'peak MB above base': batchPeak.toFixed(0), flags: batch.length },
]);
if (JSON.stringify(streamed) !== JSON.stringify(batch)) console.log('MISMATCH: streamed flags differ from the batch computation');
