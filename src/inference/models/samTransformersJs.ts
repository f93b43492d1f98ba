/**
 * Adapter for the transformers.js SAM / SlimSAM layout: `vision_encoder.onnx` and
 * `prompt_encoder_mask_decoder.onnx` (Xenova/onnx-community exports). Preprocessing is the same as
 * the official pipeline (Hugging Face's SamProcessor: longest side 1024 bilinear, ImageNet
 * mean/std, zero padding). The decoder returns three 256x256 low-res masks; we up-sample them to the
 * frame as SamProcessor.post_process_masks does. Labels follow Hugging Face: 1 fg, 0 bg,
 * -10 "no point" (used when only a box is given). The export takes no mask_input, so clicks
 * re-decode from all points instead of refining.
 */
import type { RgbaImage } from '../../masks/labelMap';
import { f32, floatData, i64, type TensorData } from '../tensor';
import { expectRole } from './detect';
import { normaliseBox, SAM_LOW_RES, SAM_SIDE, samPixelValues, toModelFrame, validatePrompt, type SamPrompt } from './samGeometry';
import { argmax, lowResMask } from './samPostprocess';
import { candidateOrder, type SamAdapter, type SamCandidate, type SamDecodeOptions, type SamDecodeResult, type SamEmbedding } from './samTypes';
import type { ModelSession } from './session';

const now = () => performance.now();
const NO_POINT = -10;

export function createSamTransformersJsAdapter(encoder: ModelSession, decoder: ModelSession): SamAdapter {
  expectRole(encoder, 'sam-tjs-encoder', 'vision_encoder');
  expectRole(decoder, 'sam-tjs-decoder', 'prompt_encoder_mask_decoder');
  const supportsBox = decoder.inputNames.includes('input_boxes');

  async function encode(image: RgbaImage) {
    const t0 = now();
    const { data, geometry } = samPixelValues(image);
    const t1 = now();
    const out = await encoder.run({ pixel_values: f32([1, 3, SAM_SIDE, SAM_SIDE], data) });
    const t2 = now();
    const emb = out.image_embeddings;
    const pos = out.image_positional_embeddings;
    floatData(emb, 'image_embeddings');
    floatData(pos, 'image_positional_embeddings');
    const embedding: SamEmbedding = {
      geometry,
      tensors: { image_embeddings: emb, image_positional_embeddings: pos },
      bytes: emb.data.byteLength + pos.data.byteLength,
    };
    return { embedding, timings: { preMs: t1 - t0, modelMs: t2 - t1, postMs: 0 } };
  }

  async function decode(embedding: SamEmbedding, prompt: SamPrompt, options: SamDecodeOptions = {}): Promise<SamDecodeResult> {
    const t0 = now();
    validatePrompt(prompt);
    if (prompt.box && !supportsBox) {
      throw new RangeError('this transformers.js SAM export has no input_boxes; use point prompts or the official segment-anything export');
    }
    const g = embedding.geometry;
    const coords: number[] = [];
    const labels: number[] = [];
    for (const p of prompt.points) {
      coords.push(...toModelFrame(p.x, p.y, g));
      labels.push(p.positive ? 1 : 0);
    }
    if (coords.length === 0) {
      coords.push(0, 0);
      labels.push(NO_POINT);
    }
    const n = labels.length;
    const feeds: Record<string, TensorData> = {
      input_points: f32([1, 1, n, 2], coords),
      input_labels: i64([1, 1, n], labels),
      image_embeddings: embedding.tensors.image_embeddings,
      image_positional_embeddings: embedding.tensors.image_positional_embeddings,
    };
    if (supportsBox && prompt.box) {
      const b = normaliseBox(prompt.box);
      feeds.input_boxes = f32([1, 1, 4], [...toModelFrame(b.x0, b.y0, g), ...toModelFrame(b.x1, b.y1, g)]);
    } else if (supportsBox) {
      // ORT insists on every declared input; zero boxes is the natural "none". Not verified
      // against a real export with input_boxes (the common Xenova exports do not declare it).
      feeds.input_boxes = f32([1, 0, 4], []);
    }
    const t1 = now();
    const out = await decoder.run(feeds);
    const t2 = now();
    const iou = floatData(out.iou_scores, 'iou_scores');
    const masks = floatData(out.pred_masks, 'pred_masks');
    const plane = SAM_LOW_RES * SAM_LOW_RES;
    if (masks.length !== iou.length * plane) {
      throw new Error(`decoder returned pred_masks [${out.pred_masks.dims.join(',')}] for ${iou.length} scores; expected 256x256 masks`);
    }
    const pick = argmax(iou);
    const order = options.candidates === 'best' ? [pick] : candidateOrder(iou, pick);
    const candidates: SamCandidate[] = order.map((k) => ({
      index: k,
      iou: iou[k],
      mask: lowResMask(masks, k * plane, g),
      lowRes: null,
    }));
    const t3 = now();
    return {
      width: g.width,
      height: g.height,
      candidates,
      usedMaskInput: false,
      timings: { preMs: t1 - t0, modelMs: t2 - t1, postMs: t3 - t2 },
    };
  }

  return { kind: 'sam', family: 'sam-transformersjs', supportsMaskInput: false, supportsBox, encode, decode };
}
