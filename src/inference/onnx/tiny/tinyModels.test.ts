/**
 * The tiny models load in onnxruntime-web under Node, declare the exact signatures of the real
 * exports, and compute the functions their doc comments promise.
 */
import { Tokenizer } from '@huggingface/tokenizers';
import { beforeAll, describe, expect, it } from 'vitest';
import { detectRole } from '../../models/detect';
import type { ModelSession } from '../../models/session';
import { f32, i64 } from '../../tensor';
import { discStats, openTiny, tinyFiles, tinyTokenizerJson } from '../../../testing/inference';
import { makeTinyModelSet } from '.';
import { CLIP_MEAN, CLIP_STD, TINY_VISION_BIAS } from './clip';
import { CLIP_BOS, CLIP_EOS, TINY_COLOUR_WORDS, TINY_WORDS } from './clipTokenizer';
import { TINY_SAM_IOU, TINY_SAM_RADII } from './samOfficial';
import { TINY_TJS_IOU } from './samTransformersJs';

function signature(s: ModelSession) {
  return {
    inputs: s.inputMetadata!.map((m) => [m.name, m.type, m.shape]),
    outputs: s.outputNames,
  };
}

describe('tiny model files', () => {
  it('are deterministic and small', () => {
    const a = makeTinyModelSet().files;
    const b = makeTinyModelSet().files;
    for (const path of Object.keys(a)) {
      expect(a[path], path).toEqual(b[path]);
      expect(a[path].length, path).toBeLessThan(20_000);
    }
  });
});

describe('tiny SAM, official export signature', () => {
  let decoder: ModelSession;
  let encoder: ModelSession;
  beforeAll(async () => {
    decoder = await openTiny('sam_decoder.onnx');
    encoder = await openTiny('sam_encoder.onnx');
  });

  it('declares the segment-anything decoder and encoder signatures', () => {
    expect(signature(decoder)).toEqual({
      inputs: [
        ['image_embeddings', 'float32', [1, 256, 64, 64]],
        ['point_coords', 'float32', [1, 'num_points', 2]],
        ['point_labels', 'float32', [1, 'num_points']],
        ['mask_input', 'float32', [1, 1, 256, 256]],
        ['has_mask_input', 'float32', [1]],
        ['orig_im_size', 'float32', [2]],
      ],
      outputs: ['masks', 'iou_predictions', 'low_res_masks'],
    });
    expect(signature(encoder)).toEqual({ inputs: [['input_image', 'float32', [1, 3, 1024, 1024]]], outputs: ['image_embeddings'] });
    expect(detectRole(decoder)).toBe('sam-official-decoder');
    expect(detectRole(encoder)).toBe('sam-official-encoder');
  });

  const baseFeeds = (over: Record<string, ReturnType<typeof f32>> = {}) => ({
    image_embeddings: f32([1, 256, 64, 64], new Float32Array(256 * 64 * 64)),
    point_coords: f32([1, 2, 2], [512, 288, 0, 0]),
    point_labels: f32([1, 2], [1, -1]),
    mask_input: f32([1, 1, 256, 256], new Float32Array(256 * 256)),
    has_mask_input: f32([1], [0]),
    orig_im_size: f32([2], [360, 640]),
    ...over,
  });

  it('draws discs of the documented radii around the click, at frame resolution', async () => {
    const out = await decoder.run(baseFeeds());
    expect(out.masks.dims).toEqual([1, 4, 360, 640]);
    expect(out.iou_predictions.dims).toEqual([1, 4]);
    expect(out.low_res_masks.dims).toEqual([1, 4, 256, 256]);
    const masks = out.masks.data as Float32Array;
    const plane = 640 * 360;
    TINY_SAM_RADII.forEach((r, k) => {
      const bits = Uint8Array.from(masks.subarray(k * plane, (k + 1) * plane), (v) => (v > 0 ? 1 : 0));
      const s = discStats(bits, 640);
      // (512, 288) in the 1024 frame is (320, 180) in a 640x360 frame (scale 1.6).
      expect(s.cx).toBeCloseTo(320, 0);
      expect(s.cy).toBeCloseTo(180, 0);
      expect(Math.abs(s.radius - r / 1.6)).toBeLessThan(0.5);
    });
    const iou = [...(out.iou_predictions.data as Float32Array)];
    iou.forEach((v, k) => expect(v).toBeCloseTo(TINY_SAM_IOU[k], 5)); // zero embeddings: tanh(0) = 0
  });

  it('ties every input into the outputs', async () => {
    const base = await decoder.run(baseFeeds());
    // Negative clicks and padding do not move the anchor; box corners (2, 3) do.
    const neg = await decoder.run(baseFeeds({ point_coords: f32([1, 3, 2], [512, 288, 100, 100, 0, 0]), point_labels: f32([1, 3], [1, 0, -1]) }));
    expect(neg.low_res_masks.data).toEqual(base.low_res_masks.data);
    const box = await decoder.run(baseFeeds({ point_coords: f32([1, 2, 2], [100, 100, 300, 200]), point_labels: f32([1, 2], [2, 3]) }));
    const low = box.low_res_masks.data as Float32Array;
    // The anchor is the box centre (200, 150): low-res pixel (50, 37) holds the maximum of mask 0.
    expect(low[37 * 256 + 50]).toBeGreaterThan(low[37 * 256 + 60]);
    // mask_input counts only when has_mask_input is 1.
    const junk = new Float32Array(256 * 256).fill(5);
    const off = await decoder.run(baseFeeds({ mask_input: f32([1, 1, 256, 256], junk) }));
    expect(off.low_res_masks.data).toEqual(base.low_res_masks.data);
    const on = await decoder.run(baseFeeds({ mask_input: f32([1, 1, 256, 256], junk), has_mask_input: f32([1], [1]) }));
    expect((on.low_res_masks.data as Float32Array)[0]).toBeCloseTo((base.low_res_masks.data as Float32Array)[0] + 5, 3);
    // The embeddings shift the predicted IoUs.
    const emb = await decoder.run(baseFeeds({ image_embeddings: f32([1, 256, 64, 64], new Float32Array(256 * 64 * 64).fill(1)) }));
    expect((emb.iou_predictions.data as Float32Array)[0]).toBeCloseTo(TINY_SAM_IOU[0] + 0.01 * Math.tanh(1), 5);
    // orig_im_size sets the output resolution.
    const small = await decoder.run(baseFeeds({ orig_im_size: f32([2], [90, 160]) }));
    expect(small.masks.dims).toEqual([1, 4, 90, 160]);
  });

  it('encodes a 1024x1024 image to [1,256,64,64] that depends on the colours', async () => {
    const x = new Float32Array(3 * 1024 * 1024).fill(1);
    const out = await encoder.run({ input_image: f32([1, 3, 1024, 1024], x) });
    expect(out.image_embeddings.dims).toEqual([1, 256, 64, 64]);
    const y = await encoder.run({ input_image: f32([1, 3, 1024, 1024], new Float32Array(3 * 1024 * 1024)) });
    expect(out.image_embeddings.data).not.toEqual(y.image_embeddings.data);
  });
});

describe('tiny SAM, transformers.js layout', () => {
  it('declares the vision_encoder and prompt_encoder_mask_decoder signatures and runs', async () => {
    const enc = await openTiny('tjs_vision_encoder.onnx');
    const dec = await openTiny('tjs_prompt_encoder_mask_decoder.onnx');
    expect(signature(enc)).toEqual({
      inputs: [['pixel_values', 'float32', ['batch_size', 3, 1024, 1024]]],
      outputs: ['image_embeddings', 'image_positional_embeddings'],
    });
    expect(signature(dec)).toEqual({
      inputs: [
        ['input_points', 'float32', ['batch_size', 'point_batch_size', 'num_points', 2]],
        ['input_labels', 'int64', ['batch_size', 'point_batch_size', 'num_points']],
        ['image_embeddings', 'float32', ['batch_size', 256, 64, 64]],
        ['image_positional_embeddings', 'float32', ['batch_size', 256, 64, 64]],
      ],
      outputs: ['iou_scores', 'pred_masks'],
    });
    expect(detectRole(enc)).toBe('sam-tjs-encoder');
    expect(detectRole(dec)).toBe('sam-tjs-decoder');
    const e = await enc.run({ pixel_values: f32([1, 3, 1024, 1024], new Float32Array(3 * 1024 * 1024)) });
    const d = await dec.run({
      input_points: f32([1, 1, 1, 2], [300, 200]),
      input_labels: i64([1, 1, 1], [1]),
      image_embeddings: e.image_embeddings,
      image_positional_embeddings: e.image_positional_embeddings,
    });
    expect(d.iou_scores.dims).toEqual([1, 1, 3]);
    expect(d.pred_masks.dims).toEqual([1, 1, 3, 256, 256]);
    const iou = [...(d.iou_scores.data as Float32Array)];
    iou.forEach((v, k) => expect(Math.abs(v - TINY_TJS_IOU[k])).toBeLessThan(0.011));
  });
});

describe('tiny CLIP towers and tokenizer', () => {
  it('declares the transformers.js CLIP signatures', async () => {
    const v = await openTiny('clip_vision.onnx');
    const t = await openTiny('clip_text.onnx');
    expect(signature(v)).toEqual({ inputs: [['pixel_values', 'float32', ['batch_size', 3, 224, 224]]], outputs: ['image_embeds'] });
    expect(signature(t)).toEqual({ inputs: [['input_ids', 'int64', ['batch_size', 'sequence_length']]], outputs: ['text_embeds'] });
    expect(detectRole(v)).toBe('clip-vision');
    expect(detectRole(t)).toBe('clip-text');
  });

  it('vision: un-normalises and embeds the mean colour on axes 0..2', async () => {
    const v = await openTiny('clip_vision.onnx');
    const plane = 224 * 224;
    const px = new Float32Array(3 * plane);
    const rgb = [1, 0.5, 0];
    for (let c = 0; c < 3; c++) px.fill((rgb[c] - CLIP_MEAN[c]) / CLIP_STD[c], c * plane, (c + 1) * plane);
    const out = await v.run({ pixel_values: f32([1, 3, 224, 224], px) });
    const e = out.image_embeds.data as Float32Array;
    expect(out.image_embeds.dims).toEqual([1, 512]);
    expect([e[0], e[1], e[2]].map((x) => +x.toFixed(4))).toEqual(rgb);
    expect(e[3]).toBeCloseTo(TINY_VISION_BIAS, 5);
    expect(e.subarray(8).every((x) => x === 0)).toBe(true);
  });

  it('tokenizer: every vocabulary word is one token, with CLIP start/end ids', () => {
    const tok = new Tokenizer(tinyTokenizerJson() as object, {});
    for (const w of [...TINY_COLOUR_WORDS, ...TINY_WORDS]) {
      const { ids, tokens } = tok.encode(w);
      expect(tokens, w).toEqual(['<|startoftext|>', `${w}</w>`, '<|endoftext|>']);
      expect(ids[0]).toBe(CLIP_BOS);
      expect(ids[2]).toBe(CLIP_EOS);
      expect(ids[1]).toBeLessThan(255);
    }
  });

  it('text: colour words land on the colour axes, BOS/EOS/padding contribute nothing', async () => {
    const t = await openTiny('clip_text.onnx');
    const tok = new Tokenizer(tinyTokenizerJson() as object, {});
    const ids = (text: string) => {
      const e = tok.encode(text).ids;
      return [...e, ...new Array<number>(77 - e.length).fill(CLIP_EOS)];
    };
    const out = await t.run({ input_ids: i64([3, 77], [...ids('red'), ...ids('a red apple'), ...ids('blue')]) });
    const e = out.text_embeds.data as Float32Array;
    expect([...e.subarray(0, 8)]).toEqual([1, 0, 0, 0, 0, 0, 0, 0]);
    expect(e[512]).toBe(1);
    expect(e.subarray(515, 520).some((x) => x > 0)).toBe(true); // "a" and "apple" on axes 3..7
    expect([...e.subarray(1024, 1027)]).toEqual([0, 0, 1]);
    expect(tinyFiles()['clip_tokenizer.json'].length).toBeLessThan(8000);
  });
});
