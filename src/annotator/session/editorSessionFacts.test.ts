/**
 * Per-frame facts of objects through `EditorSession.edit` (EditOptions.objects): a keyframe mark
 * alone writes the layer without a revision, and an edit of a frame that is not shown writes its
 * pixels and its objects' provenance in one write (docs/objects.md "Keyframes and interpolation").
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SpocDb } from '../../store/db';
import { getLayer } from '../../store/layers';
import { listRevisions } from '../../store/revisions';
import { createClipObject } from '../../store/objects';
import { createProject } from '../../store/projects';
import { commitClipImport } from '../../store/importCommit';
import type { Clip, ClipObject } from '../../store/types';
import { freshDb, importDraft } from '../../testing/storeFixtures';
import { stroke } from '../../testing/sessionFixtures';
import { codecFor } from '../pixelCodec';
import { toggleKeyframe, withProvenance } from '../../objects/keyframes';
import { EditorSession } from './editorSession';

let db: SpocDb;
let clip: Clip;
let pan: ClipObject;
beforeEach(async () => {
  db = await freshDb();
  const project = await createProject(db, { name: 'V', kind: 'objects' });
  clip = await commitClipImport(db, importDraft(project.id, 3, { layers: [] }));
  pan = await createClipObject(db, { clipId: clip.id, by: 'ann', name: 'pan' });
});
afterEach(() => db.close());

async function open(): Promise<EditorSession> {
  const project = await db.projects.get(clip.projectId);
  return EditorSession.open(db, clip, 'ann', 0, { codec: codecFor(project) });
}

describe('object facts through an edit', () => {
  it('a keyframe mark writes the layer, no revision, and survives the next stroke; marking again unmarks', async () => {
    const s = await open();
    s.setBrushSize(1);
    s.setClass(s.slotOf(pan.id));
    stroke(s, 1.5);
    expect((await s.edit(0, 'keyframe', () => null, { objects: toggleKeyframe(pan.id, clip.width, clip.height) })).status).toBe('applied');
    stroke(s, 2.5);
    await s.flush();
    const layer = (await getLayer(db, clip.id, 'gt', 0))!;
    expect(layer.objects?.map((o) => [o.id, o.keyframe, o.area])).toEqual([[pan.id, true, 2 * clip.width]]);
    expect((await listRevisions(db, clip.id, 'gt', 0)).length).toBe(2);
    expect((await s.edit(0, 'keyframe', () => null, { objects: toggleKeyframe(pan.id, clip.width, clip.height) })).status).toBe('applied');
    await s.flush();
    expect((await getLayer(db, clip.id, 'gt', 0))!.objects?.[0].keyframe).toBeUndefined();
    // Facts that change nothing write nothing.
    expect((await s.edit(0, 'noop', () => null, { objects: (o) => [...o] })).status).toBe('unchanged');
    await s.close();
  });

  it('pixels and provenance of a frame that is not shown land in one write, one undo step on that frame', async () => {
    const s = await open();
    const slot = s.slotOf(pan.id);
    const provenance = { kind: 'interpolated' as const, by: 'test', at: 5, from: 'keyframes 1–3', confidence: 0.75 };
    const out = await s.edit(1, 'interpolate', (map) => map.data.map((_, i) => (i < clip.width ? slot : 0)), { objects: withProvenance(pan.id, provenance) });
    expect(out.status).toBe('applied');
    await s.flush();
    const layer = (await getLayer(db, clip.id, 'gt', 1))!;
    expect(layer.objects?.map((o) => [o.id, o.area, o.provenance])).toEqual([[pan.id, clip.width, provenance]]);
    expect((await listRevisions(db, clip.id, 'gt', 1)).map((r) => r.action)).toEqual(['interpolate']);
    expect(s.snapshot.frameIndex).toBe(0);
    await s.close();
  });
});
