import { describe, expect, it } from 'vitest';
import { openTiny, tinyTokenizerJson } from '../../testing/inference';
import { createAdapter } from './adapters';
import { detectRole, expectRole, ModelFormatError } from './detect';
import type { ModelSession } from './session';

/** A session that only has a signature (detection never runs it). */
function fake(inputNames: string[], outputNames: string[], shapes: Record<string, (number | string)[]> = {}): ModelSession {
  return {
    inputNames,
    outputNames,
    inputMetadata: inputNames.map((name) => ({ name, type: 'float32', shape: shapes[name] })),
    run: () => Promise.reject(new Error('not runnable')),
  };
}

describe('detectRole', () => {
  it('recognises real export signatures', () => {
    expect(detectRole(fake(['x'], ['image_embeddings']))).toBe('sam-official-encoder');
    expect(detectRole(fake(['images'], ['image_embeddings']))).toBe('sam-official-encoder');
    expect(detectRole(fake(['pixel_values'], ['image_embeddings', 'image_positional_embeddings']))).toBe('sam-tjs-encoder');
    expect(detectRole(fake(['input_points', 'input_labels', 'image_embeddings', 'image_positional_embeddings', 'input_boxes'], ['iou_scores', 'pred_masks']))).toBe(
      'sam-tjs-decoder',
    );
    expect(detectRole(fake(['input_ids', 'attention_mask'], ['text_embeds', 'last_hidden_state']))).toBe('clip-text');
    expect(detectRole(fake(['pixel_values'], ['image_embeds', 'last_hidden_state']))).toBe('clip-vision');
  });

  it('returns null for anything else', () => {
    expect(detectRole(fake(['input'], ['output']))).toBeNull();
    expect(detectRole(fake(['input_ids', 'pixel_values', 'attention_mask'], ['logits_per_image', 'text_embeds', 'image_embeds']))).toBeNull();
    // A decoder with an input we could not feed: ORT would refuse the run, so refuse the file.
    expect(
      detectRole(fake(['image_embeddings', 'point_coords', 'point_labels', 'mask_input', 'has_mask_input', 'orig_im_size', 'extra'], ['masks', 'iou_predictions'])),
    ).toBeNull();
  });
});

describe('expectRole / adapters refuse the wrong files with a clear message', () => {
  it('names what was expected, what the file has, and what it looks like', async () => {
    const tjsDecoder = await openTiny('tjs_prompt_encoder_mask_decoder.onnx');
    expect(() => expectRole(tjsDecoder, 'sam-official-decoder', 'decoder.onnx')).toThrow(ModelFormatError);
    expect(() => expectRole(tjsDecoder, 'sam-official-decoder', 'decoder.onnx')).toThrow(
      /decoder\.onnx: expected a segment-anything ONNX decoder export with inputs \[image_embeddings, point_coords.*this file has inputs \[input_points, input_labels, image_embeddings, image_positional_embeddings\].*looks like a transformers\.js SAM prompt_encoder_mask_decoder/,
    );
  });

  it('explains a combined CLIP model and an unknown encoder input name', () => {
    expect(() => expectRole(fake(['input_ids', 'pixel_values', 'attention_mask'], ['logits_per_image']), 'clip-vision', 'clip.onnx')).toThrow(
      /combined CLIP model; export the vision and text towers/,
    );
    expect(() => expectRole(fake(['tensor_in'], ['image_embeddings']), 'sam-official-encoder', 'enc.onnx')).toThrow(/not a known SAM encoder input name/);
  });

  it('refuses encoders that take raw HWC pixels', () => {
    expect(() => expectRole(fake(['input_image'], ['image_embeddings'], { input_image: ['h', 'w', 3] }), 'sam-official-encoder', 'enc.onnx')).toThrow(
      /shape \[h,w,3\].*HWC pixels are not supported/,
    );
  });

  it('createAdapter checks every file of the family', async () => {
    const encoder = await openTiny('sam_encoder.onnx');
    const decoder = await openTiny('sam_decoder.onnx');
    const vision = await openTiny('clip_vision.onnx');
    const text = await openTiny('clip_text.onnx');
    expect(createAdapter('sam-official', { encoder, decoder }, {}).kind).toBe('sam');
    expect(() => createAdapter('sam-official', { encoder: decoder, decoder: encoder }, {})).toThrow(/encoder: expected a SAM image encoder/);
    expect(() => createAdapter('sam-transformersjs', { encoder, decoder }, {})).toThrow(/vision_encoder: expected a transformers\.js SAM vision_encoder/);
    expect(() => createAdapter('clip', { vision: text, text: vision }, { tokenizer: tinyTokenizerJson() })).toThrow(/vision model: expected a CLIP vision tower/);
    expect(() => createAdapter('clip', { vision, text }, { tokenizer: { hello: 1 } })).toThrow(/tokenizer\.json: not a Hugging Face tokenizer/);
    expect(() => createAdapter('clip', { vision, text }, {})).toThrow(/needs its "tokenizer" file/);
  });
});
