/**
 * The inference worker's API over the app's one worker RPC (src/rpc/, docs/workers.md): ids,
 * progress, cancel (a queued job is dropped, a running one stops at its next checkpoint),
 * priorities and transferred result buffers all come from there; this file names the methods.
 *
 * Payloads are structured-clone friendly: typed arrays and plain objects only (never ort.Tensor,
 * which loses its class across postMessage).
 */
import { RPC_ERRORS, RpcError } from '../../rpc/protocol';
import type { RgbaImage } from '../../masks/labelMap';
import type { GoldenSpec, SelfTestResult } from '../models/golden';
import type { ModelFamily } from '../models/manifest';
import type { SamPrompt } from '../models/samGeometry';
import type { SamDecodeResult, SamTimings } from '../models/samTypes';
import type { CroppedMask } from '../spoc/croppedMask';
import type { Backend, BackendPreference } from './backend';

export interface InitParams {
  /** 'auto' (default): WebGPU if an adapter exists, else WASM. */
  preference?: BackendPreference;
  /** WASM threads; default min(4, cores) when cross-origin isolated, else 1. */
  threads?: number;
  /** Byte budget of the SAM embedding cache (default 256 MB: 64 ViT embeddings of 4 MB). */
  embeddingCacheBytes?: number;
}

export interface RuntimeInfo {
  backend: Backend;
  /** Why this backend, for the UI. */
  reason: string;
  threads: number;
  crossOriginIsolated: boolean;
}

/** Where a model file comes from: a URL (fetched in the worker, with progress), bytes, or parsed JSON. */
export type FileSource = { url: string } | { bytes: ArrayBuffer | Uint8Array } | { json: unknown };

export interface LoadParams {
  modelId: string;
  family: ModelFamily;
  /** role -> source; roles per family as in the manifest (encoder/decoder, vision/text/tokenizer). */
  files: Record<string, FileSource>;
  /** role -> golden self-test, run right after loading. */
  selfTest?: Record<string, GoldenSpec>;
}

export interface LoadedModel {
  modelId: string;
  family: ModelFamily;
  /** Backend per ONNX file (after any fallback). */
  backends: Record<string, Backend>;
  /** Per file, why WebGPU was abandoned for WASM (session creation failed or the self-test disagreed). */
  fallbacks: Record<string, string>;
  signatures: Record<string, { inputs: string[]; outputs: string[] }>;
  /** Per file with a golden; empty when the manifest has none. */
  selfTest: Record<string, SelfTestResult>;
  /** True when this id was already loaded and the existing sessions are reused. */
  reused: boolean;
  ms: number;
}

export interface SamEncodeResult {
  frameKey: string;
  /** True when the embedding was already in the worker's cache (nothing was computed). */
  cached: boolean;
  bytes: number;
  timings: SamTimings | null;
}

export interface SamGridParams {
  modelId: string;
  frameKey: string;
  /** One single-positive-point prompt per entry, in frame coordinates (e.g. spoc/pointGrid). */
  points: { x: number; y: number }[];
  /** Candidates smaller than this (px) are dropped in the worker (default 0: keep every non-empty mask). */
  minArea?: number;
  /**
   * Mask-IoU NMS threshold (spoc/nms.ts, score = predicted IoU) applied in the worker; then only the
   * kept candidates return, best first. Omit to get every candidate in decode order.
   */
  nmsIou?: number;
}

/** One thresholded candidate of a grid decode, cropped to its box so ~1000 masks stay small. */
export interface SamGridCandidate {
  /** Index into params.points, and of the mask among that prompt's outputs. */
  pointIndex: number;
  maskIndex: number;
  /** The model's predicted IoU. */
  iou: number;
  mask: CroppedMask;
}

export interface SamGridResult {
  width: number;
  height: number;
  candidates: SamGridCandidate[];
  /** Masks the decoder produced (before dropping empty and small ones, and NMS). */
  decoded: number;
  /** Wall time in the worker; of it, inside the decoder's session.run, and NMS. */
  ms: number;
  modelMs: number;
  nmsMs: number;
}

export interface EmbedResult {
  embeddings: Float32Array[];
  ms: number;
}

export interface RuntimeStats {
  models: string[];
  cacheEntries: number;
  cacheBytes: number;
  cacheBudget: number;
  queued: number;
}

/** Method name -> params and result types (every method may report `Progress`). */
type Methods = {
  init: { params: InitParams; result: RuntimeInfo };
  load: { params: LoadParams; result: LoadedModel };
  unload: { params: { modelId: string }; result: { unloaded: boolean } };
  /** Re-run golden self-tests: the given specs, else those passed to load. */
  selfTest: { params: { modelId: string; specs?: Record<string, GoldenSpec> }; result: Record<string, SelfTestResult> };
  /** Encode a frame (SAM image encoder) into the worker's embedding cache under frameKey. */
  samEncode: { params: { modelId: string; frameKey: string; image: RgbaImage }; result: SamEncodeResult };
  /** Decode a prompt against a cached frame embedding. */
  samDecode: { params: { modelId: string; frameKey: string; prompt: SamPrompt; candidates?: 'all' | 'best' }; result: SamDecodeResult };
  /**
   * Many single-point prompts against one cached embedding (SAM's automatic-mask grid): every
   * candidate comes back thresholded and cropped (full-frame masks never cross postMessage).
   * Reports progress as phase 'decode' with loaded/total points; a cancel stops between points.
   */
  samDecodeGrid: { params: SamGridParams; result: SamGridResult };
  clipEmbedImages: { params: { modelId: string; images: RgbaImage[] }; result: EmbedResult };
  clipEmbedTexts: { params: { modelId: string; texts: string[] }; result: EmbedResult };
  /** Drop cached embeddings: of some frames, of a model, or all. */
  evictEmbeddings: { params: { modelId?: string; frameKeys?: string[] }; result: { evicted: number } };
  stats: { params: Record<string, never>; result: RuntimeStats };
};

export type Api = { [M in keyof Methods]: Methods[M] & { progress: Progress } };
export type Method = keyof Api;
export type { Priority } from '../../rpc/protocol';

export interface Progress {
  modelId: string;
  /** File role ("encoder", "tokenizer", ...). */
  file: string;
  phase: 'download' | 'session' | 'selftest' | 'decode';
  loaded?: number;
  total?: number;
}

/** Names of errors callers may want to branch on. */
export const ERRORS = {
  ...RPC_ERRORS,
  notLoaded: 'ModelNotLoaded',
  embeddingMissing: 'EmbeddingMissing',
  modelFormat: 'ModelFormatError',
} as const;

/** What inference calls reject with: the RPC's error, carrying a name from ERRORS. */
export { RpcError as InferenceError };
