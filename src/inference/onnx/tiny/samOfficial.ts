/**
 * Tiny stand-ins for the official segment-anything ONNX export (scripts/export_onnx_model.py,
 * return_single_mask=False) and an encoder with the usual [1,3,1024,1024] -> [1,256,64,64] shape.
 * They have the exact input/output names, shapes and dtypes, so the adapter, worker and UI run the
 * real onnxruntime path; their outputs are simple known functions so tests can check geometry.
 *
 * Decoder semantics:
 * - anchor = mean of the prompt points whose label is > 0.5 (clicks 1 and box corners 2, 3;
 *   negatives 0 and padding -1 are ignored). One click -> the click; a box -> its centre.
 * - low_res_masks[k] = disc of radius TINY_SAM_RADII[k] (1024-frame px) around the anchor, as
 *   logits ~ signed distance, plus has_mask_input * mask_input (so refinement is observable).
 * - iou_predictions = TINY_SAM_IOU + 0.01 * tanh(mean(image_embeddings)): ordering is fixed
 *   (mask 0 scores highest, mask 2 best of 1..3) but the value depends on the frame.
 * - masks = SAM's own post-processing of low_res_masks: bilinear up-sampling to 1024x1024, crop to
 *   the resized (unpadded) image, bilinear resize to orig_im_size (half-pixel, like PyTorch's
 *   align_corners=False).
 */
import { attr, GraphBuilder } from '../graphBuilder';
import { encodeModel } from '../modelProto';
import { discLogits, hashWeights, LOW_RES, meanAll, MODEL_SIDE, weightedCentroid } from './discDecoder';

/** Disc radii in the 1024 frame per output mask (0 = single-mask output, 1..3 = multimask). */
export const TINY_SAM_RADII = [48, 24, 64, 128] as const;
/** Base predicted IoUs: mask 0 highest overall, mask 2 the best of the multimask outputs 1..3. */
export const TINY_SAM_IOU = [0.99, 0.6, 0.95, 0.7] as const;
export const EMBED_CHANNELS = 256;
export const EMBED_SIDE = 64;

export function buildTinySamDecoder(): Uint8Array {
  const g = new GraphBuilder('tiny_sam_decoder');
  const emb = g.input('image_embeddings', 'float32', [1, EMBED_CHANNELS, EMBED_SIDE, EMBED_SIDE]);
  const coords = g.input('point_coords', 'float32', [1, 'num_points', 2]);
  const labels = g.input('point_labels', 'float32', [1, 'num_points']);
  const maskInput = g.input('mask_input', 'float32', [1, 1, LOW_RES, LOW_RES]);
  const hasMask = g.input('has_mask_input', 'float32', [1]);
  const origSize = g.input('orig_im_size', 'float32', [2]);

  const weights = g.op('Cast', [g.op('Greater', [labels, g.scalar(0.5)])], { to: attr.i(1) });
  const { x, y } = weightedCentroid(g, coords, weights, 1);
  const disc = discLogits(g, x, y, TINY_SAM_RADII, 1);
  const lowRes = g.op('Add', [disc, g.op('Mul', [maskInput, hasMask])]);

  const iouBase = g.f32([...TINY_SAM_IOU], [1, TINY_SAM_IOU.length]);
  const iou = g.op('Add', [iouBase, g.op('Mul', [g.op('Tanh', [meanAll(g, emb)]), g.scalar(0.01)])]);

  // SAM's mask_postprocessing, as in segment_anything/utils/onnx.py.
  const n = TINY_SAM_RADII.length;
  const linear = { mode: attr.s('linear'), coordinate_transformation_mode: attr.s('half_pixel') };
  const up = g.op('Resize', [lowRes, '', '', g.i64([1, n, MODEL_SIDE, MODEL_SIDE])], linear);
  // prepadded size = floor(orig * 1024 / max(orig) + 0.5)
  const longest = g.op('ReduceMax', [origSize], { keepdims: attr.i(1) });
  const resized = g.op('Floor', [g.op('Add', [g.op('Mul', [origSize, g.op('Div', [g.scalar(MODEL_SIDE), longest])]), g.scalar(0.5)])]);
  const cropEnds = g.op('Cast', [resized], { to: attr.i(7) });
  const cropped = g.op('Slice', [up, g.i64([0, 0]), cropEnds, g.i64([2, 3])]);
  const outSize = g.op('Concat', [g.i64([1, n]), g.op('Cast', [origSize], { to: attr.i(7) })], { axis: attr.i(0) });
  const masks = g.op('Resize', [cropped, '', '', outSize], linear);

  g.output('masks', 'float32', [1, n, 'orig_h', 'orig_w'], masks);
  g.output('iou_predictions', 'float32', [1, n], iou);
  g.output('low_res_masks', 'float32', [1, n, LOW_RES, LOW_RES], lowRes);
  return encodeModel({ graph: g.build('SPOC Studio tiny SAM decoder (official export signature)'), opset: 17 });
}

/**
 * Explicit 1x1 Conv attributes, as PyTorch's exporter writes them. ORT's WebGPU (JSEP) Conv kernel
 * fails without `dilations` ("dilations should be 2D"), which the self-test caught in Chromium.
 */
export const CONV_1X1 = {
  dilations: attr.ints([1, 1]),
  group: attr.i(1),
  kernel_shape: attr.ints([1, 1]),
  pads: attr.ints([0, 0, 0, 0]),
  strides: attr.ints([1, 1]),
};

/** Encoder input name used by the tiny model; real exports also use `x` or `images` (see the adapter). */
export const TINY_SAM_ENCODER_INPUT = 'input_image';

/**
 * Encoder: 16x16 average pooling (1024 -> 64) followed by a fixed 1x1 convolution 3 -> 256.
 * Cheap (one pass over the input), and every embedding channel depends on the image colours.
 */
export function buildTinySamEncoder(inputName = TINY_SAM_ENCODER_INPUT): Uint8Array {
  const g = new GraphBuilder('tiny_sam_encoder');
  const x = g.input(inputName, 'float32', [1, 3, MODEL_SIDE, MODEL_SIDE]);
  const side = MODEL_SIDE / EMBED_SIDE;
  const pooled = g.op('AveragePool', [x], { kernel_shape: attr.ints([side, side]), strides: attr.ints([side, side]) });
  const w = g.f32(hashWeights(EMBED_CHANNELS * 3, 1, 0.5), [EMBED_CHANNELS, 3, 1, 1], 'conv_w');
  const b = g.f32(hashWeights(EMBED_CHANNELS, 2, 0.01), [EMBED_CHANNELS], 'conv_b');
  const emb = g.op('Conv', [pooled, w, b], CONV_1X1);
  g.output('image_embeddings', 'float32', [1, EMBED_CHANNELS, EMBED_SIDE, EMBED_SIDE], emb);
  return encodeModel({ graph: g.build('SPOC Studio tiny SAM encoder'), opset: 17 });
}
