/**
 * Bundles carry the review workflow (format v2): lifecycle events and comments, exported per clip,
 * validated on import, written in the import's one transaction and merged like the rest.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { applyClipStep } from '../../store/clipEvents';
import { addComment, setCommentResolved } from '../../store/comments';
import type { SpocDb } from '../../store/db';
import { createProject } from '../../store/projects';
import { freshDb, snapshot } from '../../testing/storeFixtures';
import type { ClipComment, ClipEvent } from '../../store/types';
import { ImportError } from '../importError';
import { importBundle } from './importBundle';
import type { ClipConflict } from './merge';
import { asFormat, editJson, exportToBlob, rebuild, seedProject, withoutObjects, withoutRowIds, type SeededProject } from '../../testing/bundleProject';

let a: SpocDb;
let seeded: SeededProject;
const opened: SpocDb[] = [];

async function db(): Promise<SpocDb> {
  const d = await freshDb();
  opened.push(d);
  return d;
}

beforeEach(async () => {
  a = await db();
  seeded = await seedProject(a);
});
afterEach(() => {
  for (const d of opened.splice(0)) d.close();
});

function file(blob: Blob, name = 'Bundle test.spoc.zip'): File {
  return new File([blob], name, { type: 'application/zip' });
}

const clipA = () => seeded.clips[0].id;
const clipJsonOf = (id: string) => `clips/${id}/clip.json`;

async function eventsOf(d: SpocDb, clipId: string): Promise<ClipEvent[]> {
  return (await d.clipEvents.where('[clipId+seq]').between([clipId, 0], [clipId, Infinity]).toArray()).sort((x, y) => x.seq - y.seq);
}
async function commentsOf(d: SpocDb, clipId: string): Promise<ClipComment[]> {
  return (await d.comments.toArray()).filter((c) => c.clipId === clipId).sort((x, y) => (x.id < y.id ? -1 : 1));
}
const noSeq = (events: ClipEvent[]) => events.map(({ seq: _seq, ...rest }) => rest);
const step = (d: SpocDb, clipId: string, action: string, by: string, at: number, to: ClipEvent['to'], note?: string) =>
  applyClipStep(d, clipId, { action, by, at }, () => ({ ok: true, to, note }));

describe('round trip of review work', () => {
  it('carries every event (in order) and comment, so every table is equal in a fresh store', async () => {
    const { blob } = await exportToBlob(a, seeded.project.id);
    const b = await db();
    const result = await importBundle(b, file(blob));
    expect(result.manifest.counts).toMatchObject({ clipEvents: 4, comments: 6 });
    const before = await snapshot(a);
    const after = await snapshot(b);
    const user = (s: Record<string, unknown[]>) => ({ ...s, meta: (s.meta as { key: string }[]).filter((m) => m.key.startsWith('project.')) });
    expect(user(after)).toEqual(user(before));
    for (const c of seeded.clips) {
      const events = await eventsOf(b, c.id);
      expect(events.map((e) => e.action)).toEqual(['submit', 'request_changes']);
      expect(events[1].note).toBe('frame 2 is too loose');
      const comments = await commentsOf(b, c.id);
      expect(comments).toHaveLength(3);
      const reply = comments.find((x) => x.parentId)!;
      expect(comments.find((x) => x.id === reply.parentId)!.resolved).toBe(true);
    }
  });

  it('gives events fresh seq numbers in their original order in a store that has others', async () => {
    const { blob } = await exportToBlob(a, seeded.project.id);
    const b = await db();
    const other = await seedProject(b, 1, 'other'); // takes seqs 1 and 2
    await importBundle(b, file(blob));
    for (const c of seeded.clips) {
      const mine = await eventsOf(a, c.id);
      const theirs = await eventsOf(b, c.id);
      expect(noSeq(theirs)).toEqual(noSeq(mine));
      expect(theirs.every((e) => e.seq > 2)).toBe(true);
    }
    expect(await eventsOf(b, other.clips[0].id)).toHaveLength(2);
  });

  it('still reads format v1 bundles (no events, no comments)', async () => {
    const { blob } = await exportToBlob(a, seeded.project.id);
    const v1 = await rebuild(
      blob,
      (e) => {
        withoutRowIds(e);
        withoutObjects(e);
        for (const c of seeded.clips)
          editJson(e, clipJsonOf(c.id), (d) => {
            delete d.clipEvents;
            delete d.comments;
            delete d.frameVerdicts;
          });
      },
      {
        editManifest: asFormat(1),
      },
    );
    const b = await db();
    const result = await importBundle(b, file(v1));
    expect(result.clips.map((c) => c.outcome)).toEqual(['added', 'added']);
    expect(await b.clipEvents.count()).toBe(0);
    expect(await b.comments.count()).toBe(0);
    expect(await b.layers.count()).toBe(8);
  });
});

describe('merging review work', () => {
  let bundle: File;
  beforeEach(async () => {
    bundle = file((await exportToBlob(a, seeded.project.id)).blob);
  });

  it('counts events and comments in the identical-work check', async () => {
    await step(a, clipA(), 'approve', 'rev', 400, 'approved');
    await addComment(a, { clipId: seeded.clips[1].id, frameIndex: 1, x: 1, y: 1, author: 'rev', text: 'one more', at: 410 });
    const asked: ClipConflict[] = [];
    const result = await importBundle(a, bundle, { onConflict: (_m, c) => (asked.push(c), 'mine') });
    expect(asked.map((c) => c.differences)).toEqual([
      ['status: approved here, changes_requested in the bundle', 'review history differs (3 steps here, 2 in the bundle)'],
      ['comments differ (4 here, 3 in the bundle)'],
    ]);
    expect(asked[0].mine).toMatchObject({ reviewSteps: 3, comments: 3 });
    expect(asked[0].theirs).toMatchObject({ reviewSteps: 2, comments: 3 });
    expect(result.clips.map((c) => c.outcome)).toEqual(['kept-mine', 'kept-mine']);
  });

  it('a resolved flag alone is a difference', async () => {
    const root = (await commentsOf(a, clipA())).find((c) => c.resolved)!;
    await setCommentResolved(a, root.id, false);
    const onConflict = vi.fn(() => 'mine' as const);
    await importBundle(a, bundle, { onConflict });
    expect(onConflict).toHaveBeenCalledTimes(1);
  });

  it('"theirs" replaces my events and comments with the bundle\'s', async () => {
    const eventsBefore = noSeq(await eventsOf(a, clipA()));
    const commentsBefore = await commentsOf(a, clipA());
    await step(a, clipA(), 'approve', 'rev', 400, 'approved');
    await addComment(a, { clipId: clipA(), frameIndex: 1, x: 1, y: 1, author: 'rev', text: 'mine only', at: 410 });
    const result = await importBundle(a, bundle, { onConflict: () => 'theirs' });
    expect(result.clips.map((c) => c.outcome)).toEqual(['took-theirs', 'identical']);
    expect(noSeq(await eventsOf(a, clipA()))).toEqual(eventsBefore);
    expect(await commentsOf(a, clipA())).toEqual(commentsBefore);
    // And now the clip is identical to the bundle.
    const again = await importBundle(a, bundle, { onConflict: vi.fn() });
    expect(again.clips.map((c) => c.outcome)).toEqual(['identical', 'identical']);
  });

  it('"both" appends their events and comments I lack, keeps mine, and is idempotent', async () => {
    // Their copy moves on: approved, with a new comment and a reply to the existing thread.
    const b = await db();
    await importBundle(b, bundle);
    const theirRoot = (await commentsOf(b, clipA())).find((c) => c.resolved)!;
    await step(b, clipA(), 'resubmit', 'ann', 500, 'submitted');
    await step(b, clipA(), 'approve', 'rev', 600, 'approved');
    const theirNew = await addComment(b, { clipId: clipA(), frameIndex: 1, x: 2, y: 2, author: 'rev', text: 'theirs', at: 610 });
    await b.comments.add({ ...theirRoot, id: 'their-reply', parentId: theirRoot.id, resolved: false, text: 'their reply', at: 620 });
    const newer = file((await exportToBlob(b, seeded.project.id, { exportedBy: 'bob' })).blob, 'from-bob.spoc.zip');
    // Mine moves on too.
    await step(a, clipA(), 'start_review', 'me', 450, 'in_review');
    const mineComment = await addComment(a, { clipId: clipA(), frameIndex: 0, x: 1, y: 1, author: 'me', text: 'mine', at: 460 });
    const mineEvents = noSeq(await eventsOf(a, clipA()));

    const result = await importBundle(a, newer, { onConflict: () => 'both' });
    expect(result.clips[0]).toMatchObject({ outcome: 'added-sources', detail: 'their sources were already here; added 2 review steps and 2 comments' });
    const events = await eventsOf(a, clipA());
    expect(noSeq(events).slice(0, 3)).toEqual(mineEvents);
    expect(events.slice(3).map((e) => [e.action, e.by, e.at])).toEqual([
      ['resubmit', 'ann', 500],
      ['approve', 'rev', 600],
    ]);
    expect(events.map((e) => e.seq)).toEqual([...events.map((e) => e.seq)].sort((x, y) => x - y));
    const comments = await commentsOf(a, clipA());
    expect(comments.map((c) => c.id).sort()).toEqual([...(await commentsOf(b, clipA())).map((c) => c.id), mineComment.id].sort());
    expect(comments.find((c) => c.id === theirNew.id)!.text).toBe('theirs');
    expect(comments.find((c) => c.id === 'their-reply')!.parentId).toBe(theirRoot.id);
    // Status differences are kept and reported, never silent.
    expect(result.warnings.join('\n')).toContain("kept this project's status: in_review here, approved in the bundle");
    // Importing it again adds nothing.
    const before = await snapshot(a);
    const again = await importBundle(a, newer, { onConflict: () => 'both' });
    expect(again.clips[0].detail).toBe('their sources were already here');
    const after = await snapshot(a);
    expect(after.clipEvents).toEqual(before.clipEvents);
    expect(after.comments).toEqual(before.comments);
  });

  it('"both" counts repeated steps: one of mine never absorbs two of theirs', async () => {
    const b = await db();
    await importBundle(b, bundle);
    await step(b, clipA(), 'resubmit', 'ann', 700, 'submitted');
    await step(b, clipA(), 'resubmit', 'ann', 700, 'submitted');
    const newer = file((await exportToBlob(b, seeded.project.id)).blob);
    await step(a, clipA(), 'resubmit', 'ann', 700, 'submitted');
    await importBundle(a, newer, { onConflict: () => 'both' });
    expect((await eventsOf(a, clipA())).filter((e) => e.at === 700)).toHaveLength(2);
  });

  it('"both" keeps my version of a comment the bundle has with another state, and says so', async () => {
    const root = (await commentsOf(a, clipA())).find((c) => c.resolved)!;
    await setCommentResolved(a, root.id, false);
    const result = await importBundle(a, bundle, { onConflict: () => 'both' });
    expect(result.warnings).toContain('Clip "clip 0": kept this project\'s version of 1 comment the bundle also has, with other text or state.');
    expect((await a.comments.get(root.id))!.resolved).toBe(false);
  });

  it('copies get new comment ids, replies following their root', async () => {
    const other = await createProject(a, { name: 'Other' });
    const result = await importBundle(a, bundle, { projectId: other.id });
    expect(result.clips.map((c) => c.outcome)).toEqual(['added-copy', 'added-copy']);
    const copy = result.clips[0].id;
    const comments = await commentsOf(a, copy);
    expect(comments).toHaveLength(3);
    const originals = new Set((await commentsOf(a, clipA())).map((c) => c.id));
    expect(comments.some((c) => originals.has(c.id))).toBe(false);
    const reply = comments.find((c) => c.parentId)!;
    expect(comments.some((c) => c.id === reply.parentId)).toBe(true);
    expect((await eventsOf(a, copy)).map((e) => e.action)).toEqual(['submit', 'request_changes']);
    expect(await a.comments.count()).toBe(12);
  });
});

describe('hostile review rows are refused and write nothing', () => {
  const NAME = 'hostile.spoc.zip';
  let good: Blob;
  let target: SpocDb;
  let before: Record<string, unknown[]>;
  beforeEach(async () => {
    good = (await exportToBlob(a, seeded.project.id)).blob;
    target = await db();
    await seedProject(target, 1, 'work that must survive');
    before = await snapshot(target);
  });

  type Doc = { clipEvents: Record<string, unknown>[]; comments: Record<string, unknown>[] };
  const edit = (change: (d: Doc) => void, clipId = clipA()) => rebuild(good, (e) => editJson(e, clipJsonOf(clipId), (d) => change(d as unknown as Doc)));
  const replyOf = (d: Doc) => d.comments.find((c) => c.parentId)!;
  const rootOf = (d: Doc) => d.comments.find((c) => c.id === replyOf(d).parentId)!;

  async function expectRefused(bundle: Blob, problem: string | RegExp): Promise<void> {
    const err = await importBundle(target, new File([bundle], NAME), { onConflict: () => 'both' }).catch((e: unknown) => e);
    expect(err, 'the import should fail').toBeInstanceOf(ImportError);
    const message = (err as Error).message;
    expect(message.startsWith(`${NAME}: ${clipJsonOf(clipA())}: `) || message.startsWith(`${NAME}: `), message).toBe(true);
    if (typeof problem === 'string') expect(message).toContain(problem);
    else expect(message).toMatch(problem);
    expect(await snapshot(target)).toEqual(before);
  }

  it('accepts the untouched bundle (control)', async () => {
    const t = await db();
    await expect(importBundle(t, new File([good], NAME))).resolves.toBeDefined();
  });

  it('comments with a bad parent', async () => {
    await expectRefused(await edit((d) => (replyOf(d).parentId = 'no-such-comment')), 'comments[');
    await expectRefused(await edit((d) => (replyOf(d).parentId = 'no-such-comment')), '.parentId "no-such-comment" is not a comment of this clip');
    // A parent in another clip of the same bundle is not a comment of this clip.
    let otherRoot = '';
    const bundle = await rebuild(good, (e) => {
      editJson(e, clipJsonOf(seeded.clips[1].id), (d) => (otherRoot = (d as unknown as Doc).comments.find((c) => !c.parentId)!.id as string));
      editJson(e, clipJsonOf(clipA()), (d) => (replyOf(d as unknown as Doc).parentId = otherRoot));
    });
    await expectRefused(bundle, /\.parentId "[^"]+" is not a comment of this clip/);
    await expectRefused(
      await edit((d) => {
        const reply = replyOf(d);
        d.comments.push({ ...reply, id: 'reply-to-reply', parentId: reply.id });
      }),
      'is itself a reply (threads are one level deep)',
    );
    await expectRefused(await edit((d) => (replyOf(d).parentId = replyOf(d).id)), 'is itself a reply');
    await expectRefused(await edit((d) => (replyOf(d).frameIndex = 1)), /is on frame 2, not on this reply's frame 1/);
  });

  it('frames and points out of range', async () => {
    await expectRefused(await edit((d) => (d.comments[0].frameIndex = 3)), "comments[0].frameIndex is 3, outside the clip's 3 frames");
    await expectRefused(await edit((d) => (d.comments[0].frameIndex = -1)), 'comments[0].frameIndex is -1');
    await expectRefused(await edit((d) => (d.comments[0].x = 9)), 'comments[0].x is 9; it must be between 0 and 8');
    await expectRefused(await edit((d) => (d.comments[0].y = 1.5)), 'comments[0].y must be an integer');
  });

  it('wrong types, unknown fields and missing rows', async () => {
    await expectRefused(await edit((d) => (rootOf(d).resolved = 'yes')), /comments\[\d\]\.resolved must be true or false/);
    await expectRefused(await edit((d) => (d.comments[0].at = '310')), 'comments[0].at must be a finite number');
    await expectRefused(await edit((d) => (d.comments[0].text = '   ')), 'comments[0].text must not be empty');
    await expectRefused(await edit((d) => (d.comments[0].id = '../x')), 'comments[0].id "../x" is not a valid id');
    await expectRefused(await edit((d) => (d.comments[0].likes = 3)), 'comments[0] has unknown field "likes"');
    await expectRefused(await edit((d) => (d.clipEvents[0].from = 'done')), 'clipEvents[0].from must be one of');
    await expectRefused(await edit((d) => (d.clipEvents[0].at = null)), 'clipEvents[0].at must be a finite number');
    await expectRefused(await edit((d) => (d.clipEvents[1].note = 5)), 'clipEvents[1].note must be a string');
    await expectRefused(await edit((d) => (d.clipEvents[0].seq = 1)), 'clipEvents[0] has unknown field "seq"');
    await expectRefused(await edit((d) => (d.clipEvents[0].by = '')), 'clipEvents[0].by must not be empty');
    await expectRefused(await edit((d) => delete (d as Partial<Doc>).comments), 'comments is missing');
    await expectRefused(await edit((d) => ((d as unknown as Record<string, unknown>).clipEvents = {})), /clipEvents must be an array/);
  });

  it('rows of another clip, duplicate ids, counts that lie', async () => {
    await expectRefused(await edit((d) => (d.clipEvents[0].clipId = seeded.clips[1].id)), `clipEvents[0].clipId is "${seeded.clips[1].id}", not this clip`);
    await expectRefused(await edit((d) => (d.comments[0].clipId = 'elsewhere')), 'comments[0].clipId is "elsewhere", not this clip');
    await expectRefused(await edit((d) => d.comments.push({ ...d.comments[0] })), /comments\[3\]\.id "[^"]+" is the id of another comment too/);
    let theirId = '';
    const dup = await rebuild(good, (e) => {
      editJson(e, clipJsonOf(clipA()), (d) => (theirId = (d as unknown as Doc).comments[0].id as string));
      editJson(e, clipJsonOf(seeded.clips[1].id), (d) => ((d as unknown as Doc).comments[0].id = theirId));
    });
    await expectRefused(dup, /comment id "[^"]+" also appears in another clip/);
    await expectRefused(await rebuild(good, () => {}, { editManifest: (m) => (m.counts.comments = 5) }), 'manifest.json: counts.comments is 5 but the bundle holds 6');
    await expectRefused(await rebuild(good, () => {}, { editManifest: (m) => delete (m.counts as Partial<typeof m.counts>).clipEvents }), 'counts.clipEvents is missing');
    // A v1 manifest cannot smuggle v2 rows.
    await expectRefused(
      await rebuild(good, withoutObjects, {
        editManifest: asFormat(1),
      }),
      'clip.json: has unknown fields "clipEvents", "comments", "frameVerdicts"',
    );
  });
});
