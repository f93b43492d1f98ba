import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { listClips, listIncompleteImports, removeIncompleteImport } from './clips';
import type { SpocDb } from './db';
import { isQuotaError } from './errors';
import { listFrames, getFrameImage } from './frames';
import { commitClipImport, commitClipImports, draftBytes, isImportRunningHere, type ClipImportDraft } from './importCommit';
import type { ChunkLimits } from './importChunks';
import { layerAreas } from './layers';
import { createProject, newProjectRow } from './projects';
import { W, H, freshDb, gtLayer, importDraft, pngBlob, rleWithArea, snapshot, storeRejection as rejection } from '../testing/storeFixtures';
import type { Project } from './types';

let db: SpocDb;
let project: Project;
beforeEach(async () => {
  db = await freshDb();
  project = await createProject(db, { name: 'P' });
  // Existing content the failed imports must leave untouched.
  await commitClipImport(db, importDraft(project.id, 2));
});
afterEach(() => {
  vi.restoreAllMocks();
  db.close();
});


/**
 * The atomicity tests run twice: with the default bounds (these small drafts fit one transaction)
 * and with bounds of 2 frames, so the same failures hit the chunked path's clip-row, frame-chunk
 * and final transactions, and must leave the store exactly as before there too.
 */
const MODES: [string, ChunkLimits | undefined][] = [
  ['one transaction', undefined],
  ['bounded chunks of 2 frames', { maxFrames: 2, maxBytes: 1 << 20 }],
];

describe('commitClipImport', () => {
  it('writes clip, frames, images, layers and thumbnail', async () => {
    const draft = importDraft(project.id, 4);
    draft.frames[2].phase = 'transitioning';
    draft.frames[1].ignored = { reason: 'too_blurry', note: 'motion blur', at: 1700000000000 };
    draft.frames[3].reviewed = true;
    const clip = await commitClipImport(db, draft);
    expect(clip).toMatchObject({ projectId: project.id, name: 'peel banana 01', frameCount: 4, status: 'todo' });
    expect(clip.createdAt).toBe(clip.updatedAt);
    expect((await listClips(db, project.id)).map((c) => c.id)).toContain(clip.id);
    const frames = await listFrames(db, clip.id);
    expect(frames.map((f) => [f.index, f.timestampSec, f.phase, f.ignored?.reason, f.reviewed])).toEqual([
      [0, 0, undefined, undefined, undefined],
      [1, 1, undefined, 'too_blurry', undefined],
      [2, 2, 'transitioning', undefined, undefined],
      [3, 3, undefined, undefined, true],
    ]);
    const img = await getFrameImage(db, clip.id, 3);
    expect(Array.from(new Uint8Array(await img!.blob.arrayBuffer()))).toEqual(
      Array.from(new Uint8Array(await pngBlob(3).arrayBuffer())),
    );
    expect(await layerAreas(db, clip.id, 'gt')).toEqual([
      { frameIndex: 0, actArea: 5, trfArea: 0 },
      { frameIndex: 1, actArea: 3, trfArea: 4 },
    ]);
    expect((await db.thumbnails.get(clip.id))?.blob.size).toBe(16);
  });

  describe('validation before writing', () => {
    const cases: [string, (d: ClipImportDraft) => void, RegExp][] = [
      ['frame count mismatch', (d) => (d.clip.frameCount = 5), /declares 5 frames but 3 were decoded/],
      ['layer out of range', (d) => d.layers!.push(gtLayer(3, 1, 1)), /frame index 3 is outside the clip, which has 3 frames/],
      ['duplicate layer', (d) => d.layers!.push(gtLayer(1, 1, 1)), /two gt layers for frame index 1/],
      ['zero width', (d) => (d.clip.width = 0), /invalid size 0x6/],
      ['layer of another size', (d) => (d.layers![0].act = rleWithArea(W, H, 1)), /is 6x8 but must be 8x6/],
      ['no frames', (d) => ((d.frames = []), (d.clip.frameCount = 0)), /has no frames/],
      ['times going backwards', (d) => (d.frames[2].timestampSec = 0.5), /frame 2 has time 0.5s/],
      ['other project', (d) => (d.clip.projectId = 'x'), /different project/],
      ['unknown ignore reason', (d) => (d.frames[1].ignored = { reason: 'bored' as 'other', at: 1 }), /frame 1 is ignored with an unknown reason "bored"/],
    ];
    it.each(cases)('%s', async (_name, mutate, message) => {
      const before = await snapshot(db);
      const draft = importDraft(project.id);
      mutate(draft);
      const err = await rejection(commitClipImport(db, draft));
      expect(err.code).toBe('invalid');
      expect(err.message).toMatch(/^Could not save clip "peel banana 01": /);
      expect(err.message).toMatch(message);
      expect(err.message).toMatch(/Nothing was saved\.$/);
      expect(await snapshot(db)).toEqual(before);
    });

    it('a missing project fails inside the transaction and writes nothing', async () => {
      const before = await snapshot(db);
      const draft = importDraft('no-such-project');
      const err = await rejection(commitClipImport(db, draft));
      expect(err.code).toBe('not_found');
      expect(await snapshot(db)).toEqual(before);
    });
  });

  describe.each(MODES)('atomicity (%s): failures in the middle of the write', (_mode, limits) => {
    const commitOne = (d: ClipImportDraft) => commitClipImports(db, [d], { limits }).then(([c]) => c);

    it('QuotaExceededError after frames and layers were written rolls everything back', async () => {
      const before = await snapshot(db);
      // Let the real writes happen inside the transaction, then fail the way a full disk does.
      const real = db.layers.bulkAdd.bind(db.layers);
      const failAfterWriting = async (...args: Parameters<typeof real>) => {
        await real(...args);
        throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      };
      vi.spyOn(db.layers, 'bulkAdd').mockImplementation(failAfterWriting as unknown as typeof real);
      const draft = importDraft(project.id, 3);
      const err = await rejection(commitOne(draft));
      expect(err.code).toBe('quota');
      const mb = (draftBytes(draft) / 1048576).toFixed(1);
      expect(err.message).toBe(
        `Storage is full: could not save clip "peel banana 01" (3 frames, ${mb} MB). Free space or delete clips; nothing was saved.`,
      );
      expect(isQuotaError(err.cause)).toBe(true);
      expect(await snapshot(db)).toEqual(before);
    });

    it('a quota error wrapped by Dexie (AbortError with inner) is still reported as storage full', async () => {
      const before = await snapshot(db);
      vi.spyOn(db.thumbnails, 'add').mockImplementation(() => {
        const abort = new Error('Transaction aborted');
        abort.name = 'AbortError';
        (abort as Error & { inner?: unknown }).inner = new DOMException('full', 'QuotaExceededError');
        throw abort;
      });
      const err = await rejection(commitOne(importDraft(project.id, 3)));
      expect(err.code).toBe('quota');
      expect(await snapshot(db)).toEqual(before);
    });

    it('a hook throwing on the third frame image rolls back the clip row and earlier frames', async () => {
      const before = await snapshot(db);
      let n = 0;
      const third = () => {
        if (++n === 3) throw new Error('image 3 refused');
      };
      db.frameImages.hook('creating', third);
      try {
        const err = await rejection(commitOne(importDraft(project.id, 5)));
        expect(err.code).toBe('failed');
        expect(err.message).toMatch(/^Could not save clip "peel banana 01": .*image 3 refused.*Nothing was saved\.$/);
      } finally {
        db.frameImages.hook('creating').unsubscribe(third);
      }
      expect(n).toBeGreaterThanOrEqual(3);
      expect(await snapshot(db)).toEqual(before);
    });

    it('a constraint error from IndexedDB itself (duplicate clip id) is reported and writes nothing', async () => {
      const before = await snapshot(db);
      const existing = (await db.clips.toArray())[0];
      // Same clip id as an existing clip: clips.add fails with ConstraintError at the IndexedDB level.
      vi.spyOn(crypto, 'randomUUID').mockReturnValue(existing.id as ReturnType<typeof crypto.randomUUID>);
      const err = await rejection(commitOne(importDraft(project.id, 3)));
      expect(err.code).toBe('failed');
      expect(err.message).toMatch(/Constraint|already exists|Key/i);
      expect(await snapshot(db)).toEqual(before);
    });
  });
});

describe.each(MODES)('commitClipImports (several clips, %s)', (_mode, limits) => {
  it('writes every clip, and a new project with them', async () => {
    const fresh = newProjectRow({ name: 'Demo' });
    const clips = await commitClipImports(db, [importDraft(fresh.id, 2), importDraft(fresh.id, 3)], { newProject: fresh, limits });
    expect(clips.map((c) => c.frameCount)).toEqual([2, 3]);
    expect((await listClips(db, fresh.id)).length).toBe(2);
  });

  it('writes nothing when a later clip fails, naming the batch', async () => {
    const before = await snapshot(db);
    const bad = importDraft(project.id, 2);
    bad.clip.frameCount = 5;
    const err = await rejection(commitClipImports(db, [importDraft(project.id, 2), bad], { limits }));
    expect(err.message).toBe('Could not save 2 clips: it declares 5 frames but 2 were decoded. Nothing was saved.');
    expect(await snapshot(db)).toEqual(before);
  });

  it('maps a quota failure at commit time and rolls back every clip and the new project', async () => {
    const before = await snapshot(db);
    const fresh = newProjectRow({ name: 'Demo' });
    const real = db.frameImages.bulkAdd.bind(db.frameImages);
    let calls = 0;
    const failOnSecond = async (...args: Parameters<typeof real>) => {
      await real(...args);
      if (++calls === 2) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    };
    vi.spyOn(db.frameImages, 'bulkAdd').mockImplementation(failOnSecond as unknown as typeof real);
    const err = await rejection(commitClipImports(db, [importDraft(fresh.id, 2), importDraft(fresh.id, 2)], { newProject: fresh, limits }));
    expect(err.code).toBe('quota');
    expect(err.message).toMatch(/^Storage is full: could not save 2 clips \(4 frames, /);
    expect(await snapshot(db)).toEqual(before);
  });
});

describe('isQuotaError', () => {
  it('recognises the shapes browsers and Dexie use', () => {
    expect(isQuotaError(new DOMException('x', 'QuotaExceededError'))).toBe(true);
    expect(isQuotaError({ name: 'NS_ERROR_DOM_QUOTA_REACHED' })).toBe(true);
    expect(isQuotaError({ name: 'BulkError', failures: [new Error('a'), { name: 'QuotaExceededError' }] })).toBe(true);
    expect(isQuotaError({ name: 'BulkError', failures: { 3: { name: 'QuotaExceededError' } } })).toBe(true);
    expect(isQuotaError({ name: 'AbortError', inner: { name: 'QuotaExceededError' } })).toBe(true);
    expect(isQuotaError(new Error('x', { cause: { name: 'QuotaExceededError' } }))).toBe(true);
    expect(isQuotaError(new Error('ConstraintError'))).toBe(false);
    expect(isQuotaError(null)).toBe(false);
  });
});

describe('bounded transactions for large imports', () => {
  const SMALL: ChunkLimits = { maxFrames: 2, maxBytes: 1 << 20 };

  it('writes exactly the rows one transaction writes', async () => {
    // Same ids and times in two fresh stores, so the two snapshots can be compared row for row.
    vi.spyOn(crypto, 'randomUUID').mockReturnValue('00000000-0000-4000-8000-000000000001');
    vi.spyOn(Date, 'now').mockReturnValue(1_700_000_000_000);
    const stores: SpocDb[] = [];
    for (const limits of [undefined, SMALL]) {
      const store = await freshDb();
      const p = await createProject(store, { name: 'Same' });
      const draft = importDraft(p.id, 5);
      draft.frames[3].phase = 'end';
      draft.layers!.push({ ...gtLayer(4, 2, 2), source: 'pred:model' });
      await commitClipImports(store, [draft], { limits });
      stores.push(store);
    }
    const [one, chunked] = await Promise.all(stores.map(snapshot));
    stores.forEach((s) => s.close());
    expect((one.frameImages as unknown[]).length).toBe(5);
    expect((one.layers as unknown[]).length).toBe(3);
    expect(chunked).toEqual(one);
    expect((chunked.clips as { importing?: unknown }[])[0].importing).toBeUndefined();
  });

  it('commits chunk by chunk, reporting the frames saved after each', async () => {
    const seen: [number, number][] = [];
    await commitClipImports(db, [importDraft(project.id, 5)], { limits: SMALL, onProgress: (saved, total) => void seen.push([saved, total]) });
    expect(seen).toEqual([
      [2, 5],
      [4, 5],
      [5, 5],
      [5, 5],
    ]);
  });

  it('keeps the clip out of every list until the last transaction, showing it as saving here', async () => {
    const midway: unknown[] = [];
    const clips = await commitClipImports(db, [importDraft(project.id, 5)], {
      limits: SMALL,
      onProgress: async (saved) => {
        if (saved !== 2) return;
        const [inc] = await listIncompleteImports(db, project.id);
        midway.push((await listClips(db, project.id)).length, inc.framesSaved, inc.framesExpected, isImportRunningHere(inc.clip.id));
      },
    });
    expect(midway).toEqual([1, 2, 5, true]); // 1: only the clip imported before the test
    expect(isImportRunningHere(clips[0].id)).toBe(false);
    expect(await listIncompleteImports(db, project.id)).toEqual([]);
    expect((await listClips(db, project.id)).map((c) => c.id)).toContain(clips[0].id);
  });

  it('a quota error in the third chunk deletes what the first two wrote and says storage is full', async () => {
    const before = await snapshot(db);
    let n = 0;
    const fifth = () => {
      if (++n === 5) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    };
    db.frameImages.hook('creating', fifth);
    const draft = importDraft(project.id, 6);
    try {
      const err = await rejection(commitClipImports(db, [draft], { limits: SMALL }));
      expect(err.code).toBe('quota');
      expect(err.message).toBe(
        `Storage is full: could not save clip "peel banana 01" (6 frames, ${(draftBytes(draft) / 1048576).toFixed(1)} MB). Free space or delete clips; nothing was saved.`,
      );
    } finally {
      db.frameImages.hook('creating').unsubscribe(fifth);
    }
    expect(n).toBe(5);
    expect(await snapshot(db)).toEqual(before);
  });

  it('a clip deleted by another tab between chunks fails the import and leaves no orphan rows', async () => {
    const before = await snapshot(db);
    const err = await rejection(
      commitClipImports(db, [importDraft(project.id, 6)], {
        limits: SMALL,
        onProgress: (saved) => {
          if (saved === 2) return listIncompleteImports(db, project.id).then(([inc]) => removeIncompleteImport(db, inc.clip.id));
        },
      }),
    );
    expect(err.message).toMatch(/^Could not save clip "peel banana 01": the clip was removed while it was being saved\. Nothing was saved\.$/);
    expect(await snapshot(db)).toEqual(before);
  });

  it('when even the cleanup fails, says so and leaves a marked clip to remove by hand', async () => {
    let n = 0;
    const third = () => {
      if (++n === 3) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    };
    const refuseDelete = () => {
      throw new Error('disk unplugged');
    };
    db.frameImages.hook('creating', third);
    db.clips.hook('deleting', refuseDelete);
    try {
      const err = await rejection(commitClipImports(db, [importDraft(project.id, 4)], { limits: SMALL }));
      expect(err.message).toBe(
        'Could not save clip "peel banana 01": storage is full, and the part already saved could not be removed (disk unplugged). ' +
          'It shows as an incomplete import on the project page; remove it there.',
      );
    } finally {
      db.frameImages.hook('creating').unsubscribe(third);
      db.clips.hook('deleting').unsubscribe(refuseDelete);
    }
    const [inc] = await listIncompleteImports(db, project.id);
    expect([inc.framesSaved, inc.framesExpected]).toEqual([2, 4]);
    await removeIncompleteImport(db, inc.clip.id);
    expect(await listIncompleteImports(db, project.id)).toEqual([]);
  });
});
