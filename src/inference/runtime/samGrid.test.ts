/**
 * samDecodeGrid end to end in one process on the tiny SAM (real onnxruntime-web): the batched
 * result equals single decodes cropped on the UI side, small masks are dropped in the worker, and
 * a cancel stops the batch between points.
 *
 * Tiny SAM: discs of radius 48/24/64/128 (1024-frame px) around the click; in a 128x96 frame
 * (scale 1024/128 = 8) radii 6/3/8/16 px, so the 3 px disc (~28 px) is under a 50 px minimum.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cropMask } from '../spoc/croppedMask';
import { pointGrid } from '../spoc/pointGrid';
import { inProcessClient, nodeDeps, solidImage, tinyFiles } from '../../testing/inference';
import { createDispatcher } from './dispatcher';
import type { InferenceClient } from './inferenceClient';
import type { RpcRequest as Request, RpcResponse as Response } from '../../rpc/protocol';
import type { Progress } from './protocol';

const bytes = (path: string) => ({ bytes: tinyFiles()[path].slice() });
const samFiles = () => ({ encoder: bytes('sam_encoder.onnx'), decoder: bytes('sam_decoder.onnx') });

let client: InferenceClient | undefined;
afterEach(() => client?.destroy());

describe('samDecodeGrid (real ORT, tiny SAM)', () => {
  it('returns every candidate of every point, cropped, identical to single decodes', async () => {
    client = inProcessClient();
    await client.load({ modelId: 'sam', family: 'sam-official', files: samFiles() });
    await client.samEncode({ modelId: 'sam', frameKey: 'f', image: solidImage(128, 96, [200, 30, 30]) });
    const points = pointGrid(128, 96, 4);
    const progress: Progress[] = [];
    const all = await client.samDecodeGrid({ modelId: 'sam', frameKey: 'f', points }, { onProgress: (p) => progress.push(p) });
    expect(all).toMatchObject({ width: 128, height: 96, decoded: 64 });
    expect(all.candidates).toHaveLength(64);
    expect(all.modelMs).toBeLessThanOrEqual(all.ms);
    expect(progress.map((p) => p.loaded)).toEqual(Array.from({ length: 16 }, (_, i) => i + 1));
    expect(progress.every((p) => p.phase === 'decode' && p.total === 16)).toBe(true);
    for (const k of [0, 5, 15]) {
      const single = await client.samDecode({ modelId: 'sam', frameKey: 'f', prompt: { points: [{ ...points[k], positive: true }] } });
      const got = all.candidates.filter((c) => c.pointIndex === k);
      expect(got.map((c) => c.maskIndex)).toEqual(single.candidates.map((c) => c.index));
      got.forEach((c, j) => {
        expect(c.iou).toBeCloseTo(single.candidates[j].iou, 6);
        expect(c.mask).toEqual(cropMask(single.candidates[j].mask.data, 128, 96));
      });
    }
    const filtered = await client.samDecodeGrid({ modelId: 'sam', frameKey: 'f', points, minArea: 50 });
    expect(filtered.decoded).toBe(64);
    expect(filtered.candidates).toHaveLength(48);
    expect(filtered.candidates.every((c) => c.mask.area >= 50 && c.maskIndex !== 1)).toBe(true);
  });

  it('runs NMS in the worker when asked: near-duplicates go, the best first', async () => {
    client = inProcessClient();
    await client.load({ modelId: 'sam', family: 'sam-official', files: samFiles() });
    await client.samEncode({ modelId: 'sam', frameKey: 'f', image: solidImage(128, 96, [200, 30, 30]) });
    const points = [
      { x: 40, y: 40 },
      { x: 40.2, y: 40 }, // the same discs shifted by 0.2 px: mask IoU > 0.9
      { x: 100, y: 60 },
    ];
    const r = await client.samDecodeGrid({ modelId: 'sam', frameKey: 'f', points, minArea: 50, nmsIou: 0.9 });
    expect(r.decoded).toBe(12);
    expect(r.candidates).toHaveLength(6);
    expect(r.candidates.map((c) => c.pointIndex).sort()).toEqual([0, 0, 0, 2, 2, 2]);
    const scores = r.candidates.map((c) => c.iou);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(r.nmsMs).toBeLessThanOrEqual(r.ms);
  });

  it('refuses a missing embedding and bad points', async () => {
    client = inProcessClient();
    await client.load({ modelId: 'sam', family: 'sam-official', files: samFiles() });
    await expect(client.samDecodeGrid({ modelId: 'sam', frameKey: 'nope', points: [{ x: 1, y: 1 }] })).rejects.toMatchObject({ name: 'EmbeddingMissing' });
    await client.samEncode({ modelId: 'sam', frameKey: 'f', image: solidImage(64, 48, [0, 0, 0]) });
    await expect(client.samDecodeGrid({ modelId: 'sam', frameKey: 'f', points: [{ x: Number.NaN, y: 1 }] })).rejects.toMatchObject({ name: 'BadRequest' });
  });

  it('a cancel stops the batch between points; the worker answers the next call', async () => {
    const dispatcher = createDispatcher(nodeDeps());
    const responses: Response[] = [];
    let settle: () => void = () => undefined;
    const post = (r: Response) => {
      responses.push(r);
      if (r.kind === 'progress' && r.id === 3 && (r.progress as Progress).loaded === 3) dispatcher.handle({ kind: 'cancel', id: 3 }, post);
      if (r.kind !== 'progress') settle();
    };
    const send = (req: Request) =>
      new Promise<Response>((resolve) => {
        settle = () => resolve(responses[responses.length - 1]);
        dispatcher.handle(req, post);
      });
    expect((await send({ kind: 'call', id: 1, method: 'load', params: { modelId: 'sam', family: 'sam-official', files: samFiles() } })).kind).toBe('result');
    expect((await send({ kind: 'call', id: 2, method: 'samEncode', params: { modelId: 'sam', frameKey: 'f', image: solidImage(64, 48, [9, 9, 9]) } })).kind).toBe('result');
    const points = pointGrid(64, 48, 8); // 64 points
    const end = await send({ kind: 'call', id: 3, method: 'samDecodeGrid', params: { modelId: 'sam', frameKey: 'f', points } });
    expect(end).toMatchObject({ kind: 'error', error: { name: 'AbortError' } });
    const done = responses.filter((r) => r.id === 3 && r.kind === 'progress').map((r) => (r.kind === 'progress' ? ((r.progress as Progress).loaded ?? 0) : 0));
    expect(Math.max(...done)).toBeLessThan(16); // stopped within a few points of the cancel, far from 64
    const again = await send({ kind: 'call', id: 5, method: 'samDecodeGrid', params: { modelId: 'sam', frameKey: 'f', points: points.slice(0, 2) } });
    expect(again.kind).toBe('result');
    await dispatcher.dispose();
  });
});
