/**
 * Helpers for tests that run the real onnxruntime-web in Node (single-threaded WASM CPU):
 * sessions over the tiny models, an in-process dispatcher + client, and synthetic frames.
 * Not imported by app code.
 */
import * as ort from 'onnxruntime-web';
import type { RgbaImage } from '../masks/labelMap';
import type { ModelSession } from '../inference/models/session';
import { makeTinyModelSet, type TinyModelSet } from '../inference/onnx/tiny/index';
import { createDispatcher, type DispatcherDeps } from '../inference/runtime/dispatcher';
import { InferenceClient } from '../inference/runtime/inferenceClient';
import { wrapSession, type Ort } from '../inference/runtime/ortSession';
import { inProcessTransport } from '../rpc/transport';

export { ort };

let tiny: TinyModelSet | undefined;
/** The tiny model files, built once per test file. */
export function tinyFiles(): Record<string, Uint8Array> {
  tiny ??= makeTinyModelSet();
  return tiny.files;
}

export async function openSession(bytes: Uint8Array): Promise<ModelSession> {
  return wrapSession(ort, await ort.InferenceSession.create(bytes), 'wasm');
}

export async function openTiny(path: string): Promise<ModelSession> {
  const bytes = tinyFiles()[path];
  if (!bytes) throw new Error(`no tiny model ${path}`);
  return openSession(bytes);
}

export function tinyTokenizerJson(): unknown {
  return JSON.parse(new TextDecoder().decode(tinyFiles()['clip_tokenizer.json']));
}

/** A Node environment as the dispatcher sees it: no WebGPU, not isolated, one thread. */
export function nodeDeps(overrides: Partial<DispatcherDeps> = {}): DispatcherDeps {
  return {
    loadOrt: async () => ort as unknown as Ort,
    probe: () => ({ gpu: undefined, crossOriginIsolated: false, hardwareConcurrency: 1 }),
    ...overrides,
  };
}

export function inProcessClient(deps: DispatcherDeps = nodeDeps()): InferenceClient {
  const dispatcher = createDispatcher(deps);
  return new InferenceClient(inProcessTransport(dispatcher, () => void dispatcher.dispose()));
}

/** A solid-colour RGBA frame. */
export function solidImage(width: number, height: number, rgb: readonly [number, number, number]): RgbaImage {
  const data = new Uint8ClampedArray(width * height * 4);
  for (let i = 0; i < width * height; i++) data.set([rgb[0], rgb[1], rgb[2], 255], i * 4);
  return { width, height, data };
}

/** Centroid (in continuous coordinates: pixel centres at +0.5) and equivalent-disc radius of a 0/1 mask. */
export function discStats(mask: Uint8Array, width: number): { area: number; cx: number; cy: number; radius: number } {
  let area = 0;
  let sx = 0;
  let sy = 0;
  for (let i = 0; i < mask.length; i++) {
    if (mask[i]) {
      area++;
      sx += (i % width) + 0.5;
      sy += Math.floor(i / width) + 0.5;
    }
  }
  return { area, cx: sx / area, cy: sy / area, radius: Math.sqrt(area / Math.PI) };
}
