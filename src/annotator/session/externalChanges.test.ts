import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Dexie } from 'dexie';
import { openSpocDb, type SpocDb } from '../../store/db';
import { commitClipImport } from '../../store/importCommit';
import { createProject } from '../../store/projects';
import { clipRevisions } from '../../store/keys';
import { fakeIdb, importDraft } from '../../testing/storeFixtures';
import type { Clip } from '../../store/types';
import { paint } from '../../testing/bundleProject';
import { externalChangeBetween, externalChangeNotice, watchExternalGtChanges, type ExternalGtChange } from './externalChanges';

/*
 * Two Dexie connections to one (fake) IndexedDB stand for two tabs: Dexie signals every commit to
 * both (as its BroadcastChannel does between real tabs), and hooks are per connection.
 * liveQuery stays idle where the process has no global IndexedDB (Node), so the fake one is
 * registered as Dexie's dependency for these tests.
 */

let tabA: SpocDb;
let tabB: SpocDb;
let clip: Clip;
let stop: () => void = () => undefined;

const globalIdb = { ...Dexie.dependencies };
beforeEach(async () => {
  const idb = fakeIdb();
  Object.assign(Dexie.dependencies, idb);
  tabA = await openSpocDb('spoc-two-tabs', idb);
  tabB = await openSpocDb('spoc-two-tabs', idb);
  const project = await createProject(tabA, { name: 'P' });
  clip = await commitClipImport(tabA, importDraft(project.id, 4));
  await paint(tabA, clip, 0, 'ann'); // history from before the editor opened
});
afterEach(() => {
  stop();
  tabA.close();
  tabB.close();
  Object.assign(Dexie.dependencies, globalIdb);
});

async function watchInA(): Promise<ExternalGtChange[]> {
  const seen: ExternalGtChange[] = [];
  const watch = watchExternalGtChanges(tabA, clip.id, (c) => seen.push(c));
  stop = watch.stop;
  await watch.ready;
  return seen;
}

describe('watchExternalGtChanges', () => {
  it("ignores this tab's own edits and reports the frames another tab wrote", async () => {
    const seen = await watchInA();
    await paint(tabA, clip, 1, 'ann', 1); // the editor here
    await paint(tabB, clip, 2, 'bob', 2); // another tab, without the lock
    await vi.waitFor(() => expect(seen).toHaveLength(1));
    // Who wrote it is read from the new rows only; another tab's write is not the server's.
    expect(seen).toEqual([{ frames: [2], replaced: false, authors: ['bob'], fromServer: false }]);
    await paint(tabA, clip, 3, 'ann', 1);
    await new Promise((r) => setTimeout(r, 50));
    expect(seen).toHaveLength(1);
  });

  it('reports revisions the sync client pulled through this tab\'s own connection (they carry a server cursor)', async () => {
    const seen = await watchInA();
    const [mine] = await tabA.revisions.toArray();
    const { seq: _seq, ...row } = mine;
    await tabA.revisions.add({ ...row, id: '01900000-0000-7000-8000-0000000000aa', frameIndex: 3, cursor: '42' } as never);
    await vi.waitFor(() => expect(seen).toEqual([{ frames: [3], replaced: false, authors: [mine.author], fromServer: true }]));
  });

  it('reports a replaced history (revisions gone), as a bundle\'s "take theirs" leaves it', async () => {
    const seen = await watchInA();
    await clipRevisions(tabB, clip.id).delete();
    await vi.waitFor(() => expect(seen).toEqual([{ frames: [], replaced: true }]));
  });

  it('stop() ends the watch and removes the hook', async () => {
    const seen = await watchInA();
    stop();
    await paint(tabB, clip, 2, 'bob');
    await new Promise((r) => setTimeout(r, 50));
    expect(seen).toEqual([]);
    expect(tabA.revisions.hook('creating').subscribers).toHaveLength(0);
  });
});

describe('externalChangeBetween', () => {
  const m = (entries: [number, number][]) => new Map(entries);
  it('is null when every new revision was written here', () => {
    expect(externalChangeBetween(m([[1, 0]]), m([[1, 0], [2, 4]]), new Set([2]))).toBeNull();
  });
  it('lists foreign frames once, ascending, and flags removed revisions', () => {
    expect(externalChangeBetween(m([[1, 0], [2, 1]]), m([[2, 1], [5, 7], [6, 3], [7, 7]]), new Set())).toEqual({ frames: [3, 7], replaced: true });
  });
});

describe('externalChangeNotice', () => {
  it('names the clip and the frames (numbered from 1) or the replaced history', () => {
    expect(externalChangeNotice('peel 01', { frames: [2], replaced: false })).toBe(
      '"peel 01" was changed outside this editor: frame 3 was changed. The editor reloaded it from the store, so nothing stale is written back; undo starts from the stored history.',
    );
    expect(externalChangeNotice('peel 01', { frames: [0, 4], replaced: false })).toContain('frames 1, 5 were changed');
    expect(externalChangeNotice('peel 01', { frames: [4], replaced: true })).toContain('its history was replaced (for example by a bundle import)');
  });
  it('names who changed it, and says so when the change came from the team server', () => {
    expect(externalChangeNotice('peel 01', { frames: [2], replaced: false, authors: ['ann'], fromServer: true })).toBe(
      '"peel 01": frame 3 was changed by ann (synced from the team server). The editor shows it now; undo starts from the stored history.',
    );
    expect(externalChangeNotice('peel 01', { frames: [2], replaced: false, authors: ['bo'] })).toMatch(/^"peel 01" was changed outside this editor by bo: frame 3 was changed\./);
  });
});
