/**
 * Tiny CLIP towers with the transformers.js export signatures:
 * vision `pixel_values` f32 [b,3,224,224] -> `image_embeds` [b,512];
 * text `input_ids` int64 [b,seq] -> `text_embeds` [b,512].
 *
 * Both embed into the same 512-d space whose first 8 axes carry meaning (the rest are zero):
 * - axes 0..2 = red, green, blue. The vision tower undoes CLIP's normalisation in-graph, takes the
 *   mean colour of the image and writes it there, plus a constant 0.1 on axes 3..7 (so a black
 *   image is not a zero vector). Wrong preprocessing (mean/std, channel order) shows up in tests.
 * - the text tower is a bag of tokens: one-hot of min(id, 255) summed over the sequence, times a
 *   [256, 8] table. The toy tokenizer's "red"/"green"/"blue" rows are the colour axes; every other
 *   word has a small fixed positive row on axes 3..7; row 255 (BOS/EOS/padding, clamped) is zero.
 * So a red crop scores higher against "a red apple" than against "a green apple", by a margin a
 * test can compute.
 */
import { attr, GraphBuilder } from '../graphBuilder';
import { encodeModel } from '../modelProto';
import { hashWeights } from './discDecoder';
import { buildTinyClipTokenizer, TINY_COLOUR_WORDS } from './clipTokenizer';

export const CLIP_EMBED_DIM = 512;
export const CLIP_IMAGE_SIDE = 224;
export const CLIP_MEAN = [0.48145466, 0.4578275, 0.40821073] as const;
export const CLIP_STD = [0.26862954, 0.26130258, 0.27577711] as const;
/** One-hot width of the tiny text tower; ids >= this are clamped onto the last (zero) row. */
export const TINY_TEXT_ROWS = 256;
const MEANING_DIMS = 8;
/** Constant the tiny vision tower adds on axes 3..7. */
export const TINY_VISION_BIAS = 0.1;

export function buildTinyClipVision(): Uint8Array {
  const g = new GraphBuilder('tiny_clip_vision');
  const x = g.input('pixel_values', 'float32', ['batch_size', 3, CLIP_IMAGE_SIDE, CLIP_IMAGE_SIDE]);
  const rgb = g.op('Add', [g.op('Mul', [x, g.f32([...CLIP_STD], [1, 3, 1, 1])]), g.f32([...CLIP_MEAN], [1, 3, 1, 1])]);
  const mean = g.op('ReduceMean', [rgb], { axes: attr.ints([2, 3]), keepdims: attr.i(0) });
  const w = new Array<number>(3 * MEANING_DIMS).fill(0);
  for (let c = 0; c < 3; c++) w[c * MEANING_DIMS + c] = 1;
  const bias = [0, 0, 0, ...new Array<number>(MEANING_DIMS - 3).fill(TINY_VISION_BIAS)];
  const small = g.op('Add', [g.op('MatMul', [mean, g.f32(w, [3, MEANING_DIMS])]), g.f32(bias)]);
  const embeds = g.op('Pad', [small, g.i64([0, 0, 0, CLIP_EMBED_DIM - MEANING_DIMS])]);
  g.output('image_embeds', 'float32', ['batch_size', CLIP_EMBED_DIM], embeds);
  return encodeModel({ graph: g.build('SPOC Studio tiny CLIP vision tower (mean colour)'), opset: 17 });
}

/** The [TINY_TEXT_ROWS, 8] token table, built from the toy tokenizer's vocabulary. */
export function tinyTextTable(vocab: ReadonlyMap<string, number>): number[] {
  const table = new Array<number>(TINY_TEXT_ROWS * MEANING_DIMS).fill(0);
  for (const [token, id] of vocab) {
    if (id >= TINY_TEXT_ROWS - 1) throw new Error(`tiny tokenizer id ${id} (${token}) does not fit the text tower`);
    const colour = TINY_COLOUR_WORDS.indexOf(token.replace('</w>', '') as (typeof TINY_COLOUR_WORDS)[number]);
    if (colour >= 0 && token.endsWith('</w>')) {
      table[id * MEANING_DIMS + colour] = 1;
    } else {
      const row = hashWeights(MEANING_DIMS - 3, 100 + id, 0.3).map(Math.abs);
      row.forEach((v, k) => (table[id * MEANING_DIMS + 3 + k] = v));
    }
  }
  return table;
}

export function buildTinyClipText(vocab: ReadonlyMap<string, number> = buildTinyClipTokenizer().vocab): Uint8Array {
  const g = new GraphBuilder('tiny_clip_text');
  const ids = g.input('input_ids', 'int64', ['batch_size', 'sequence_length']);
  const clamped = g.op('Min', [ids, g.i64([TINY_TEXT_ROWS - 1], [])]);
  const onehot = g.op('OneHot', [clamped, g.i64([TINY_TEXT_ROWS], []), g.f32([0, 1])], { axis: attr.i(-1) });
  const bag = g.op('ReduceSum', [onehot, g.i64([1])], { keepdims: attr.i(0) });
  const small = g.op('MatMul', [bag, g.f32(tinyTextTable(vocab), [TINY_TEXT_ROWS, MEANING_DIMS])]);
  const embeds = g.op('Pad', [small, g.i64([0, 0, 0, CLIP_EMBED_DIM - MEANING_DIMS])]);
  g.output('text_embeds', 'float32', ['batch_size', CLIP_EMBED_DIM], embeds);
  return encodeModel({ graph: g.build('SPOC Studio tiny CLIP text tower (bag of tokens)'), opset: 17 });
}
