/**
 * Agreement between two annotators of one clip (the review panel's numbers), one core: per-frame
 * rows for a 300-frame 854x480 clip cold, then after one frame changed (the cache keeps the rest),
 * and per frame the dispute map, a merge and a take-B.
 * Run: npm run bench agreement
 *
 * Annotator A paints a disc split into an actionable and a transformed part whose border moves
 * with the frame; B's disc is shifted by 3 px and its border sits 4 px further on, so both extent
 * disputes and state swaps occur on every frame.
 */
import { performance } from 'node:perf_hooks';
import { encodeLayer } from '../src/masks/layers';
import type { LabelMap } from '../src/masks/labelMap';
import { agreementRows, type AgreementCache } from '../src/review/agreement/agreementRows';
import { disputeMap, mergeMaps, resolveFrame } from '../src/review/agreement/resolve';
import type { Layer, LayerSource } from '../src/store/types';

const W = 854;
const H = 480;
const N = 300;

function annotator(k: number, shift: number, lag: number): LabelMap {
  const data = new Uint8Array(W * H);
  const cx = 420 + shift;
  const cy = 240;
  const split = cx - 150 + ((k + lag) * 300) / N;
  for (let y = cy - 150; y < cy + 150; y++) {
    for (let x = cx - 150; x < cx + 150; x++) if ((x - cx) ** 2 + (y - cy) ** 2 < 150 * 150) data[y * W + x] = x < split ? 2 : 1;
  }
  return { width: W, height: H, data };
}

function layer(source: LayerSource, frameIndex: number, map: LabelMap, updatedAt: number): Layer {
  const { act, trf } = encodeLayer(map);
  return { clipId: 'c', frameIndex, source, act, trf, provenance: { kind: 'manual', by: 'bench', at: 0 }, updatedAt, actArea: 0, trfArea: 0 };
}

const mapsA = Array.from({ length: N }, (_, k) => annotator(k, 0, 0));
const mapsB = Array.from({ length: N }, (_, k) => annotator(k, 3, 4));
const a = { source: 'gt' as const, layers: mapsA.map((m, k) => layer('gt', k, m, 1)) };
const b = { source: 'ann:bob' as const, layers: mapsB.map((m, k) => layer('ann:bob', k, m, 1)) };
const frames = Array.from({ length: N }, (_, index) => ({ index }));
const size = { width: W, height: H };
const now = () => Promise.resolve();

const cache: AgreementCache = new Map();
let t = performance.now();
const rows = await agreementRows({ size, frames, a, b }, { cache, yieldNow: now });
const cold = performance.now() - t;
a.layers[150] = layer('gt', 150, annotator(151, 0, 0), 2);
t = performance.now();
await agreementRows({ size, frames, a, b }, { cache, yieldNow: now });
const warm = performance.now() - t;

const per = (fn: (k: number) => unknown) => {
  const t0 = performance.now();
  for (let k = 0; k < 60; k++) fn(k * 5);
  return (performance.now() - t0) / 60;
};
const disputes = per((k) => disputeMap(mapsA[k], mapsB[k]));
const merge = per((k) => mergeMaps(mapsA[k], mapsB[k]));
const takeB = per((k) => resolveFrame(mapsA[k], mapsB[k], { kind: 'take-b' }));

console.log(`agreement, ${N} frames of ${W}x${H} (median disputed px per frame: ${[...rows].sort((x, y) => x.disputed - y.disputed)[N >> 1].disputed})`);
console.table([
  { measure: 'per-frame rows, cold (decode both layers + count)', ms: cold.toFixed(0), 'ms/frame': (cold / N).toFixed(2) },
  { measure: 'per-frame rows after one frame changed (cache)', ms: warm.toFixed(1), 'ms/frame': '' },
  { measure: 'dispute map, one frame', ms: '', 'ms/frame': disputes.toFixed(2) },
  { measure: 'merge (union, A on swaps), one frame', ms: '', 'ms/frame': merge.toFixed(2) },
  { measure: 'take B, one frame', ms: '', 'ms/frame': takeB.toFixed(2) },
]);
