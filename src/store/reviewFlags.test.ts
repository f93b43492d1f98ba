import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deleteClip } from './clips';
import type { SpocDb } from './db';
import { commitClipImport } from './importCommit';
import { createProject, deleteProject } from './projects';
import { deleteFlagDismissal, listFlagDismissals, putFlagDismissal } from './reviewFlags';
import { freshDb, importDraft, storeRejection as rejection } from '../testing/storeFixtures';
import type { Clip, FlagDismissal } from './types';

let db: SpocDb;
let clip: Clip;
let other: Clip;
beforeEach(async () => {
  db = await freshDb();
  const p = await createProject(db, { name: 'P' });
  clip = await commitClipImport(db, importDraft(p.id, 3));
  other = await commitClipImport(db, importDraft(p.id, 3));
});
afterEach(() => db.close());

function dismissal(over: Partial<FlagDismissal> = {}): FlagDismissal {
  return { clipId: clip.id, source: 'gt', flagId: 'speck:1:00ab', kind: 'speck', frameIndex: 1, box: { x: 1, y: 1, w: 2, h: 2 }, reason: 'crumb', by: 'rev', at: 10, ...over };
}


describe('flag dismissals', () => {
  it('are stored per clip and source, listed, re-dismissed in place and removed', async () => {
    await putFlagDismissal(db, dismissal());
    await putFlagDismissal(db, dismissal({ flagId: 'hole:2:01', kind: 'hole', frameIndex: 2 }));
    await putFlagDismissal(db, dismissal({ source: 'pred:m' }));
    await putFlagDismissal(db, dismissal({ clipId: other.id }));
    expect((await listFlagDismissals(db, clip.id)).map((d) => [d.source, d.flagId])).toEqual([
      ['gt', 'hole:2:01'],
      ['gt', 'speck:1:00ab'],
      ['pred:m', 'speck:1:00ab'],
    ]);
    expect(await listFlagDismissals(db, clip.id, 'pred:m')).toHaveLength(1);

    await putFlagDismissal(db, dismissal({ reason: '  really a crumb  ', at: 11 }));
    const gt = await listFlagDismissals(db, clip.id, 'gt');
    expect(gt.find((d) => d.flagId === 'speck:1:00ab')).toMatchObject({ reason: 'really a crumb', at: 11 });

    expect(await deleteFlagDismissal(db, clip.id, 'gt', 'speck:1:00ab')).toBe(true);
    expect(await deleteFlagDismissal(db, clip.id, 'gt', 'speck:1:00ab')).toBe(false);
    expect((await listFlagDismissals(db, clip.id, 'gt')).map((d) => d.flagId)).toEqual(['hole:2:01']);
  });

  it.each<[string, Partial<FlagDismissal>, RegExp]>([
    ['an empty reason', { reason: '  ' }, /reason is empty/],
    ['a frame outside the clip', { frameIndex: 3 }, /outside the clip \(3 frames\)/],
    ['a box outside the frame', { box: { x: 6, y: 0, w: 3, h: 1 } }, /not inside the 8x6 frame/],
    ['an unknown source', { source: 'model' as FlagDismissal['source'] }, /Unknown layer source/],
    ['no author', { by: '' }, /who dismissed it/],
  ])('refuses %s', async (_what, over, message) => {
    const err = await rejection(putFlagDismissal(db, dismissal(over)));
    expect(err.message).toMatch(message);
    expect(await db.reviewFlags.count()).toBe(0);
  });

  it('refuses a missing clip', async () => {
    expect((await rejection(putFlagDismissal(db, dismissal({ clipId: 'nope' })))).code).toBe('not_found');
  });

  it('go with their clip and their project', async () => {
    await putFlagDismissal(db, dismissal());
    await putFlagDismissal(db, dismissal({ clipId: other.id }));
    await deleteClip(db, clip.id);
    expect((await db.reviewFlags.toArray()).map((d) => d.clipId)).toEqual([other.id]);
    await deleteProject(db, other.projectId);
    expect(await db.reviewFlags.count()).toBe(0);
  });
});
