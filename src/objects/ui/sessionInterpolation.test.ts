/**
 * Interpolation written through the editor session (docs/objects.md "Keyframes and interpolation"),
 * with a stand-in tracker that moves the mask one column per frame: frames between keyframes get
 * the object with provenance `interpolated` and a confidence, keyframes and other objects stay.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SpocDb } from '../../store/db';
import { getLayer, listLayers } from '../../store/layers';
import { createClipObject } from '../../store/objects';
import { createProject } from '../../store/projects';
import { commitClipImport } from '../../store/importCommit';
import type { Clip, ClipObject } from '../../store/types';
import { decodeRle, type CocoRle } from '../../masks/rle';
import { freshDb, importDraft, W, H } from '../../testing/storeFixtures';
import { codecFor } from '../../annotator/pixelCodec';
import { EditorSession } from '../../annotator/session/editorSession';
import { toggleKeyframe } from '../keyframes';
import { DEFAULT_SPAN_RULES } from '../interpolation/spans';
import type { DirectionalStep } from '../interpolation/run';
import { DEFAULT_SETTINGS, interpolateObjects } from './sessionInterpolation';

let db: SpocDb;
let clip: Clip;
let cup: ClipObject;
let lid: ClipObject;
beforeEach(async () => {
  db = await freshDb();
  const project = await createProject(db, { name: 'V', kind: 'objects' });
  clip = await commitClipImport(db, importDraft(project.id, 5, { layers: [] }));
  cup = await createClipObject(db, { clipId: clip.id, by: 'ann', name: 'cup' });
  lid = await createClipObject(db, { clipId: clip.id, by: 'ann', name: 'lid' });
});
afterEach(() => db.close());

/** Moves the mask `speed` columns per frame in the direction of travel, confidence 0.9 per step. */
const shifting =
  (speed: number): DirectionalStep =>
  async (direction, _from, previous, chain) => {
    const d = (direction === 'forward' ? 1 : -1) * speed;
    const data = new Uint8Array(previous.data.length);
    for (let i = 0; i < data.length; i++) if (previous.data[i] && (i % W) + d >= 0 && (i % W) + d < W) data[i + d] = 1;
    return { map: { width: W, height: H, data }, confidence: chain.confidence * 0.9, depth: chain.depth + 1 };
  };

/** Paints `id` as columns x..x+1 of rows 1–2 on frame k and marks it a keyframe. */
async function keyframe(s: EditorSession, k: number, id: string, x: number) {
  const slot = s.slotOf(id);
  await s.edit(k, 'paint', (map) => map.data.map((v, i) => (i % W >= x && i % W < x + 2 && [1, 2].includes(Math.floor(i / W)) ? slot : v)));
  await s.edit(k, 'keyframe', () => null, { objects: toggleKeyframe(id, W, H) });
}

async function columnsOf(k: number, id: string): Promise<number[]> {
  const o = (await getLayer(db, clip.id, 'gt', k))?.objects?.find((x) => x.id === id);
  if (!o) return [];
  const px = decodeRle(o.rle as CocoRle);
  return [...new Set([...px.keys()].filter((i) => px[i]).map((i) => i % W))].sort((p, q) => p - q);
}

const settings = { ...DEFAULT_SETTINGS, rules: DEFAULT_SPAN_RULES };

describe('interpolating through the session', () => {
  it('fills frames 1–3 between keyframes 0 and 4 with provenance and confidence, keyframes and other objects untouched', async () => {
    const project = await db.projects.get(clip.projectId);
    const s = await EditorSession.open(db, clip, 'ann', 0, { codec: codecFor(project) });
    await keyframe(s, 0, cup.id, 0);
    await keyframe(s, 4, cup.id, 4);
    // Another object on frame 2 where the cup will pass: it keeps its pixel.
    const lidSlot = s.slotOf(lid.id);
    await s.edit(2, 'paint', (map) => map.data.map((v, i) => (i === 1 * W + 3 ? lidSlot : v)));
    await s.flush();
    const before = [await getLayer(db, clip.id, 'gt', 0), await getLayer(db, clip.id, 'gt', 4)];
    const reports = await interpolateObjects(s, [{ id: cup.id, hand: false }], settings, { step: shifting(1), layers: () => listLayers(db, clip.id, 'gt'), by: 'test tracker' });
    await s.flush();
    expect(reports[0].spans).toMatchObject([{ a: 0, b: 4, status: 'written', verdict: 'unchecked', frames: 3 }]);
    expect([await columnsOf(1, cup.id), await columnsOf(2, cup.id), await columnsOf(3, cup.id)]).toEqual([[1, 2], [2, 3], [3, 4]]);
    for (const k of [1, 2, 3]) {
      const o = (await getLayer(db, clip.id, 'gt', k))!.objects!.find((x) => x.id === cup.id)!;
      expect(o.provenance).toMatchObject({ kind: 'interpolated', by: 'test tracker', from: 'keyframes 1–5' });
      expect(o.provenance!.confidence).toBeGreaterThan(0);
      expect(o.keyframe).toBeUndefined();
    }
    // t=1: 0.75·0.9 + 0.25·0.729
    expect((await getLayer(db, clip.id, 'gt', 1))!.objects!.find((x) => x.id === cup.id)!.provenance!.confidence).toBeCloseTo(0.85725, 10);
    expect(await columnsOf(2, lid.id)).toEqual([3]);
    expect([await getLayer(db, clip.id, 'gt', 0), await getLayer(db, clip.id, 'gt', 4)]).toEqual(before);
    expect(s.snapshot.frameIndex).toBe(0);
    await s.close();
  });

  it('keeps a span only when the interpolation across a held-out keyframe reaches the J&F threshold', async () => {
    const project = await db.projects.get(clip.projectId);
    const s = await EditorSession.open(db, clip, 'ann', 0, { codec: codecFor(project) });
    await keyframe(s, 0, cup.id, 0);
    await keyframe(s, 2, cup.id, 2);
    await keyframe(s, 4, cup.id, 4);
    const run = (speed: number) => interpolateObjects(s, [{ id: cup.id, hand: false }], settings, { step: shifting(speed), layers: () => listLayers(db, clip.id, 'gt'), by: 't' });
    const still = await run(0);
    expect(still[0].checks.map((c) => [c.k, c.j])).toEqual([[2, 0]]);
    expect(still[0].spans.map((sp) => [sp.a, sp.b, sp.status])).toEqual([[0, 2, 'rejected'], [2, 4, 'rejected']]);
    await s.flush();
    expect(await columnsOf(1, cup.id)).toEqual([]);
    const moving = await run(1);
    expect(moving[0].checks[0].jf).toBe(1);
    expect(moving[0].spans.map((sp) => [sp.a, sp.b, sp.status, sp.verdict])).toEqual([[0, 2, 'written', 'kept'], [2, 4, 'written', 'kept']]);
    await s.close();
  });
});
