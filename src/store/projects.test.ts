import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SpocDb } from './db';
import { StoreError } from './errors';
import { commitClipImport } from './importCommit';
import { createProject, deleteProject, getProject, listProjects, updateProject } from './projects';
import { freshDb, importDraft } from '../testing/storeFixtures';

let db: SpocDb;
beforeEach(async () => {
  db = await freshDb();
});
afterEach(() => db.close());

describe('projects', () => {
  it('creates with defaults and a UUID, reads back', async () => {
    const p = await createProject(db, { name: '  Kitchen  ' });
    expect(p.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(p.name).toBe('Kitchen');
    expect(p.settings).toEqual({ sampleFps: 1, thresholds: {} });
    expect(await getProject(db, p.id)).toEqual(p);
  });

  it('lists most recently updated first', async () => {
    const a = await createProject(db, { name: 'A' });
    await new Promise((r) => setTimeout(r, 2));
    const b = await createProject(db, { name: 'B' });
    expect((await listProjects(db)).map((p) => p.name)).toEqual(['B', 'A']);
    await new Promise((r) => setTimeout(r, 2));
    await updateProject(db, a.id, { name: 'A2' });
    expect((await listProjects(db)).map((p) => p.id)).toEqual([a.id, b.id]);
  });

  it('updates name and merges settings', async () => {
    const p = await createProject(db, { name: 'P', settings: { sampleFps: 2 } });
    const next = await updateProject(db, p.id, { settings: { thresholds: { cut: { tau: 0.3, delta: 0.05 } } } });
    expect(next.settings).toEqual({ sampleFps: 2, thresholds: { cut: { tau: 0.3, delta: 0.05 } } });
    expect(next.updatedAt).toBeGreaterThanOrEqual(p.updatedAt);
  });

  it('rejects empty names, bad sample rates and unknown ids', async () => {
    await expect(createProject(db, { name: '  ' })).rejects.toThrow(/needs a name/);
    await expect(createProject(db, { name: 'x', settings: { sampleFps: 0 } })).rejects.toThrow(/positive/);
    await expect(updateProject(db, 'nope', { name: 'x' })).rejects.toMatchObject({ code: 'not_found' });
    await expect(updateProject(db, 'nope', { name: 'x' })).rejects.toBeInstanceOf(StoreError);
    expect(await db.projects.count()).toBe(0);
  });

  it('deletes a project with all its clips, keeping other projects intact', async () => {
    const keep = await createProject(db, { name: 'keep' });
    const gone = await createProject(db, { name: 'gone' });
    await commitClipImport(db, importDraft(gone.id));
    await commitClipImport(db, importDraft(gone.id));
    const kept = await commitClipImport(db, importDraft(keep.id));
    await deleteProject(db, gone.id);
    expect(await db.projects.toCollection().primaryKeys()).toEqual([keep.id]);
    expect(await db.clips.toCollection().primaryKeys()).toEqual([kept.id]);
    for (const t of [db.frames, db.frameImages, db.layers]) {
      expect(new Set((await t.toArray()).map((r) => r.clipId))).toEqual(new Set([kept.id]));
    }
    expect(await db.thumbnails.count()).toBe(1);
  });
});
