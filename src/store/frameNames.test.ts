import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SpocDb } from './db';
import { StoreError } from './errors';
import { listFrames } from './frames';
import { commitClipImport } from './importCommit';
import { createProject } from './projects';
import { freshDb, importDraft, snapshot } from '../testing/storeFixtures';
import type { Project } from './types';

let db: SpocDb;
let project: Project;
beforeEach(async () => {
  db = await freshDb();
  project = await createProject(db, { name: 'P' });
});
afterEach(() => db.close());

describe('frame names (schema v3)', () => {
  it('are stored when the draft has them, and absent otherwise', async () => {
    const named = importDraft(project.id, 3);
    named.frames.forEach((f, k) => (f.name = `img_${k + 1}`));
    const a = await commitClipImport(db, named);
    expect((await listFrames(db, a.id)).map((f) => f.name)).toEqual(['img_1', 'img_2', 'img_3']);
    const b = await commitClipImport(db, importDraft(project.id, 2));
    expect((await listFrames(db, b.id)).map((f) => 'name' in f)).toEqual([false, false]);
  });

  it.each([
    ['duplicate ignoring case', ['Frame1', 'frame1', 'f3'], /frames 0 and 1 are both named "frame1"/],
    ['empty', ['a', '', 'c'], /frame 1 has the name ""/],
    ['surrounding space', ['a', 'b ', 'c'], /frame 1 has the name "b "/],
  ])('refuses %s names and writes nothing', async (_what, names, message) => {
    const before = await snapshot(db);
    const draft = importDraft(project.id, 3);
    draft.frames.forEach((f, k) => (f.name = names[k]));
    const err = await commitClipImport(db, draft).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(StoreError);
    expect((err as StoreError).message).toMatch(message);
    expect(await snapshot(db)).toEqual(before);
  });
});
