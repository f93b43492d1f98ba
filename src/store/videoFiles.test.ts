import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SpocDb } from './db';
import { commitClipImport } from './importCommit';
import { createProject } from './projects';
import { freshDb, importDraft, storeRejection } from '../testing/storeFixtures';
import { purgeClips, trashClip } from './trash';
import type { Project, SourceVideoRef } from './types';
import { MemoryVideoFiles, UNREFERENCED_GRACE_MS, removeUnreferencedVideos, removeVideosIfUnused } from './videoFiles';
import { sourceVideoProblem } from './validate';

const SHA_A = 'a'.repeat(64);
const SHA_B = 'b'.repeat(64);

function ref(sha256: string): SourceVideoRef {
  return { sha256, size: 10, type: 'video/mp4', fileName: 'x.mp4', nativeFps: 10, durationSec: 3, startSec: 0 };
}

let db: SpocDb;
let project: Project;
beforeEach(async () => {
  db = await freshDb();
  project = await createProject(db, { name: 'P' });
});
afterEach(() => db.close());

async function clipWith(sha: string) {
  const draft = importDraft(project.id, 3);
  draft.clip.source = { ...draft.clip.source, video: ref(sha) };
  return commitClipImport(db, draft);
}

describe('kept source videos', () => {
  it('stores the reference on the clip row', async () => {
    const clip = await clipWith(SHA_A);
    expect((await db.clips.get(clip.id))?.source.video).toEqual(ref(SHA_A));
  });

  it('refuses an import whose reference is malformed, naming the problem', async () => {
    const draft = importDraft(project.id, 3);
    draft.clip.source = { ...draft.clip.source, video: { ...ref(SHA_A), sha256: 'nope' } };
    expect((await storeRejection(commitClipImport(db, draft))).message).toMatch(/source video reference sha256 must be 64/);
  });

  it('removes a file once the last clip using it is deleted for good, not before', async () => {
    const files = new MemoryVideoFiles();
    await files.keep(SHA_A, new Blob(['0123456789']));
    const one = await clipWith(SHA_A);
    const two = await clipWith(SHA_A);
    await trashClip(db, one.id);
    await purgeClips(db, [one.id]);
    expect(await removeVideosIfUnused(db, files, [SHA_A])).toEqual([]);
    expect(await files.get(SHA_A)).not.toBeNull();
    // A trashed clip still holds its video: it may be restored.
    await trashClip(db, two.id);
    expect(await removeVideosIfUnused(db, files, [SHA_A])).toEqual([]);
    await purgeClips(db, [two.id]);
    expect(await removeVideosIfUnused(db, files, [SHA_A])).toEqual([SHA_A]);
    expect(await files.get(SHA_A)).toBeNull();
  });

  it('sweeps unreferenced leftovers only after the grace period (an import in another tab writes the file first)', async () => {
    const files = new MemoryVideoFiles();
    files.now = () => 1_000;
    await files.keep(SHA_A, new Blob(['a']));
    await files.keep(SHA_B, new Blob(['b']));
    await clipWith(SHA_A);
    expect(await removeUnreferencedVideos(db, files, 1_000 + UNREFERENCED_GRACE_MS - 1)).toEqual([]);
    expect(await removeUnreferencedVideos(db, files, 1_000 + UNREFERENCED_GRACE_MS)).toEqual([SHA_B]);
    expect(await files.get(SHA_A)).not.toBeNull();
  });
});

describe('sourceVideoProblem', () => {
  it('accepts a sound reference and names each fault', () => {
    expect(sourceVideoProblem(ref(SHA_A))).toBeNull();
    expect(sourceVideoProblem({ ...ref(SHA_A), nativeFps: null })).toBeNull();
    expect(sourceVideoProblem({ ...ref(SHA_A), size: -1 })).toMatch(/size/);
    expect(sourceVideoProblem({ ...ref(SHA_A), durationSec: 0 })).toMatch(/durationSec/);
    expect(sourceVideoProblem({ ...ref(SHA_A), extra: 1 })).toMatch(/unknown field/);
    expect(sourceVideoProblem('x')).toMatch(/not an object/);
  });
});
