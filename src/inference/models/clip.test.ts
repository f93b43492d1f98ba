import { beforeAll, describe, expect, it } from 'vitest';
import { CLIP_BOS, CLIP_EOS } from '../onnx/tiny/clipTokenizer';
import { cosine } from '../spoc/similarity';
import { openTiny, solidImage, tinyTokenizerJson } from '../../testing/inference';
import { createClipAdapter, type ClipAdapter } from './clip';
import { CLIP_MEAN, CLIP_STD, clipPixelValues, clipResizeShape } from './clipPreprocess';
import { CLIP_CONTEXT_LENGTH, createClipTokenizer } from './clipText';
import type { ModelSession } from './session';

describe('CLIP preprocessing', () => {
  it('resizes the shortest side to 224, truncating the long side like int()', () => {
    expect(clipResizeShape(640, 360)).toEqual({ width: 398, height: 224 }); // 224 * 640 / 360 = 398.2
    expect(clipResizeShape(100, 300)).toEqual({ width: 224, height: 672 });
    expect(clipResizeShape(50, 50)).toEqual({ width: 224, height: 224 });
  });

  it('normalises with CLIP mean/std into a [3,224,224] plane', () => {
    const px = clipPixelValues(solidImage(300, 200, [255, 0, 51]));
    expect(px.length).toBe(3 * 224 * 224);
    const want = [1, 0, 0.2].map((v, c) => (v - CLIP_MEAN[c]) / CLIP_STD[c]);
    for (let c = 0; c < 3; c++) {
      expect(px[c * 224 * 224]).toBeCloseTo(want[c], 5);
      expect(px[(c + 1) * 224 * 224 - 1]).toBeCloseTo(want[c], 5);
    }
  });

  it('centre-crops: only the middle of a wide image is seen', () => {
    // 448x224 -> no resize; the crop is x in [112, 336). Left quarter red, rest blue.
    const img = solidImage(448, 224, [0, 0, 255]);
    for (let y = 0; y < 224; y++) for (let x = 0; x < 112; x++) img.data.set([255, 0, 0, 255], (y * 448 + x) * 4);
    const px = clipPixelValues(img);
    const red = (1 - CLIP_MEAN[0]) / CLIP_STD[0];
    expect(px.subarray(0, 224 * 224).some((v) => Math.abs(v - red) < 1e-3)).toBe(false);
  });
});

describe('CLIP text tokenisation', () => {
  const tok = createClipTokenizer(tinyTokenizerJson());

  it('wraps in start/end tokens and pads to 77 with the end token', () => {
    const t = tok.encode('a red apple');
    expect(t.ids.length).toBe(CLIP_CONTEXT_LENGTH);
    expect(t.ids.slice(0, 5)).toEqual([CLIP_BOS, t.ids[1], t.ids[2], t.ids[3], CLIP_EOS]);
    expect(t.ids.slice(5).every((id) => id === CLIP_EOS)).toBe(true);
    expect(t.attentionMask.slice(0, 6)).toEqual([1, 1, 1, 1, 1, 0]);
    expect(t.truncated).toBe(false);
  });

  it('truncates long text to 77 keeping the end token last', () => {
    const t = tok.encode(Array.from({ length: 100 }, () => 'red').join(' '));
    expect(t.ids.length).toBe(77);
    expect(t.ids[0]).toBe(CLIP_BOS);
    expect(t.ids[76]).toBe(CLIP_EOS);
    expect(t.truncated).toBe(true);
  });

  it('honours a pad_token from tokenizer_config.json', () => {
    const withPad = createClipTokenizer(tinyTokenizerJson(), { pad_token: { content: 'a</w>' } });
    expect(withPad.padId).toBe(withPad.encode('a').ids[1]);
    expect(withPad.encode('red').ids[76]).toBe(withPad.padId);
  });

  it('empty text is just start + end', () => {
    expect(tok.encode('').ids.slice(0, 3)).toEqual([CLIP_BOS, CLIP_EOS, CLIP_EOS]);
    expect(tok.encode('').attentionMask.slice(0, 3)).toEqual([1, 1, 0]);
  });
});

describe('clip adapter on the tiny towers', () => {
  let clip: ClipAdapter;
  beforeAll(async () => {
    clip = createClipAdapter(await openTiny('clip_vision.onnx'), await openTiny('clip_text.onnx'), createClipTokenizer(tinyTokenizerJson()));
  });

  it('a red crop scores higher against "a red apple" than "a green apple", and by the expected margin', async () => {
    const [red, green] = await clip.embedImages([solidImage(120, 80, [255, 0, 0]), solidImage(50, 90, [0, 255, 0])]);
    const [tRed, tGreen] = await clip.embedTexts(['a red apple', 'a green apple']);
    expect(red.length).toBe(512);
    const sRed = cosine(red, tRed);
    const sGreen = cosine(red, tGreen);
    expect(sRed).toBeGreaterThan(sGreen);
    // Image (1,0,0, .1 x5); texts share the "a"/"apple" rows on axes 3..7 and differ by one colour
    // axis, so the gap is exactly 1 / (|image| |text|).
    const imageNorm = Math.hypot(1, 0.1, 0.1, 0.1, 0.1, 0.1);
    const textNorm = Math.hypot(...tRed);
    expect(sRed - sGreen).toBeCloseTo(1 / (imageNorm * textNorm), 4);
    expect(cosine(green, tGreen)).toBeGreaterThan(cosine(green, tRed));
  });

  it('batches: many images give the same embeddings as one at a time', async () => {
    const imgs = Array.from({ length: 20 }, (_, i) => solidImage(30 + i, 40, [i * 10, 255 - i * 10, 100]));
    const all = await clip.embedImages(imgs);
    expect(all).toHaveLength(20);
    const one = await clip.embedImages([imgs[17]]);
    expect([...all[17]]).toEqual([...one[0]]);
  });

  it('feeds attention_mask when the text tower declares it, and one item at a time for a fixed batch of 1', async () => {
    const real = await openTiny('clip_text.onnx');
    const seen: Record<string, number[]>[] = [];
    const withMask: ModelSession = {
      inputNames: ['input_ids', 'attention_mask'],
      outputNames: ['text_embeds'],
      inputMetadata: [
        { name: 'input_ids', type: 'int64', shape: [1, 77] },
        { name: 'attention_mask', type: 'int64', shape: [1, 77] },
      ],
      run: async (feeds, outputs) => {
        seen.push(Object.fromEntries(Object.entries(feeds).map(([k, v]) => [k, [...v.dims]])));
        return real.run({ input_ids: feeds.input_ids }, outputs);
      },
    };
    const a = createClipAdapter(await openTiny('clip_vision.onnx'), withMask, createClipTokenizer(tinyTokenizerJson()));
    const out = await a.embedTexts(['red', 'blue']);
    expect(out).toHaveLength(2);
    expect(seen).toEqual([
      { input_ids: [1, 77], attention_mask: [1, 77] },
      { input_ids: [1, 77], attention_mask: [1, 77] },
    ]);
  });
});
