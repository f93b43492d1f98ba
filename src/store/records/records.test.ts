import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyClipStep } from '../clipEvents';
import { addComment, replyToComment } from '../comments';
import type { SpocDb } from '../db';
import { putFrameVerdict } from '../frameVerdicts';
import { commitClipImport } from '../importCommit';
import { saveLayerEdit } from '../layers';
import { createProject } from '../projects';
import { putFlagDismissal } from '../reviewFlags';
import { H, W, freshDb, gtLayer, importDraft, rleFromPicture, rleWithArea } from '../../testing/storeFixtures';
import type { Clip } from '../types';
import {
  RecordCheck,
  checkClip,
  checkClipEvent,
  checkComment,
  checkFlagDismissal,
  checkFrame,
  checkFrameVerdict,
  checkLayer,
  checkProject,
  checkRevision,
} from '.';

/*
 * Every validator accepts, as a stored row, every row the app itself writes (made here through the
 * real store functions), and refuses hand-made bad rows naming the field.
 */

let db: SpocDb;
let clip: Clip;
const check = () => new RecordCheck('row');
const strip = <T extends { seq?: number }>({ seq: _seq, ...rest }: T) => rest;

beforeEach(async () => {
  db = await freshDb();
  const project = await createProject(db, { name: 'p', settings: { thresholds: { peel: { tau: 0.5, delta: 0.1 } } } });
  const draft = importDraft(project.id, 3, { layers: [gtLayer(0, 5, 2)] });
  draft.frames[1].name = 'img_1';
  draft.frames[1].ignored = { reason: 'too_blurry', note: 'motion', by: 'ann', at: 3 };
  draft.frames[2].phase = 'end';
  draft.frames[2].reviewed = true;
  draft.clip.source.video = { sha256: 'a'.repeat(64), size: 10, type: 'video/mp4', fileName: 'v.mp4', nativeFps: 30, durationSec: 3, startSec: 0 };
  clip = await commitClipImport(db, draft);
  const provenance = { kind: 'manual' as const, by: 'ann', at: 10, from: 'brush', confidence: 0.5 };
  await saveLayerEdit(db, {
    layer: { clipId: clip.id, frameIndex: 1, source: 'gt', act: rleWithArea(H, W, 3), trf: rleWithArea(H, W, 0), provenance, instances: { tags: [{ id: 1, x: 0, y: 0 }] } },
    revision: { clipId: clip.id, frameIndex: 1, source: 'gt', author: 'ann', at: 10, action: 'brush', box: { x: 0, y: 0, w: 2, h: 1 }, before: rleFromPicture(['..']), after: rleFromPicture(['#.']), afterTrf: rleFromPicture(['..']) },
  });
  await putFlagDismissal(db, { clipId: clip.id, source: 'gt', flagId: 'speck:1:00ab', kind: 'speck', frameIndex: 1, box: { x: 0, y: 0, w: 2, h: 2 }, reason: ' a crumb ', by: 'rev', at: 11 });
  await putFrameVerdict(db, { clipId: clip.id, frameIndex: 2, verdict: 'reject', by: 'rev', note: 'hole' });
  const root = await addComment(db, { clipId: clip.id, frameIndex: 2, x: 7.6, y: 5.5, author: 'rev', text: ' look ' });
  await replyToComment(db, root.id, { author: 'ann', text: 'fixed' });
  await applyClipStep(db, clip.id, { action: 'submit', by: 'ann', note: 'done' }, () => ({ ok: true, to: 'submitted', note: 'done' }));
});
afterEach(() => db.close());

describe('row validators', () => {
  it('accept every row the app writes, as stored rows, unchanged', async () => {
    const stored = await db.clips.get(clip.id);
    expect(checkClip(check(), stored, '', 'stored')).toEqual(stored);
    for (const f of await db.frames.toArray()) expect(checkFrame(check(), f, '', clip.id, 'stored')).toEqual(f);
    const layers = await db.layers.toArray();
    expect(layers.some((l) => l.instances?.tags?.length === 1)).toBe(true);
    for (const l of layers) expect(checkLayer(check(), l, '', clip, 'stored')).toEqual(l);
    const revisions = await db.revisions.toArray();
    expect(revisions).toHaveLength(1);
    for (const r of revisions) expect(checkRevision(check(), r, '', clip, 'stored')).toEqual(r);
    for (const f of await db.reviewFlags.toArray()) expect(checkFlagDismissal(check(), f, '', clip, 'stored')).toEqual(f);
    for (const v of await db.frameVerdicts.toArray()) expect(checkFrameVerdict(check(), strip(v), '', clip, 'stored')).toEqual(strip(v));
    for (const e of await db.clipEvents.toArray()) expect(checkClipEvent(check(), strip(e), '', clip, 'stored')).toEqual(strip(e));
    const comments = await db.comments.toArray();
    expect(comments).toHaveLength(2);
    for (const c of comments) expect(checkComment(check(), c, '', clip, 'stored')).toEqual(c);
    for (const p of await db.projects.toArray()) expect(checkProject(check(), p, '', 'stored')).toEqual(p);
  });

  it('refuse hand-made bad rows, naming the field', async () => {
    const layer = (await db.layers.toArray())[0];
    const revision = (await db.revisions.toArray())[0];
    const frame = (await db.frames.toArray())[1];
    const flag = (await db.reviewFlags.toArray())[0];
    const verdict = strip((await db.frameVerdicts.toArray())[0]);
    const event = strip((await db.clipEvents.toArray())[0]);
    const comment = (await db.comments.toArray())[0];
    const project = (await db.projects.toArray())[0];
    const stored = (await db.clips.get(clip.id))!;
    const cases: [() => unknown, RegExp][] = [
      [() => checkClip(check(), { ...stored, status: 'done' }, '', 'stored'), /^row: status must be one of/],
      [() => checkClip(check(), { ...stored, width: 0 }, '', 'stored'), /^row: invalid size 0x6/],
      [() => checkClip(check(), { ...stored, source: { ...stored.source, video: { ...stored.source.video, size: -1 } } }, '', 'stored'), /source video reference size must be/],
      [() => checkClip(check(), { ...stored, owner: 'me' }, '', 'stored'), /has unknown field "owner"/],
      [() => checkFrame(check(), { ...frame, phase: 'middle' }, '', clip.id, 'stored'), /phase must be one of/],
      [() => checkFrame(check(), { ...frame, name: ' x' }, '', clip.id, 'stored'), /name has the name " x"/],
      [() => checkFrame(check(), { ...frame, ignored: { reason: 'bored', at: 1 } }, '', clip.id, 'stored'), /ignored is ignored with an unknown reason "bored"/],
      [() => checkLayer(check(), { ...layer, frameIndex: 3 }, '', clip, 'stored'), /frame index 3 is outside the clip, which has 3 frames/],
      [() => checkLayer(check(), { ...layer, actArea: 40 }, '', clip, 'stored'), /actArea is 40 but the actionable RLE has \d+ pixels/],
      [() => checkLayer(check(), { ...layer, trf: rleWithArea(W, H, 1) }, '', clip, 'stored'), /transformed mask is 6x8 but must be 8x6/],
      [() => checkLayer(check(), { ...layer, provenance: { ...layer.provenance, kind: 'guess' } }, '', clip, 'stored'), /provenance\.kind must be one of/],
      [() => checkLayer(check(), { ...layer, source: 'pred:' }, '', clip, 'stored'), /source is "pred:": Unknown layer source/],
      [() => checkLayer(check(), { ...layer, instances: { tags: [{ id: 0, x: 1, y: 1 }] } }, '', clip, 'stored'), /instances\.tags\[0\]\.id is 0/],
      [() => checkLayer(check(), { ...layer, instances: 5 }, '', clip, 'stored'), /instances must be an object/],
      [() => checkRevision(check(), { ...revision, box: { x: 7, y: 0, w: 2, h: 1 } }, '', clip, 'stored'), /Revision box 2x1 at \(7, 0\) is not inside the 8x6 frame/],
      [() => checkRevision(check(), { ...revision, author: ' ' }, '', clip, 'stored'), /author must not be empty/],
      [() => checkRevision(check(), { ...revision, after: rleFromPicture(['#']) }, '', clip, 'stored'), /revision "after" patch is 1x1 but must be 2x1/],
      [() => checkFlagDismissal(check(), { ...flag, frameIndex: 9 }, '', clip, 'stored'), /frame index is 9, outside the clip's 3 frames/],
      [() => checkFlagDismissal(check(), { ...flag, reason: '' }, '', clip, 'input'), /reason must not be empty/],
      [() => checkFrameVerdict(check(), { ...verdict, verdict: 'maybe' }, '', clip, 'stored'), /verdict must be one of/],
      [() => checkFrameVerdict(check(), { ...verdict, note: 'x'.repeat(2001) }, '', clip, 'stored'), /note is 2001 characters long/],
      [() => checkClipEvent(check(), { ...event, to: 'done' }, '', clip, 'stored'), /to must be one of/],
      [() => checkClipEvent(check(), { ...event, clipId: 'other' }, '', clip, 'stored'), /clipId is "other", not this clip/],
      [() => checkComment(check(), { ...comment, x: 9 }, '', clip, 'stored'), /x is 9; it must be between 0 and 8/],
      [() => checkComment(check(), { ...comment, resolved: 'yes' }, '', clip, 'stored'), /resolved must be true or false/],
      [() => checkProject(check(), { ...project, settings: { ...project.settings, sampleFps: 0 } }, '', 'stored'), /settings\.sampleFps must be positive/],
      [() => checkProject(check(), { ...project, name: ' ' }, '', 'stored'), /name must not be empty: a project needs a name/],
    ];
    for (const [run, message] of cases) expect(run, String(message)).toThrow(message);
  });
});
