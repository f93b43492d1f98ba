import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setClipStatus } from './clips';
import type { SpocDb } from './db';
import { setFrameIgnored, setFrameReviewed } from './frames';
import { commitClipImport } from './importCommit';
import { putLayer } from './layers';
import { clipProgress, countProgress, projectStats } from './progress';
import { createProject } from './projects';
import { freshDb, gtLayer, importDraft } from '../testing/storeFixtures';
import type { Project } from './types';

let db: SpocDb;
let project: Project;
beforeEach(async () => {
  db = await freshDb();
  project = await createProject(db, { name: 'P' });
});
afterEach(() => db.close());

describe('countProgress', () => {
  it('counts ignored first, then painted or reviewed', () => {
    const f = (index: number, extra = {}) => ({ clipId: 'c', index, timestampSec: index, ...extra });
    const frames = [
      f(0),
      f(1, { reviewed: true }),
      f(2, { ignored: { reason: 'mixed', at: 1 } }),
      f(3, { ignored: { reason: 'other', at: 1 }, reviewed: true }),
      f(4),
    ];
    expect(countProgress(frames, new Set([0, 2]))).toEqual({ annotated: 2, ignored: 2, remaining: 1, total: 5 });
  });
});

describe('clipProgress', () => {
  it('follows the rule: painted gt or reviewed, unless ignored', async () => {
    // Frames 0..5; gt on 0 (act), 1 (trf), 2 (empty), 3 (painted but will be ignored).
    const draft = importDraft(project.id, 6, {
      layers: [gtLayer(0, 5, 0), gtLayer(1, 0, 4), gtLayer(2, 0, 0), gtLayer(3, 2, 2)],
    });
    const clip = await commitClipImport(db, draft);
    // A prediction on frame 4 does not make it annotated.
    await putLayer(db, { ...gtLayer(4, 9, 9), source: 'pred:m', clipId: clip.id });
    expect(await clipProgress(db, clip.id)).toEqual({ annotated: 3, ignored: 0, remaining: 3, total: 6 });

    await setFrameIgnored(db, clip.id, 3, { reason: 'not_visible' });
    await setFrameReviewed(db, clip.id, 2, true); // empty but looked at: annotated
    expect(await clipProgress(db, clip.id)).toEqual({ annotated: 3, ignored: 1, remaining: 2, total: 6 });

    // Erasing a frame back to empty makes it remaining again.
    await putLayer(db, { ...gtLayer(0, 0, 0), clipId: clip.id });
    expect(await clipProgress(db, clip.id)).toEqual({ annotated: 2, ignored: 1, remaining: 3, total: 6 });
  });

  it('is all-remaining for an unknown or fresh clip', async () => {
    expect(await clipProgress(db, 'missing')).toEqual({ annotated: 0, ignored: 0, remaining: 0, total: 0 });
    const clip = await commitClipImport(db, importDraft(project.id, 4, { layers: [] }));
    expect(await clipProgress(db, clip.id)).toEqual({ annotated: 0, ignored: 0, remaining: 4, total: 4 });
  });
});

describe('projectStats', () => {
  it('aggregates clips, frames, statuses and subsets', async () => {
    const a = await commitClipImport(db, importDraft(project.id, 3)); // gt on 0, 1
    const novel = importDraft(project.id, 5, { layers: [] });
    novel.clip.subset = 'novel';
    const b = await commitClipImport(db, novel);
    await setFrameIgnored(db, b.id, 0, { reason: 'too_blurry' });
    await setClipStatus(db, a.id, 'approved');
    const other = await createProject(db, { name: 'other' });
    await commitClipImport(db, importDraft(other.id, 7));

    const stats = await projectStats(db, project.id);
    expect(stats.clips).toBe(2);
    expect(stats.frames).toEqual({ annotated: 2, ignored: 1, remaining: 5, total: 8 });
    expect(stats.byStatus).toMatchObject({ approved: 1, in_progress: 1, todo: 0 });
    expect(stats.bySubset).toEqual({ seen: 1, novel: 1 });
    expect(stats.perClip[a.id]).toEqual({ annotated: 2, ignored: 0, remaining: 1, total: 3 });
  });
});
