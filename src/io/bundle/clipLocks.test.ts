import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SpocDb } from '../../store/db';
import { freshDb, snapshot } from '../../testing/storeFixtures';
import { ClipBusyError } from '../../workspace/clipWriteLock';
import { settle, twoTabs } from '../../testing/locks';
import { importBundle } from './importBundle';
import { exportToBlob, paint, seedProject, type SeededProject } from '../../testing/bundleProject';

/*
 * Two tabs (docs/durability.md): a bundle import in one tab must not replace a clip another tab is editing (that editor
 * would write its stale copy back). The import checks the lock of every clip it would change
 * before writing anything, and is refused as a whole.
 */

let db: SpocDb;
let seeded: SeededProject;
let bundle: File;
let tabs: ReturnType<typeof twoTabs>;

beforeEach(async () => {
  db = await freshDb();
  seeded = await seedProject(db, 3);
  bundle = new File([(await exportToBlob(db, seeded.project.id)).blob], 'from-bob.spoc.zip', { type: 'application/zip' });
  // Work after the export on clips 0 and 1, so the bundle differs there.
  await paint(db, seeded.clips[0], 1, 'ann', 3);
  await paint(db, seeded.clips[1], 1, 'ann', 3);
  tabs = twoTabs();
});
afterEach(() => {
  tabs.restore();
  db.close();
});

describe('bundle import while another tab edits a clip', () => {
  it('"take theirs" on the edited clip is refused before anything is written, naming the clip', async () => {
    const editor = (await tabs.elsewhere.tryAcquire(seeded.clips[1].id))!;
    const before = await snapshot(db);
    const err = await importBundle(db, bundle, { onConflict: () => 'theirs' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ClipBusyError);
    expect((err as Error).message).toBe(
      'from-bob.spoc.zip: "clip 1" is open for editing in another tab; close it there (or finish) and try again. Nothing was changed.',
    );
    // All or nothing: clip 0, free, was not replaced either.
    expect(await snapshot(db)).toEqual(before);
    // The lock taken on clip 0 for the import was given back.
    expect(tabs.here.heldHere(seeded.clips[0].id)).toBe(false);
    editor.release();
  });

  it('"keep both" changes the clip too, so it is refused the same way', async () => {
    const editor = (await tabs.elsewhere.tryAcquire(seeded.clips[0].id))!;
    const before = await snapshot(db);
    await expect(importBundle(db, bundle, { onConflict: () => 'both' })).rejects.toThrow('"clip 0" is open for editing in another tab');
    expect(await snapshot(db)).toEqual(before);
    editor.release();
  });

  it('clips it only adds or leaves alone do not need the lock; once the editor closes the import goes through', async () => {
    const editor = (await tabs.elsewhere.tryAcquire(seeded.clips[1].id))!;
    // "Keep mine" for the edited clip: nothing of it is written, so the import may proceed.
    const kept = await importBundle(db, bundle, { onConflict: (mine) => (mine.id === seeded.clips[1].id ? 'mine' : 'theirs') });
    expect(kept.clips.map((c) => c.outcome)).toEqual(['took-theirs', 'kept-mine', 'identical']);
    editor.release();
    await settle();
    const took = await importBundle(db, bundle, { onConflict: () => 'theirs' });
    expect(took.clips.map((c) => c.outcome)).toEqual(['identical', 'took-theirs', 'identical']);
  });

  it('the tab that holds the clip (its own editor) may import over it', async () => {
    await tabs.here.tryAcquire(seeded.clips[1].id);
    const result = await importBundle(db, bundle, { onConflict: () => 'theirs' });
    expect(result.clips.map((c) => c.outcome)).toEqual(['took-theirs', 'took-theirs', 'identical']);
    expect(tabs.here.heldHere(seeded.clips[1].id)).toBe(true);
  });
});
