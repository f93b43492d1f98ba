/**
 * The worker's brain, free of any worker API: the inference API's handlers served by the app's
 * worker RPC (src/rpc/server.ts), which answers through a `post` callback. The real worker
 * (inference.worker.ts) wires it to postMessage; tests call it in-process under Node with the real
 * onnxruntime-web, so the protocol, sessions, caching and cancellation are exercised without a
 * browser.
 *
 * It owns: the ORT module (loaded once, backend chosen once), one set of sessions per model id
 * (created once and reused) and the SAM embedding cache (byte budget); the RPC server's queue runs
 * the jobs one at a time.
 */
import type { RgbaImage } from '../../masks/labelMap';
import { createAdapter, isJsonRole, rolesOf, type Adapter } from '../models/adapters';
import type { ClipAdapter } from '../models/clip';
import { runSelfTest, type GoldenSpec, type SelfTestResult } from '../models/golden';
import { MODEL_FAMILIES } from '../models/manifest';
import type { SamAdapter, SamEmbedding } from '../models/samTypes';
import type { ModelSession } from '../models/session';
import { chooseBackend, wasmThreads, type Backend, type EnvironmentProbe } from './backend';
import { ByteLru } from './byteLru';
import { fetchBytes as defaultFetch, type ProgressFn } from './fetchBytes';
import { createRpcServer, type Post, type RpcContext, type RpcHandlers } from '../../rpc/server';
import type { RpcRequest } from '../../rpc/protocol';
import { decodeGrid } from './samGrid';
import { createSession, type CreatedSession, type Ort } from './ortSession';
import {
  ERRORS,
  InferenceError,
  type Api,
  type FileSource,
  type InitParams,
  type LoadedModel,
  type LoadParams,
  type Progress,
  type RuntimeInfo,
} from './protocol';

export interface DispatcherDeps {
  /** Imports onnxruntime for a backend and sets its env (threads, wasm paths) before any session. */
  loadOrt(backend: Backend, threads: number): Promise<Ort>;
  probe(): EnvironmentProbe;
  fetchBytes?(url: string, onProgress: ProgressFn, isCancelled: () => boolean): Promise<Uint8Array>;
}

export interface Dispatcher {
  handle(request: RpcRequest, post: Post): void;
  /** Releases every session and empties the cache. */
  dispose(): Promise<void>;
}

export const DEFAULT_EMBEDDING_CACHE_BYTES = 256 * 1024 * 1024;

interface Model {
  info: LoadedModel;
  adapter: Adapter;
  sessions: Record<string, CreatedSession>;
  specs: Record<string, GoldenSpec>;
}

interface Runtime {
  ort: Ort;
  info: RuntimeInfo;
}

/** What handlers get besides their params. */
type Ctx = RpcContext<Progress>;

const bad = (message: string) => new InferenceError(ERRORS.badRequest, message);

function requireString(v: unknown, what: string): string {
  if (typeof v !== 'string' || v.length === 0 || v.length > 512) throw bad(`${what} must be a non-empty string`);
  return v;
}

function requireImage(v: unknown, what: string): RgbaImage {
  const img = v as RgbaImage;
  if (!img || !Number.isInteger(img.width) || !Number.isInteger(img.height) || img.width <= 0 || img.height <= 0) {
    throw bad(`${what} must have positive integer width and height`);
  }
  if (!ArrayBuffer.isView(img.data) || img.data.length !== img.width * img.height * 4) {
    throw bad(`${what} must hold width * height * 4 RGBA bytes`);
  }
  return img;
}

const cacheKey = (modelId: string, frameKey: string) => `${modelId}\u0000${frameKey}`;

export function createDispatcher(deps: DispatcherDeps): Dispatcher {
  const fetchFile = deps.fetchBytes ?? defaultFetch;
  const models = new Map<string, Model>();
  const cache = new ByteLru<SamEmbedding>(DEFAULT_EMBEDDING_CACHE_BYTES);
  let runtime: Promise<Runtime> | null = null;
  let runtimeParams: InitParams | null = null;

  /**
   * Chooses the backend and loads ORT, once: ORT's env (threads, wasm paths) is fixed by its first
   * session. A later call may change only the cache budget; asking for another backend preference
   * is an error (a load before any init initialises with 'auto').
   */
  function init(params: InitParams): Promise<Runtime> {
    if (runtime) {
      const current = runtimeParams?.preference ?? 'auto';
      if (params.preference && params.preference !== current) {
        throw bad(`the runtime is already initialised with backend preference "${current}"; create a new client to change it`);
      }
      if (params.embeddingCacheBytes !== undefined) cache.setBudget(params.embeddingCacheBytes);
      return runtime;
    }
    runtimeParams = params;
    if (params.embeddingCacheBytes !== undefined) cache.setBudget(params.embeddingCacheBytes);
    const started = (async () => {
      const env = deps.probe();
      const choice = await chooseBackend(env, params.preference ?? 'auto');
      const threads = wasmThreads(env, params.threads);
      const ort = await deps.loadOrt(choice.backend, threads);
      return { ort, info: { backend: choice.backend, reason: choice.reason, threads, crossOriginIsolated: env.crossOriginIsolated } };
    })();
    runtime = started;
    // A failed init may be retried (e.g. after the user fixes a setting).
    started.catch(() => {
      if (runtime === started) runtime = null;
    });
    return started;
  }

  async function readFile(ctx: Ctx, modelId: string, role: string, src: FileSource): Promise<Uint8Array | unknown> {
    if (!src || typeof src !== 'object') throw bad(`file ${role}: expected {url}, {bytes} or {json}`);
    if ('json' in src) {
      if (!isJsonRole(role)) throw bad(`file ${role} is an ONNX model; give it as {url} or {bytes}`);
      return src.json;
    }
    let bytes: Uint8Array;
    if ('bytes' in src) {
      const b = src.bytes;
      if (b instanceof Uint8Array) bytes = b;
      else if (b instanceof ArrayBuffer) bytes = new Uint8Array(b);
      else throw bad(`file ${role}: bytes must be an ArrayBuffer or Uint8Array`);
    } else if ('url' in src) {
      const url = requireString(src.url, `file ${role} url`);
      bytes = await fetchFile(url, (loaded, total) => ctx.progress({ modelId, file: role, phase: 'download', loaded, total }), () => ctx.signal.aborted);
    } else {
      throw bad(`file ${role}: expected {url}, {bytes} or {json}`);
    }
    if (!isJsonRole(role)) return bytes;
    try {
      return JSON.parse(new TextDecoder().decode(bytes));
    } catch (e) {
      throw new Error(`${role}: not valid JSON (${e instanceof Error ? e.message : String(e)})`, { cause: e });
    }
  }

  function sessionsOf(created: Record<string, CreatedSession>): Record<string, ModelSession> {
    return Object.fromEntries(Object.entries(created).map(([r, c]) => [r, c.session]));
  }

  async function releaseAll(created: Record<string, CreatedSession>): Promise<void> {
    await Promise.all(Object.values(created).map((c) => c.session.release?.().catch(() => undefined)));
  }

  async function load(ctx: Ctx, p: LoadParams): Promise<LoadedModel> {
    const modelId = requireString(p?.modelId, 'modelId');
    const existing = models.get(modelId);
    if (existing) return { ...existing.info, reused: true };
    if (!MODEL_FAMILIES.includes(p.family)) throw bad(`unknown model family ${String(p.family)}`);
    const t0 = performance.now();
    const { ort, info } = await init({});
    const roles = rolesOf(p.family);
    const files = p.files ?? {};
    for (const role of roles.required) if (!files[role]) throw bad(`family ${p.family} needs a "${role}" file`);
    const created: Record<string, CreatedSession> = {};
    const json: Record<string, unknown> = {};
    try {
      for (const role of [...roles.required, ...roles.optional]) {
        if (!files[role]) continue;
        ctx.checkpoint();
        const content = await readFile(ctx, modelId, role, files[role]);
        if (isJsonRole(role)) {
          json[role] = content;
          continue;
        }
        ctx.checkpoint();
        ctx.progress({ modelId, file: role, phase: 'session' });
        try {
          created[role] = await createSession(ort, content as Uint8Array, info.backend);
        } catch (e) {
          throw new Error(`${role}: onnxruntime could not load this file (${e instanceof Error ? e.message : String(e)})`, { cause: e });
        }
      }
      // Format detection happens here: each adapter checks its sessions' inputs and outputs.
      let adapter = createAdapter(p.family, sessionsOf(created), json);
      const specs = p.selfTest ?? {};
      const selfTest = await selfTests(ctx, ort, modelId, created, specs);
      if (Object.keys(selfTest).length > 0) adapter = createAdapter(p.family, sessionsOf(created), json); // sessions may now be on WASM
      for (const c of Object.values(created)) delete c.bytes; // only kept for the WebGPU -> WASM retry
      const model: Model = {
        adapter,
        sessions: created,
        specs,
        info: {
          modelId,
          family: p.family,
          backends: Object.fromEntries(Object.entries(created).map(([r, c]) => [r, c.backend])),
          fallbacks: Object.fromEntries(Object.entries(created).flatMap(([r, c]) => (c.fallbackReason ? [[r, c.fallbackReason]] : []))),
          signatures: Object.fromEntries(
            Object.entries(created).map(([r, c]) => [r, { inputs: [...c.session.inputNames], outputs: [...c.session.outputNames] }]),
          ),
          selfTest,
          reused: false,
          ms: performance.now() - t0,
        },
      };
      models.set(modelId, model);
      return model.info;
    } catch (e) {
      await releaseAll(created);
      throw e;
    }
  }

  /**
   * Runs the golden self-tests. During a load (while the file bytes are still held), a file that
   * fails on WebGPU is recreated on WASM and tested again: a wrong GPU result must never reach the
   * annotator. Later re-runs only report.
   */
  async function selfTests(ctx: Ctx, ort: Ort, modelId: string, created: Record<string, CreatedSession>, specs: Record<string, GoldenSpec>) {
    const results: Record<string, SelfTestResult> = {};
    for (const [role, spec] of Object.entries(specs)) {
      const c = created[role];
      if (!c) continue;
      ctx.checkpoint();
      ctx.progress({ modelId, file: role, phase: 'selftest' });
      let r = await runSelfTest(c.session, spec);
      if (!r.ok && c.backend === 'webgpu' && c.bytes) {
        const reason = `self-test failed on WebGPU: ${r.failures.join('; ')}`;
        await c.session.release?.();
        created[role] = { ...(await createSession(ort, c.bytes, 'wasm')), fallbackReason: reason };
        r = await runSelfTest(created[role].session, spec);
      }
      results[role] = r;
    }
    return results;
  }

  function model(modelId: unknown): Model {
    const m = models.get(requireString(modelId, 'modelId'));
    if (!m) throw new InferenceError(ERRORS.notLoaded, `model "${String(modelId)}" is not loaded`);
    return m;
  }

  function sam(modelId: unknown): SamAdapter {
    const a = model(modelId).adapter;
    if (a.kind !== 'sam') throw bad(`model "${String(modelId)}" is not a SAM model`);
    return a;
  }

  function clip(modelId: unknown): ClipAdapter {
    const a = model(modelId).adapter;
    if (a.kind !== 'clip') throw bad(`model "${String(modelId)}" is not a CLIP model`);
    return a;
  }

  async function unload(modelId: string): Promise<{ unloaded: boolean }> {
    const m = models.get(modelId);
    if (!m) return { unloaded: false };
    models.delete(modelId);
    cache.deleteWhere((k) => k.startsWith(`${modelId}\u0000`));
    await releaseAll(m.sessions);
    return { unloaded: true };
  }

  const handlers: RpcHandlers<Api> = {
    init: async (params) => (await init(params ?? {})).info,
    // Loads run in the queue one at a time, so a second load of an id finds the first one's sessions.
    load: (params, ctx) => load(ctx, params),
    unload: async (params) => unload(requireString(params?.modelId, 'modelId')),
    selfTest: async (params, ctx) => {
      const m = model(params?.modelId);
      const { ort } = await init({});
      return selfTests(ctx, ort, params.modelId, m.sessions, params.specs ?? m.specs);
    },
    samEncode: async (params, ctx) => {
      const adapter = sam(params?.modelId);
      const frameKey = requireString(params.frameKey, 'frameKey');
      const key = cacheKey(params.modelId, frameKey);
      const hit = cache.get(key);
      if (hit) return { frameKey, cached: true, bytes: hit.bytes, timings: null };
      const image = requireImage(params.image, 'image');
      ctx.checkpoint();
      const { embedding, timings } = await adapter.encode(image);
      cache.set(key, embedding, embedding.bytes);
      return { frameKey, cached: false, bytes: embedding.bytes, timings };
    },
    samDecode: async (params, ctx) => {
      const adapter = sam(params?.modelId);
      const frameKey = requireString(params.frameKey, 'frameKey');
      const embedding = cache.get(cacheKey(params.modelId, frameKey));
      if (!embedding) throw new InferenceError(ERRORS.embeddingMissing, `frame "${frameKey}" is not encoded (or was evicted); call samEncode first`);
      if (!params.prompt || !Array.isArray(params.prompt.points)) throw bad('prompt.points must be an array');
      ctx.checkpoint();
      return adapter.decode(embedding, params.prompt, { candidates: params.candidates ?? 'all' });
    },
    samDecodeGrid: async (params, ctx) => {
      const adapter = sam(params?.modelId);
      const frameKey = requireString(params.frameKey, 'frameKey');
      const embedding = cache.get(cacheKey(params.modelId, frameKey));
      if (!embedding) throw new InferenceError(ERRORS.embeddingMissing, `frame "${frameKey}" is not encoded (or was evicted); call samEncode first`);
      if (!Array.isArray(params.points) || params.points.length > 100_000) throw bad('points must be an array of at most 100000 {x, y}');
      const points = params.points.map((p, i) => {
        if (!p || !Number.isFinite(p.x) || !Number.isFinite(p.y)) throw bad(`points[${i}] must have finite x and y`);
        return { x: p.x, y: p.y };
      });
      const minArea = params.minArea ?? 0;
      if (!Number.isFinite(minArea)) throw bad('minArea must be a finite number');
      if (params.nmsIou !== undefined && !Number.isFinite(params.nmsIou)) throw bad('nmsIou must be a finite number');
      return decodeGrid(adapter, embedding, { ...params, points, minArea }, {
        checkpoint: () => ctx.checkpoint(),
        progress: (done, total) => ctx.progress({ modelId: params.modelId, file: 'decoder', phase: 'decode', loaded: done, total }),
      });
    },
    clipEmbedImages: async (params, ctx) => {
      const adapter = clip(params?.modelId);
      if (!Array.isArray(params.images)) throw bad('images must be an array');
      const images = params.images.map((im, i) => requireImage(im, `images[${i}]`));
      const t0 = performance.now();
      const embeddings: Float32Array[] = [];
      // Batch by batch, so a cancel stops a long proposal run between batches.
      for (let i = 0; i < images.length; i += 16) {
        ctx.checkpoint();
        embeddings.push(...(await adapter.embedImages(images.slice(i, i + 16))));
      }
      return { embeddings, ms: performance.now() - t0 };
    },
    clipEmbedTexts: async (params, ctx) => {
      const adapter = clip(params?.modelId);
      if (!Array.isArray(params.texts) || !params.texts.every((t) => typeof t === 'string')) throw bad('texts must be an array of strings');
      const t0 = performance.now();
      ctx.checkpoint();
      const embeddings = await adapter.embedTexts(params.texts);
      return { embeddings, ms: performance.now() - t0 };
    },
    evictEmbeddings: async (params) => {
      const { modelId, frameKeys } = params ?? {};
      if (frameKeys) {
        const keys = new Set(frameKeys.map((f) => String(f)));
        return { evicted: cache.deleteWhere((k) => (modelId === undefined || k.startsWith(`${modelId}\u0000`)) && keys.has(k.slice(k.indexOf('\u0000') + 1))) };
      }
      if (modelId !== undefined) return { evicted: cache.deleteWhere((k) => k.startsWith(`${modelId}\u0000`)) };
      return { evicted: cache.deleteWhere(() => true) };
    },
    stats: async () => ({
      models: [...models.keys()],
      cacheEntries: cache.size,
      cacheBytes: cache.bytes,
      cacheBudget: cache.capacity,
      queued: server.queued,
    }),
  };

  // init, stats and evictEmbeddings are answered at once, outside the queue: they never touch a session.
  const server = createRpcServer(handlers, { queue: true, immediate: ['init', 'stats', 'evictEmbeddings'] });

  async function dispose(): Promise<void> {
    cache.deleteWhere(() => true);
    const all = [...models.values()];
    models.clear();
    await Promise.all(all.map((m) => releaseAll(m.sessions)));
  }

  return { handle: server.handle, dispose };
}
