/**
 * Timings of the weight-free assists with the real OpenCV.js (the same WASM build the worker runs),
 * in Node on demo frames: `npm run bench classical`. Prints figures only;
 * nothing here asserts on speed.
 */
import { createDemoClip } from '../src/demo/generator';
import { nodeCv } from '../src/testing/opencv';
import { grabCut, regionFromClick } from '../src/inference/classical/segment';
import { propagateByFlow } from '../src/inference/classical/flow';
import { predictStates, trainStateModel } from '../src/inference/classical/stateClassifier';

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function time(runs: number, fn: () => void): number {
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    fn();
    out.push(performance.now() - t0);
  }
  return median(out);
}

const t0 = performance.now();
const { cv } = await nodeCv();
console.log(`OpenCV.js ready in Node: ${Math.round(performance.now() - t0)} ms`);

for (const [width, height] of [[640, 360], [1280, 720], [1920, 1080]] as const) {
  const s = width / 640;
  const clip = createDemoClip({ seed: 2, kind: 'peeling', width, height, durationSec: 20 });
  const f0 = clip.renderAt(0, { frameIndex: 0 });
  const f1 = clip.renderAt(1, { frameIndex: 1 });
  const labels = clip.groundTruthAt(0);
  const box = { x: 222 * s, y: 120 * s, w: 188 * s, h: 136 * s };
  const gc = time(3, () => grabCut(cv, f0, box));
  const gcFull = time(1, () => grabCut(cv, f0, box, { maxSide: 4096 }));
  const fill = time(3, () => regionFromClick(cv, f0, { x: 540 * s, y: 300 * s }));
  const flow = time(3, () => propagateByFlow(cv, f0, f1, labels));
  const grating = createDemoClip({ seed: 1, kind: 'grating', width, height, durationSec: 20 });
  const train = [9, 11, 8, 12, 7, 13].map((k) => ({ image: grating.renderAt(k, { frameIndex: k }), labels: grating.groundTruthAt(k) }));
  const target = grating.renderAt(10, { frameIndex: 10 });
  let model = trainStateModel(train);
  const trainMs = time(3, () => (model = trainStateModel(train)));
  const predictMs = time(3, () => predictStates(model, target));
  const mask = grating.groundTruthAt(10).data.map((v) => (v ? 1 : 0));
  const predictMaskMs = time(3, () => predictStates(model, target, mask));
  console.log(
    `${width}x${height}: GrabCut ${Math.round(gc)} ms (box ${Math.round(box.w)}x${Math.round(box.h)}, crop scaled to 480; at full resolution ${Math.round(gcFull)} ms) · ` +
      `colour fill ${Math.round(fill)} ms · Farneback propagation ${Math.round(flow)} ms/frame (flow at 640 px, both directions) · ` +
      `classifier train ${Math.round(trainMs)} ms on 6 frames, predict ${Math.round(predictMs)} ms whole frame / ${Math.round(predictMaskMs)} ms inside the object`,
  );
}
