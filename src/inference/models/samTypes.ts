/** The interface both SAM adapters implement; the worker and the editor only see this. */
import type { RgbaImage } from '../../masks/labelMap';
import type { TensorData } from '../tensor';
import type { SamGeometry, SamPrompt } from './samGeometry';
import type { BinaryMask } from './samPostprocess';

/** One frame's encoder output, kept (cached) by the caller and handed to decode(). */
export interface SamEmbedding {
  geometry: SamGeometry;
  /** Encoder outputs the decoder needs, by decoder input name. */
  tensors: Record<string, TensorData>;
  /** Memory held, for the cache's byte budget. */
  bytes: number;
}

export interface SamCandidate {
  /** Index of this mask among the model's outputs. */
  index: number;
  /** The model's predicted IoU for it. */
  iou: number;
  mask: BinaryMask;
  /** 256x256 logits to pass back as prompt.maskInput to refine this mask (null if the export has none). */
  lowRes: Float32Array | null;
}

export interface SamTimings {
  preMs: number;
  modelMs: number;
  postMs: number;
}

export interface SamDecodeResult {
  width: number;
  height: number;
  /** The pick first (the model's selection rule), then the alternatives by predicted IoU. */
  candidates: SamCandidate[];
  /** False when a maskInput was given but the export cannot take one. */
  usedMaskInput: boolean;
  timings: SamTimings;
}

export interface SamDecodeOptions {
  /** 'best' binarises only the pick (faster at high resolution); default 'all'. */
  candidates?: 'all' | 'best';
}

export interface SamAdapter {
  readonly kind: 'sam';
  readonly family: 'sam-official' | 'sam-transformersjs';
  readonly supportsMaskInput: boolean;
  readonly supportsBox: boolean;
  encode(image: RgbaImage): Promise<{ embedding: SamEmbedding; timings: SamTimings }>;
  decode(embedding: SamEmbedding, prompt: SamPrompt, options?: SamDecodeOptions): Promise<SamDecodeResult>;
}

/** Order candidate indices: the pick first, the rest by descending IoU (stable). */
export function candidateOrder(iou: ArrayLike<number>, pick: number): number[] {
  const rest = Array.from({ length: iou.length }, (_, k) => k).filter((k) => k !== pick);
  rest.sort((a, b) => iou[b] - iou[a] || a - b);
  return [pick, ...rest];
}
