/**
 * Measuring propagation against exact ground truth (the bench and the tests share it): a scene is
 * a generated clip sampled at 1 fps with its native frames (30 fps) in between; a chain starts from
 * the true map of sampled frame 0 and propagates frame after frame, each from the map it wrote,
 * as "Forward…" does. Pure apart from the engine it is handed (Node tests and benches pass the
 * classical handler with the real OpenCV in process).
 */
import type { LabelMap, RgbaImage } from '../../masks/labelMap';
import { createCarriedClip } from '../../demo/carried';
import { createDemoClip, type DemoKind } from '../../demo/generator';
import { propagateFrame, type PropagationEngine, type PropagationSource } from './propagateFrame';

export interface SampledScene {
  name: string;
  width: number;
  height: number;
  /** Sampled frames (k = 0, 1, ...), 1 s apart. */
  sampled: number;
  frame(k: number): RgbaImage;
  truth(k: number): LabelMap;
  /** The native frames strictly between sampled k and k + 1 (absent: the scene has none). */
  between?(k: number): RgbaImage[];
}

export interface ChainStep {
  to: number;
  iou: number;
  /** Mean IoU of the two states (states absent from both count as 1). */
  stateIou: number;
  confidence: number;
  /** The uncalibrated score (calibration.ts), when the tracking path ran. */
  raw: number | null;
  /** The same before the previous frame's confidence is folded in (the calibration fit's input). */
  score: number | null;
  /** Chain depth of the frame propagated from (0: the true map). */
  depth: number;
  ms: number;
}

export function maskIou(a: LabelMap, b: LabelMap, label?: number): number {
  let inter = 0;
  let union = 0;
  for (let i = 0; i < a.data.length; i++) {
    const x = label === undefined ? a.data[i] !== 0 : a.data[i] === label;
    const y = label === undefined ? b.data[i] !== 0 : b.data[i] === label;
    if (x && y) inter++;
    if (x || y) union++;
  }
  return union === 0 ? 1 : inter / union;
}

export async function runChain(engine: PropagationEngine, scene: SampledScene, options: { native: boolean; steps?: number }): Promise<ChainStep[]> {
  const source: PropagationSource = {
    getImage: async (k) => scene.frame(k),
    frameKey: (k) => `${scene.name}/${k}`,
    framesBetween:
      options.native && scene.between
        ? async function* (from) {
            for (const f of scene.between!(from)) yield f;
          }
        : undefined,
  };
  const steps = Math.min(options.steps ?? scene.sampled - 1, scene.sampled - 1);
  let previous = scene.truth(0);
  let previousConfidence = 1;
  let previousDepth = 0;
  const out: ChainStep[] = [];
  for (let k = 0; k < steps; k++) {
    const t0 = performance.now();
    const r = await propagateFrame(engine, source, { from: k, previous, previousConfidence, previousDepth });
    const ms = performance.now() - t0;
    const truth = scene.truth(k + 1);
    const confidence = r.confidence ?? 0;
    out.push({
      to: k + 1,
      iou: maskIou(r.map, truth),
      stateIou: (maskIou(r.map, truth, 1) + maskIou(r.map, truth, 2)) / 2,
      confidence,
      raw: r.regions[0] && r.nativeFrames !== undefined ? r.regions[0].quality : null,
      score: r.trackScore ?? null,
      depth: previousDepth,
      ms,
    });
    previous = r.map;
    previousConfidence = confidence;
    previousDepth = r.depth ?? previousDepth + 1;
  }
  return out;
}

/** The carried-cup clip (src/demo/carried.ts) at 1 fps, `fps` native frames per second between. */
export function carriedScene(seed: number, options: { speed?: number; width?: number; height?: number; sampled?: number; fps?: number } = {}): SampledScene {
  const clip = createCarriedClip({ seed, speed: options.speed, width: options.width, height: options.height, durationSec: (options.sampled ?? 5) + 1 });
  const fps = options.fps ?? 30;
  return {
    name: `carried cup ${seed}${options.speed ? ` (speed ${options.speed})` : ''}`,
    width: clip.width,
    height: clip.height,
    sampled: options.sampled ?? 5,
    frame: (k) => clip.renderAt(k),
    truth: (k) => clip.groundTruthAt(k),
    between: (k) => Array.from({ length: fps - 1 }, (_, j) => clip.renderAt(k + (j + 1) / fps)),
  };
}

/** A stock demo clip (objects changing state in place, hands, camera jitter) at 1 fps from its transition's start. */
export function demoScene(kind: DemoKind, seed: number, options: { sampled?: number; fps?: number } = {}): SampledScene {
  const clip = createDemoClip({ seed, kind, durationSec: 20 });
  const start = Math.floor(clip.transition.start);
  const fps = options.fps ?? 30;
  return {
    name: `${kind} ${seed}`,
    width: clip.width,
    height: clip.height,
    sampled: options.sampled ?? 5,
    frame: (k) => clip.renderAt(start + k),
    truth: (k) => clip.groundTruthAt(start + k),
    between: (k) => Array.from({ length: fps - 1 }, (_, j) => clip.renderAt(start + k + (j + 1) / fps)),
  };
}
