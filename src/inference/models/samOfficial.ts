/**
 * Adapter for the official segment-anything ONNX decoder export plus a SAM-style image encoder
 * (ViT-B/L/H, MobileSAM, ...). Preprocessing, prompt transform and mask selection follow
 * segment_anything's SamPredictor and SamOnnxModel; the decoder itself up-samples masks to the frame.
 */
import type { RgbaImage } from '../../masks/labelMap';
import { f32, floatData, type TensorData } from '../tensor';
import { expectRole } from './detect';
import { officialPromptArrays, SAM_LOW_RES, SAM_SIDE, samPixelValues, validatePrompt, type SamPrompt } from './samGeometry';
import { binarize, selectOfficialMask, supportWindow } from './samPostprocess';
import { candidateOrder, type SamAdapter, type SamCandidate, type SamDecodeOptions, type SamDecodeResult, type SamEmbedding } from './samTypes';
import type { ModelSession } from './session';

const now = () => performance.now();

export function createSamOfficialAdapter(encoder: ModelSession, decoder: ModelSession): SamAdapter {
  expectRole(encoder, 'sam-official-encoder', 'encoder');
  expectRole(decoder, 'sam-official-decoder', 'decoder');
  const encoderInput = encoder.inputNames[0];
  const hasLowRes = decoder.outputNames.includes('low_res_masks');

  async function encode(image: RgbaImage) {
    const t0 = now();
    const { data, geometry } = samPixelValues(image);
    const t1 = now();
    const out = await encoder.run({ [encoderInput]: f32([1, 3, SAM_SIDE, SAM_SIDE], data) }, ['image_embeddings']);
    const t2 = now();
    const emb = out.image_embeddings;
    floatData(emb, 'image_embeddings');
    const embedding: SamEmbedding = { geometry, tensors: { image_embeddings: emb }, bytes: emb.data.byteLength };
    return { embedding, timings: { preMs: t1 - t0, modelMs: t2 - t1, postMs: 0 } };
  }

  async function decode(embedding: SamEmbedding, prompt: SamPrompt, options: SamDecodeOptions = {}): Promise<SamDecodeResult> {
    const t0 = now();
    validatePrompt(prompt);
    const g = embedding.geometry;
    const { coords, labels, count } = officialPromptArrays(prompt, g);
    const feeds: Record<string, TensorData> = {
      image_embeddings: embedding.tensors.image_embeddings,
      point_coords: f32([1, count, 2], coords),
      point_labels: f32([1, count], labels),
      mask_input: f32([1, 1, SAM_LOW_RES, SAM_LOW_RES], prompt.maskInput ?? new Float32Array(SAM_LOW_RES * SAM_LOW_RES)),
      has_mask_input: f32([1], [prompt.maskInput ? 1 : 0]),
      orig_im_size: f32([2], [g.height, g.width]),
    };
    const t1 = now();
    const out = await decoder.run(feeds);
    const t2 = now();
    const masks = floatData(out.masks, 'masks');
    const iou = floatData(out.iou_predictions, 'iou_predictions');
    const [, n, h, w] = out.masks.dims;
    if (h !== g.height || w !== g.width || iou.length !== n) {
      throw new Error(`decoder returned masks [${out.masks.dims.join(',')}] and ${iou.length} scores for a ${g.width}x${g.height} frame`);
    }
    const lowRes = hasLowRes ? floatData(out.low_res_masks, 'low_res_masks') : null;
    const pick = selectOfficialMask(iou, count);
    const order = options.candidates === 'best' ? [pick] : candidateOrder(iou, pick);
    const plane = SAM_LOW_RES * SAM_LOW_RES;
    const candidates: SamCandidate[] = order.map((k) => ({
      index: k,
      iou: iou[k],
      // The full-resolution masks are up-sampled low_res_masks, so only the window those can reach
      // needs reading: a few ms less per candidate at 1080p for a typical object.
      mask: binarize(masks, k * w * h, w, h, 0, lowRes ? supportWindow(lowRes, k * plane, g) : undefined),
      // slice(): each candidate owns its buffer, so it can be transferred on its own.
      lowRes: lowRes ? lowRes.slice(k * plane, (k + 1) * plane) : null,
    }));
    const t3 = now();
    return { width: w, height: h, candidates, usedMaskInput: !!prompt.maskInput, timings: { preMs: t1 - t0, modelMs: t2 - t1, postMs: t3 - t2 } };
  }

  return { kind: 'sam', family: 'sam-official', supportsMaskInput: true, supportsBox: true, encode, decode };
}
