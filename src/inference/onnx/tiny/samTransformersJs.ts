/**
 * Tiny stand-ins for the transformers.js SAM / SlimSAM layout (Xenova exports):
 * `vision_encoder.onnx` (pixel_values -> image_embeddings, image_positional_embeddings) and
 * `prompt_encoder_mask_decoder.onnx` (input_points f32 [b,pb,n,2], input_labels int64 [b,pb,n],
 * image_embeddings, image_positional_embeddings -> iou_scores [b,pb,3], pred_masks [b,pb,3,256,256]).
 * That export returns low-resolution masks only; the caller up-samples (see samPostprocess.ts).
 *
 * Decoder semantics: anchor = mean of the points labelled 1 (HF labels: 1 fg, 0 bg, -1 not a point,
 * -10 padding); pred_masks[k] = disc of radius TINY_TJS_RADII[k] (1024 frame) around it;
 * iou_scores = TINY_TJS_IOU + 0.01 * tanh(mean(embeddings) + mean(positional embeddings)).
 */
import { attr, GraphBuilder } from '../graphBuilder';
import { encodeModel } from '../modelProto';
import { discLogits, hashWeights, LOW_RES, meanAll, MODEL_SIDE, weightedCentroid } from './discDecoder';
import { CONV_1X1, EMBED_CHANNELS, EMBED_SIDE } from './samOfficial';

export const TINY_TJS_RADII = [32, 64, 96] as const;
/** Mask 1 is the best. */
export const TINY_TJS_IOU = [0.5, 0.9, 0.7] as const;

export function buildTinyTjsSamEncoder(): Uint8Array {
  const g = new GraphBuilder('tiny_tjs_sam_vision_encoder');
  const x = g.input('pixel_values', 'float32', ['batch_size', 3, MODEL_SIDE, MODEL_SIDE]);
  const side = MODEL_SIDE / EMBED_SIDE;
  const pooled = g.op('AveragePool', [x], { kernel_shape: attr.ints([side, side]), strides: attr.ints([side, side]) });
  const w = g.f32(hashWeights(EMBED_CHANNELS * 3, 3, 0.5), [EMBED_CHANNELS, 3, 1, 1], 'conv_w');
  const emb = g.op('Conv', [pooled, w], CONV_1X1);
  // Positional embeddings do not depend on the image in SAM; a per-channel constant broadcast to
  // the embedding's shape keeps the file small (no 1M-float initializer).
  const pos = g.op('Add', [g.op('Mul', [emb, g.scalar(0)]), g.f32(hashWeights(EMBED_CHANNELS, 4, 0.1), [1, EMBED_CHANNELS, 1, 1])]);
  g.output('image_embeddings', 'float32', ['batch_size', EMBED_CHANNELS, EMBED_SIDE, EMBED_SIDE], emb);
  g.output('image_positional_embeddings', 'float32', ['batch_size', EMBED_CHANNELS, EMBED_SIDE, EMBED_SIDE], pos);
  return encodeModel({ graph: g.build('SPOC Studio tiny transformers.js SAM vision encoder'), opset: 17 });
}

export function buildTinyTjsSamDecoder(): Uint8Array {
  const g = new GraphBuilder('tiny_tjs_sam_prompt_encoder_mask_decoder');
  const points = g.input('input_points', 'float32', ['batch_size', 'point_batch_size', 'num_points', 2]);
  const labels = g.input('input_labels', 'int64', ['batch_size', 'point_batch_size', 'num_points']);
  const emb = g.input('image_embeddings', 'float32', ['batch_size', EMBED_CHANNELS, EMBED_SIDE, EMBED_SIDE]);
  const pos = g.input('image_positional_embeddings', 'float32', ['batch_size', EMBED_CHANNELS, EMBED_SIDE, EMBED_SIDE]);

  const weights = g.op('Cast', [g.op('Equal', [labels, g.i64([1], [])])], { to: attr.i(1) });
  const { x, y, wsum } = weightedCentroid(g, points, weights, 2);
  const masks = discLogits(g, x, y, TINY_TJS_RADII, 2);
  const shift = g.op('Mul', [g.op('Tanh', [g.op('Add', [meanAll(g, emb), meanAll(g, pos)])]), g.scalar(0.01)]);
  // wsum is [b, pb, 1]; times zero it gives the batch shape to broadcast the 3 scores over.
  const iou = g.op('Add', [g.op('Mul', [wsum, g.scalar(0)]), g.op('Add', [g.f32([...TINY_TJS_IOU]), shift])]);
  g.output('iou_scores', 'float32', ['batch_size', 'point_batch_size', 3], iou);
  g.output('pred_masks', 'float32', ['batch_size', 'point_batch_size', 3, LOW_RES, LOW_RES], masks);
  return encodeModel({ graph: g.build('SPOC Studio tiny transformers.js SAM prompt encoder + mask decoder'), opset: 17 });
}
