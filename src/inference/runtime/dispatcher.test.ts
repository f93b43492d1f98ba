/**
 * The protocol end to end in one process: InferenceClient -> (structured clone) -> dispatcher ->
 * real onnxruntime-web on the tiny models -> back. Everything the worker does except being a worker.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { computeTinyManifest, makeTinyModelSet } from '../onnx/tiny';
import { TINY_SAM_RADII } from '../onnx/tiny/samOfficial';
import { cosine } from '../spoc/similarity';
import { discStats, inProcessClient, nodeDeps, openSession, ort, solidImage, tinyFiles } from '../../testing/inference';
import type { InferenceClient } from './inferenceClient';
import type { Ort } from './ortSession';
import type { LoadParams, Progress } from './protocol';

const bytes = (path: string) => ({ bytes: tinyFiles()[path].slice() });
const samFiles = (): LoadParams['files'] => ({ encoder: bytes('sam_encoder.onnx'), decoder: bytes('sam_decoder.onnx') });
const clipFiles = (): LoadParams['files'] => ({
  vision: bytes('clip_vision.onnx'),
  text: bytes('clip_text.onnx'),
  tokenizer: bytes('clip_tokenizer.json'),
});

let client: InferenceClient | undefined;
afterEach(() => client?.destroy());

describe('dispatcher + client, in process, real ORT', () => {
  it('reports the backend: WASM, one thread, not isolated (Node)', async () => {
    client = inProcessClient();
    expect(await client.init()).toEqual({
      backend: 'wasm',
      reason: 'WebGPU is not available in this browser',
      threads: 1,
      crossOriginIsolated: false,
    });
  });

  it('loads SAM once, encodes a frame once, decodes clicks against the cached embedding', async () => {
    client = inProcessClient();
    const progress: Progress[] = [];
    const loaded = await client.load({ modelId: 'sam', family: 'sam-official', files: samFiles() }, { onProgress: (p) => progress.push(p) });
    expect(loaded).toMatchObject({ modelId: 'sam', family: 'sam-official', backends: { encoder: 'wasm', decoder: 'wasm' }, fallbacks: {}, reused: false });
    expect(loaded.signatures.decoder.inputs).toContain('orig_im_size');
    expect(progress.map((p) => `${p.file}:${p.phase}`)).toEqual(['encoder:session', 'decoder:session']);
    expect((await client.load({ modelId: 'sam', family: 'sam-official', files: samFiles() })).reused).toBe(true);

    const frame = solidImage(640, 360, [10, 200, 30]);
    const enc = await client.samEncode({ modelId: 'sam', frameKey: 'clip1/f0', image: frame });
    expect(enc).toMatchObject({ frameKey: 'clip1/f0', cached: false, bytes: 4 * 256 * 64 * 64 });
    expect(frame.data.length).toBe(640 * 360 * 4); // copied, not transferred, by default
    expect((await client.samEncode({ modelId: 'sam', frameKey: 'clip1/f0', image: frame })).cached).toBe(true);

    const r = await client.samDecode({ modelId: 'sam', frameKey: 'clip1/f0', prompt: { points: [{ x: 400.5, y: 120.5, positive: true }] } });
    expect(r.candidates[0].mask.data).toBeInstanceOf(Uint8Array);
    const s = discStats(r.candidates[0].mask.data, 640);
    expect(Math.abs(s.cx - 400.5)).toBeLessThanOrEqual(1);
    expect(Math.abs(s.cy - 120.5)).toBeLessThanOrEqual(1);
    expect(Math.abs(s.radius - TINY_SAM_RADII[2] / 1.6)).toBeLessThan(1);
    // Refinement through the protocol: the low-res logits come back as a Float32Array.
    const refined = await client.samDecode({
      modelId: 'sam',
      frameKey: 'clip1/f0',
      prompt: { points: [{ x: 400.5, y: 120.5, positive: true }], maskInput: r.candidates[0].lowRes! },
      candidates: 'best',
    });
    expect(refined.usedMaskInput).toBe(true);
    expect(refined.candidates).toHaveLength(1);

    expect(await client.stats()).toMatchObject({ models: ['sam'], cacheEntries: 1, cacheBytes: 4 * 256 * 64 * 64 });
    expect(await client.evictEmbeddings({ frameKeys: ['clip1/f0'] })).toEqual({ evicted: 1 });
    await expect(client.samDecode({ modelId: 'sam', frameKey: 'clip1/f0', prompt: { points: [{ x: 1, y: 1, positive: true }] } })).rejects.toMatchObject({
      name: 'EmbeddingMissing',
    });
  });

  it('transfers a frame buffer only when asked', async () => {
    client = inProcessClient();
    await client.load({ modelId: 'sam', family: 'sam-official', files: samFiles() });
    const frame = solidImage(64, 48, [1, 2, 3]);
    await client.samEncode({ modelId: 'sam', frameKey: 'k', image: frame }, { transfer: true });
    expect(frame.data.length).toBe(0); // detached
  });

  it('runs CLIP: embeds crops and texts', async () => {
    client = inProcessClient();
    await client.load({ modelId: 'clip', family: 'clip', files: clipFiles() });
    const { embeddings: images } = await client.clipEmbedImages({ modelId: 'clip', images: [solidImage(40, 30, [255, 0, 0])] });
    const { embeddings: texts } = await client.clipEmbedTexts({ modelId: 'clip', texts: ['a red apple', 'a green apple'] });
    expect(images[0]).toBeInstanceOf(Float32Array);
    expect(cosine(images[0], texts[0])).toBeGreaterThan(cosine(images[0], texts[1]));
  });

  it('accepts the tokenizer as parsed JSON or as a URL fetched with progress', async () => {
    const fetched: string[] = [];
    client = inProcessClient(
      nodeDeps({
        fetchBytes: async (url, onProgress) => {
          fetched.push(url);
          const b = tinyFiles()[url.replace('mem://', '')].slice();
          onProgress(b.length / 2, b.length);
          onProgress(b.length, b.length);
          return b;
        },
      }),
    );
    const progress: Progress[] = [];
    await client.load(
      { modelId: 'clip', family: 'clip', files: { vision: { url: 'mem://clip_vision.onnx' }, text: bytes('clip_text.onnx'), tokenizer: { url: 'mem://clip_tokenizer.json' } } },
      { onProgress: (p) => progress.push(p) },
    );
    expect(fetched).toEqual(['mem://clip_vision.onnx', 'mem://clip_tokenizer.json']);
    const downloads = progress.filter((p) => p.phase === 'download' && p.file === 'vision');
    expect(downloads.map((p) => p.loaded! / p.total!)).toEqual([0.5, 1]);
  });

  it('runs golden self-tests on load and reports failures clearly', async () => {
    const set = makeTinyModelSet();
    const manifest = await computeTinyManifest(set, openSession);
    const sam = manifest.models[0];
    client = inProcessClient();
    const ok = await client.load({ modelId: 'sam', family: 'sam-official', files: samFiles(), selfTest: sam.selfTest });
    expect(ok.selfTest.encoder.ok).toBe(true);
    expect(ok.selfTest.decoder.ok).toBe(true);
    const broken = structuredClone(sam.selfTest);
    broken.decoder.outputs.iou_predictions.samples[0][1] += 0.5;
    const again = await client.selfTest({ modelId: 'sam', specs: broken });
    expect(again.decoder.ok).toBe(false);
    expect(again.decoder.failures.join('\n')).toMatch(/iou_predictions\[0\]: 0\.99.* expected 1\.49/);
  });

  it('refuses a model of the wrong family with the adapter message, and keeps nothing loaded', async () => {
    client = inProcessClient();
    await expect(client.load({ modelId: 'x', family: 'sam-transformersjs', files: samFiles() })).rejects.toMatchObject({
      name: 'ModelFormatError',
      message: expect.stringMatching(/vision_encoder: expected a transformers\.js SAM vision_encoder/) as string,
    });
    await expect(client.load({ modelId: 'y', family: 'sam-official', files: { encoder: bytes('sam_encoder.onnx'), decoder: { bytes: new Uint8Array([1, 2, 3]) } } })).rejects.toThrow(
      /decoder: onnxruntime could not load this file/,
    );
    expect((await client.stats()).models).toEqual([]);
  });

  it('answers bad requests with named errors', async () => {
    client = inProcessClient();
    await expect(client.samEncode({ modelId: 'nope', frameKey: 'f', image: solidImage(2, 2, [0, 0, 0]) })).rejects.toMatchObject({ name: 'ModelNotLoaded' });
    await client.load({ modelId: 'clip', family: 'clip', files: clipFiles() });
    await expect(client.samEncode({ modelId: 'clip', frameKey: 'f', image: solidImage(2, 2, [0, 0, 0]) })).rejects.toMatchObject({
      name: 'BadRequest',
      message: 'model "clip" is not a SAM model',
    });
    await expect(client.clipEmbedImages({ modelId: 'clip', images: [{ width: 2, height: 2, data: new Uint8ClampedArray(3) }] })).rejects.toThrow(
      /images\[0\] must hold width \* height \* 4 RGBA bytes/,
    );
    await expect(client.call('nonsense' as 'stats', {})).rejects.toMatchObject({ name: 'BadRequest', message: 'unknown method nonsense' });
    await expect(client.load({ modelId: 'z', family: 'yolo' as 'clip', files: {} })).rejects.toThrow(/unknown model family yolo/);
  });

  it('cancels: an aborted call rejects at once; a queued job never runs; a late answer is dropped', async () => {
    client = inProcessClient();
    await client.load({ modelId: 'sam', family: 'sam-official', files: samFiles() });
    const frame = solidImage(320, 180, [0, 0, 0]);
    const slow = client.samEncode({ modelId: 'sam', frameKey: 'a', image: frame }, { priority: 'low' });
    const ac = new AbortController();
    const queued = client.samEncode({ modelId: 'sam', frameKey: 'b', image: frame }, { priority: 'low', signal: ac.signal });
    ac.abort();
    await expect(queued).rejects.toMatchObject({ name: 'AbortError' });
    await slow;
    expect(client.inFlight).toBe(0);
    const stats = await client.stats();
    expect(stats.cacheEntries).toBe(1); // "b" was never encoded
    const pre = new AbortController();
    pre.abort();
    await expect(client.stats({ signal: pre.signal })).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('destroy() rejects pending calls and refuses new ones', async () => {
    client = inProcessClient();
    const pending = client.load({ modelId: 'sam', family: 'sam-official', files: samFiles() });
    client.destroy();
    await expect(pending).rejects.toMatchObject({ name: 'ClientDestroyed' });
    await expect(client.stats()).rejects.toMatchObject({ name: 'ClientDestroyed' });
  });
});

describe('WebGPU fallbacks (simulated backend)', () => {
  /** An ORT whose "webgpu" sessions fail to create, or compute wrong numbers. */
  function fakeGpuOrt(mode: 'create-fails' | 'wrong-results'): Ort {
    const create = async (bytes: Uint8Array, options?: { executionProviders?: string[] }) => {
      const s = await ort.InferenceSession.create(bytes);
      if (options?.executionProviders?.[0] !== 'webgpu') return s;
      if (mode === 'create-fails') throw new Error('no WebGPU kernel for Resize');
      return new Proxy(s, {
        get(target, prop, receiver) {
          if (prop !== 'run') return Reflect.get(target, prop, receiver) as unknown;
          return async (...args: Parameters<typeof s.run>) => {
            const out = await target.run(...args);
            for (const t of Object.values(out)) if (t.data instanceof Float32Array) t.data[0] += 1; // a wrong kernel
            return out;
          };
        },
      });
    };
    return { ...ort, InferenceSession: { create } } as unknown as Ort;
  }
  const gpuEnv = () => ({ gpu: { requestAdapter: async () => ({}) }, crossOriginIsolated: false, hardwareConcurrency: 1 });

  it('falls back to WASM when WebGPU session creation fails', async () => {
    client = inProcessClient(nodeDeps({ probe: gpuEnv, loadOrt: async () => fakeGpuOrt('create-fails') }));
    expect((await client.init()).backend).toBe('webgpu');
    const m = await client.load({ modelId: 'sam', family: 'sam-official', files: samFiles() });
    expect(m.backends).toEqual({ encoder: 'wasm', decoder: 'wasm' });
    expect(m.fallbacks.decoder).toMatch(/no WebGPU kernel/);
  });

  it('recreates a file on WASM when its WebGPU self-test disagrees with the golden', async () => {
    const manifest = await computeTinyManifest(makeTinyModelSet(), openSession);
    client = inProcessClient(nodeDeps({ probe: gpuEnv, loadOrt: async () => fakeGpuOrt('wrong-results') }));
    const m = await client.load({ modelId: 'sam', family: 'sam-official', files: samFiles(), selfTest: manifest.models[0].selfTest });
    expect(m.backends).toEqual({ encoder: 'wasm', decoder: 'wasm' });
    expect(m.fallbacks.decoder).toMatch(/^self-test failed on WebGPU: /);
    expect(m.selfTest.decoder.ok).toBe(true);
    // The adapter uses the WASM sessions: decoding gives correct discs.
    await client.samEncode({ modelId: 'sam', frameKey: 'f', image: solidImage(640, 360, [0, 0, 0]) });
    const r = await client.samDecode({ modelId: 'sam', frameKey: 'f', prompt: { points: [{ x: 100, y: 100, positive: true }] } });
    expect(r.candidates[0].iou).toBeCloseTo(0.95, 2);
  });
});

describe('init', () => {
  it('is done once; a load initialises with auto; another preference later is refused', async () => {
    client = inProcessClient();
    await client.load({ modelId: 'clip', family: 'clip', files: clipFiles() });
    expect((await client.init({ embeddingCacheBytes: 1024 })).backend).toBe('wasm');
    expect((await client.stats()).cacheBudget).toBe(1024);
    await expect(client.init({ preference: 'wasm' })).rejects.toThrow(/already initialised with backend preference "auto"/);
  });
});
