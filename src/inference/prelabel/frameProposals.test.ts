/**
 * One frame's automatic proposals on the tiny models (real ORT in process). Tiny SAM: discs of
 * radius 6/3/8/16 px around each grid point of a 128x96 frame (the 3 px one is under 50 px); tiny
 * CLIP: a crop's embedding is its mean colour, prompts "red apple" / "green apple" separate red
 * from green (see prelabelClip.test.ts for the geometry of this frame).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RgbaImage } from '../../masks/labelMap';
import { labelProposal } from '../spoc/eq1';
import type { InferenceClient } from '../runtime/inferenceClient';
import { inProcessClient, solidImage, tinyFiles } from '../../testing/inference';
import { proposeFrame } from './frameProposals';

const W = 128;
const H = 96;
const bytes = (path: string) => ({ bytes: tinyFiles()[path].slice() });

function halves(): RgbaImage {
  const data = new Uint8ClampedArray(W * H * 4);
  for (let i = 0; i < W * H; i++) {
    const x = i % W;
    const y = Math.floor(i / W);
    data.set(y >= 72 ? [0, 0, 255, 255] : x < 64 ? [255, 0, 0, 255] : [0, 255, 0, 255], i * 4);
  }
  return { width: W, height: H, data };
}

let client: InferenceClient;
beforeAll(async () => {
  client = inProcessClient();
  await client.load({ modelId: 'sam', family: 'sam-official', files: { encoder: bytes('sam_encoder.onnx'), decoder: bytes('sam_decoder.onnx') } });
  await client.load({ modelId: 'clip', family: 'clip', files: { vision: bytes('clip_vision.onnx'), text: bytes('clip_text.onnx'), tokenizer: bytes('clip_tokenizer.json') } });
});
afterAll(() => client.destroy());

describe('proposeFrame', () => {
  it('grid -> NMS -> CLIP scores; Eq. 1 on them labels red actionable, green transformed, blue background', async () => {
    const stages = new Set<string>();
    const r = await proposeFrame(client, halves(), {
      sam: 'sam',
      clip: { modelId: 'clip', actionable: 'red apple', transformed: 'green apple' },
      gridSize: 4,
      frameKey: 'f0',
      onProgress: (s) => stages.add(s),
    });
    expect([...stages]).toEqual(['embedding', 'decoding', 'scoring']);
    expect(r).toMatchObject({ width: W, height: H, points: 16, decoded: 64 });
    expect(r.proposals).toHaveLength(48);
    for (const p of r.proposals) {
      const expected = p.point.y > 72 ? 'background' : p.point.x < 64 ? 'actionable' : 'transformed';
      expect(labelProposal(p.sAct!, p.sTrf!)).toBe(expected);
      expect(p.mask.area).toBeGreaterThanOrEqual(50);
    }
    const t = r.timings;
    expect(t.encodeMs + t.decodeMs + t.clipMs + t.ownMs).toBeLessThanOrEqual(t.totalMs + 1);
  });

  it('without CLIP the proposals are unscored; a cancelled signal rejects', async () => {
    const r = await proposeFrame(client, solidImage(W, H, [9, 9, 9]), { sam: 'sam', gridSize: 2, frameKey: 'f1' });
    expect(r.proposals).toHaveLength(12);
    expect(r.proposals.every((p) => p.sAct === null && p.sTrf === null)).toBe(true);
    const ac = new AbortController();
    ac.abort();
    await expect(proposeFrame(client, solidImage(W, H, [9, 9, 9]), { sam: 'sam', frameKey: 'f2', signal: ac.signal })).rejects.toMatchObject({ name: 'AbortError' });
  });
});
