/**
 * Adapter for CLIP as two towers (transformers.js layout: vision_model.onnx, text_model.onnx) plus
 * the CLIP BPE tokenizer. Embeddings come back as the model returns them (not normalised);
 * spoc/similarity.ts normalises before taking cosines.
 */
import type { RgbaImage } from '../../masks/labelMap';
import { f32, floatData, i64, type TensorData } from '../tensor';
import { clipPixelValues, CLIP_SIDE } from './clipPreprocess';
import type { ClipTokenizer } from './clipText';
import { expectRole } from './detect';
import { fixedBatchOfOne, type ModelSession } from './session';

export interface ClipAdapter {
  readonly kind: 'clip';
  readonly family: 'clip';
  /** One embedding per image, in order. */
  embedImages(images: readonly RgbaImage[]): Promise<Float32Array[]>;
  /** One embedding per text, in order. */
  embedTexts(texts: readonly string[]): Promise<Float32Array[]>;
}

/** Largest batch per run: bounds peak memory (16 x 3 x 224 x 224 floats = 9.6 MB). */
export const CLIP_MAX_BATCH = 16;

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

function rows(t: TensorData | undefined, name: string, count: number): Float32Array[] {
  const data = floatData(t, name);
  if (count === 0 || data.length % count !== 0) throw new Error(`${name}: ${data.length} values cannot be split into ${count} embeddings`);
  const dim = data.length / count;
  return Array.from({ length: count }, (_, i) => data.slice(i * dim, (i + 1) * dim));
}

export function createClipAdapter(vision: ModelSession, text: ModelSession, tokenizer: ClipTokenizer): ClipAdapter {
  expectRole(vision, 'clip-vision', 'vision model');
  expectRole(text, 'clip-text', 'text model');
  const visionBatch = fixedBatchOfOne(vision, 'pixel_values') ? 1 : CLIP_MAX_BATCH;
  const textBatch = fixedBatchOfOne(text, 'input_ids') ? 1 : CLIP_MAX_BATCH;
  const textWantsMask = text.inputNames.includes('attention_mask');

  async function embedImages(images: readonly RgbaImage[]): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    const plane = 3 * CLIP_SIDE * CLIP_SIDE;
    for (const batch of chunks(images, visionBatch)) {
      const pixels = new Float32Array(batch.length * plane);
      batch.forEach((img, i) => pixels.set(clipPixelValues(img), i * plane));
      const res = await vision.run({ pixel_values: f32([batch.length, 3, CLIP_SIDE, CLIP_SIDE], pixels) }, ['image_embeds']);
      out.push(...rows(res.image_embeds, 'image_embeds', batch.length));
    }
    return out;
  }

  async function embedTexts(texts: readonly string[]): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (const batch of chunks(texts, textBatch)) {
      const encoded = batch.map((t) => tokenizer.encode(t));
      const len = encoded[0].ids.length;
      const feeds: Record<string, TensorData> = { input_ids: i64([batch.length, len], encoded.flatMap((e) => e.ids)) };
      if (textWantsMask) feeds.attention_mask = i64([batch.length, len], encoded.flatMap((e) => e.attentionMask));
      const res = await text.run(feeds, ['text_embeds']);
      out.push(...rows(res.text_embeds, 'text_embeds', batch.length));
    }
    return out;
  }

  return { kind: 'clip', family: 'clip', embedImages, embedTexts };
}
