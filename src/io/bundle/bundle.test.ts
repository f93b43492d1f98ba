import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { unzipSync } from 'fflate';
import type { SpocDb } from '../../store/db';
import { setFramePhase } from '../../store/frames';
import { createProject } from '../../store/projects';
import { freshDb, snapshot } from '../../testing/storeFixtures';
import { StoreError } from '../../store/errors';
import { SCHEMA_VERSION } from '../../store/schema';
import { ImportError } from '../importError';
import { exportBundle } from './exportBundle';
import { BUNDLE_FORMAT, MANIFEST_PATH, projectMetaPrefix, type BundleManifest } from './format';
import { importBundle } from './importBundle';
import type { ClipConflict } from './merge';
import { BundleCancelled, type BundleProgress } from './progress';
import { BlobSink, ChunkSink } from './sinks';
import { exportToBlob, paint, seedProject, type SeededProject } from '../../testing/bundleProject';
import { readZipDirectory } from '../files/zipDirectory';
import { DEFAULT_ZIP_READ_LIMITS } from './zipReader';

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

/** Every row of every table, blobs as bytes; the app-level meta rows (user name) stay per browser. */
async function projectSnapshot(d: SpocDb) {
  const s = await snapshot(d);
  s.meta = (s.meta as { key: string }[]).filter((m) => m.key.startsWith('project.'));
  return s;
}

function file(blob: Blob, name = 'Bundle test.spoc.zip'): File {
  return new File([blob], name, { type: 'application/zip' });
}

describe('project bundle round trip', () => {
  it('exports and imports into a fresh store with every table equal and blobs byte-identical', async () => {
    const { blob, sink } = await exportToBlob(a, seeded.project.id);
    expect(sink.chunks.length).toBeGreaterThan(10); // streamed, not one buffer
    const b = await db();
    const result = await importBundle(b, file(blob));
    expect(result.createdProject).toBe(true);
    expect(result.clips.map((c) => c.outcome)).toEqual(['added', 'added']);
    expect(result.warnings).toEqual([]);
    const before = await projectSnapshot(a);
    const after = await projectSnapshot(b);
    expect(after).toEqual(before);
    // Same revision log, same seq numbers, same order.
    expect((after.revisions as { seq: number }[]).map((r) => r.seq)).toEqual((before.revisions as { seq: number }[]).map((r) => r.seq));
    expect((before.revisions as unknown[]).length).toBe(2);
    expect((before.meta as unknown[]).length).toBe(1);
    // Blob types survive (fake-indexeddb keeps them as in the browser).
    const img = await b.frameImages.get([seeded.clips[0].id, 2]);
    expect(img!.blob.type).toBe('image/png');
  });

  it('writes a standard zip: manifest last, images stored, JSON deflated, checksums and counts', async () => {
    const { blob } = await exportToBlob(a, seeded.project.id);
    const entries = await readZipDirectory(blob, 'x', DEFAULT_ZIP_READ_LIMITS);
    expect(entries.at(-1)!.name).toBe(MANIFEST_PATH);
    const image = entries.find((e) => e.name.endsWith('/frames/000000.jpg'))!;
    expect(image.method).toBe(0);
    expect(entries.find((e) => e.name.endsWith('clip.json'))!.method).toBe(8);
    const files = unzipSync(new Uint8Array(await blob.arrayBuffer()));
    const manifest = JSON.parse(new TextDecoder().decode(files[MANIFEST_PATH])) as BundleManifest;
    expect(manifest).toMatchObject({
      format: BUNDLE_FORMAT,
      formatVersion: 5,
      schemaVersion: SCHEMA_VERSION,
      exportedBy: 'ann',
      project: { id: seeded.project.id, name: 'Bundle test' },
      counts: { clips: 2, frames: 6, frameImages: 6, thumbnails: 2, layers: 8, revisions: 2, reviewFlags: 2, clipEvents: 4, comments: 6, frameVerdicts: 0, objects: 0, meta: 1 },
    });
    expect(manifest.app).toMatch(/^spoc-studio \d/);
    expect(manifest.entries.map((e) => e.path).sort()).toEqual(Object.keys(files).filter((p) => p !== MANIFEST_PATH).sort());
    const { sha256Hex } = await import('./hash');
    for (const e of manifest.entries) {
      expect(files[e.path].length).toBe(e.bytes);
      expect(await sha256Hex(files[e.path])).toBe(e.sha256);
    }
    const clipPaths = Object.keys(files).filter((p) => p.startsWith(`clips/${seeded.clips[0].id}/`)).sort();
    expect(clipPaths.map((p) => p.slice(p.indexOf('/', 6) + 1))).toEqual([
      'clip.json',
      'frames/000000.jpg',
      'frames/000001.jpg',
      'frames/000002.png',
      'revisions.json',
      'thumbnail.png',
    ]);
  });

  it('is deterministic for a given export time', async () => {
    const x = await exportToBlob(a, seeded.project.id);
    const y = await exportToBlob(a, seeded.project.id);
    expect(new Uint8Array(await x.blob.arrayBuffer())).toEqual(new Uint8Array(await y.blob.arrayBuffer()));
  });

  it('reports export progress, and cancel stops it and aborts the sink', async () => {
    const seen: BundleProgress[] = [];
    const sink = new BlobSink();
    await exportBundle(a, seeded.project.id, sink, { onProgress: (p) => seen.push(p) });
    expect(seen.at(-1)).toMatchObject({ stage: 'Done', done: 6, total: 6 });
    expect(seen.at(-1)!.bytes).toBe(sink.bytes);
    expect(sink.blob().size).toBe(sink.bytes);

    const controller = new AbortController();
    const chunks = new ChunkSink();
    const abort = vi.fn();
    const sinkWithAbort = { write: (c: Uint8Array) => chunks.write(c), abort };
    const run = exportBundle(a, seeded.project.id, sinkWithAbort, {
      signal: controller.signal,
      onProgress: (p) => {
        if (p.done === 2) controller.abort();
      },
    });
    await expect(run).rejects.toBeInstanceOf(BundleCancelled);
    expect(abort).toHaveBeenCalledOnce();
  });

  it('reports import progress; cancel, even while saving, leaves the store as it was', async () => {
    const { blob } = await exportToBlob(a, seeded.project.id);
    const b = await db();
    const before = await snapshot(b);
    const controller = new AbortController();
    const stages = new Set<string>();
    const run = importBundle(b, file(blob), {
      signal: controller.signal,
      onProgress: (p) => {
        stages.add(p.stage);
        if (p.stage === 'Saving' && p.done === 1) controller.abort();
      },
    });
    await expect(run).rejects.toBeInstanceOf(BundleCancelled);
    expect([...stages]).toEqual(['Reading the bundle', 'Checking the bundle', 'Comparing with this project', 'Saving']);
    expect(await snapshot(b)).toEqual(before);
  });

  it('maps a quota failure to a store error and writes nothing', async () => {
    const { blob } = await exportToBlob(a, seeded.project.id);
    const b = await db();
    await createProject(b, { name: 'other work' });
    const before = await snapshot(b);
    b.layers.hook('creating', () => {
      throw new DOMException('full', 'QuotaExceededError');
    });
    const err = await importBundle(b, file(blob)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreError);
    expect((err as StoreError).code).toBe('quota');
    expect((err as Error).message).toContain('Bundle test.spoc.zip');
    expect(await snapshot(b)).toEqual(before);
  });
});

describe('merging a bundle into a project that has its clips', () => {
  let bundle: File;
  beforeEach(async () => {
    bundle = file((await exportToBlob(a, seeded.project.id)).blob);
  });

  it('recognises identical work and changes nothing', async () => {
    const before = await snapshot(a);
    const onConflict = vi.fn();
    const result = await importBundle(a, bundle, { onConflict });
    expect(result.createdProject).toBe(false);
    expect(result.clips.map((c) => c.outcome)).toEqual(['identical', 'identical']);
    expect(onConflict).not.toHaveBeenCalled();
    expect(await snapshot(a)).toEqual(before);
  });

  it('recognises identical work in another store, whatever its seq numbers', async () => {
    const b = await db();
    await importBundle(b, bundle);
    const again = file((await exportToBlob(b, seeded.project.id)).blob);
    const result = await importBundle(a, again, { onConflict: vi.fn() });
    expect(result.clips.every((c) => c.outcome === 'identical')).toBe(true);
  });

  it('refuses different work without an onConflict answer, naming the clip, and writes nothing', async () => {
    await paint(a, seeded.clips[0], 1, 'ann', 3);
    const before = await snapshot(a);
    const err = await importBundle(a, bundle).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ImportError);
    expect((err as Error).message).toMatch(/^Bundle test\.spoc\.zip: holds different work on clip "clip 0" \(gt: masks differ on 1 frame; history: 2 revisions here, 1 in the bundle\)/);
    expect(await snapshot(a)).toEqual(before);
  });

  it('asks once per differing clip with a summary; "mine" keeps the store as it is', async () => {
    await paint(a, seeded.clips[0], 1, 'ann', 3);
    await setFramePhase(a, seeded.clips[0].id, 2, 'end');
    const before = await snapshot(a);
    const asked: ClipConflict[] = [];
    const result = await importBundle(a, bundle, {
      onConflict: (mine, c) => {
        expect(mine.id).toBe(seeded.clips[0].id);
        asked.push(c);
        return 'mine';
      },
    });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({
      clipId: seeded.clips[0].id,
      name: 'clip 0',
      relation: 'mine-newer',
      mine: { revisions: 2, paintedFrames: 3, phases: 3, ignored: 1, sources: ['gt', 'pred:model-a'] },
      theirs: { revisions: 1, phases: 2 },
      both: { kind: 'sources', sources: [{ from: 'gt', to: 'pred:ann' }] },
    });
    expect(asked[0].differences).toEqual(['gt: masks differ on 1 frame; history: 2 revisions here, 1 in the bundle', 'phases differ on 1 frame']);
    expect(result.clips.map((c) => c.outcome)).toEqual(['kept-mine', 'identical']);
    expect(await snapshot(a)).toEqual(before);
  });

  it('"theirs" replaces the clip with the bundle\'s version', async () => {
    const original = await snapshot(a);
    await paint(a, seeded.clips[0], 1, 'ann', 3);
    await setFramePhase(a, seeded.clips[0].id, 2, 'end');
    const result = await importBundle(a, bundle, { onConflict: () => 'theirs' });
    expect(result.clips.map((c) => c.outcome)).toEqual(['took-theirs', 'identical']);
    const now = await snapshot(a);
    const forClip = (s: Record<string, unknown[]>, t: string) => (s[t] as { clipId?: string; id?: string }[]).filter((r) => (r.clipId ?? r.id) === seeded.clips[0].id);
    for (const t of ['clips', 'frames', 'frameImages', 'thumbnails', 'layers']) expect(forClip(now, t)).toEqual(forClip(original, t));
    // The history is theirs again (seq numbers may differ: the one taken by the local edit is reused or not).
    const strip = (rows: unknown[]) => rows.map((r) => ({ ...(r as object), seq: 0 }));
    expect(strip(forClip(now, 'revisions'))).toEqual(strip(forClip(original, 'revisions')));
  });

  it('"both" adds their differing gt as pred:<exporter>, with its history, and keeps mine', async () => {
    await paint(a, seeded.clips[0], 1, 'ann', 3);
    const mineBefore = await a.layers.where('[clipId+frameIndex]').equals([seeded.clips[0].id, 1]).toArray();
    const result = await importBundle(a, bundle, { onConflict: () => 'both' });
    expect(result.clips[0]).toMatchObject({ outcome: 'added-sources', detail: 'added gt as pred:ann' });
    const layers = await a.layers.where('[clipId+frameIndex]').equals([seeded.clips[0].id, 1]).toArray();
    expect(layers.find((l) => l.source === 'gt')).toEqual(mineBefore.find((l) => l.source === 'gt'));
    const theirs = layers.find((l) => l.source === 'pred:ann')!;
    expect(theirs.act).toEqual((await a.layers.get([seeded.clips[1].id, 'gt', 1]))!.act); // the original paint
    const revs = await a.revisions.where('[clipId+source+frameIndex]').equals([seeded.clips[0].id, 'pred:ann', 2]).toArray();
    expect(revs).toHaveLength(1);
    // Importing the same bundle again with "both" recognises the source it already added.
    const again = await importBundle(a, bundle, { onConflict: () => 'both' });
    expect(again.clips[0]).toMatchObject({ outcome: 'added-sources', detail: 'their sources were already here' });
  });

  it('reports the relation when the bundle continues the local history', async () => {
    const b = await db();
    await importBundle(b, bundle);
    await paint(b, seeded.clips[1], 0, 'bob', 4);
    const newer = file((await exportToBlob(b, seeded.project.id, { exportedBy: 'bob' })).blob, 'from-bob.spoc.zip');
    const asked: ClipConflict[] = [];
    const result = await importBundle(a, newer, { onConflict: (_m, c) => (asked.push(c), 'theirs') });
    expect(asked.map((c) => [c.name, c.relation])).toEqual([['clip 1', 'theirs-newer']]);
    expect(result.clips.map((c) => c.outcome)).toEqual(['identical', 'took-theirs']);
    const revs = await a.revisions.where('[clipId+source+frameIndex]').between([seeded.clips[1].id, '', 0], [seeded.clips[1].id, '\uffff', 99]).toArray();
    expect(revs.map((r) => r.author).sort()).toEqual(['ann', 'bob']);
  });

  it('stops when a clip changes between reading and writing (another tab), writing nothing', async () => {
    await paint(a, seeded.clips[0], 1, 'ann', 3);
    const before = await snapshot(a);
    const err = await importBundle(a, bundle, {
      onConflict: async () => {
        await setFramePhase(a, seeded.clips[1].id, 0, 'end'); // the "other tab"
        return 'theirs' as const;
      },
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ImportError);
    expect((err as Error).message).toContain('Bundle test.spoc.zip: cannot be imported: a clip it holds was changed here while the bundle was being read');
    const after = await snapshot(a);
    expect(after.revisions).toEqual(before.revisions);
    expect(after.layers).toEqual(before.layers);
  });

  it('imports into another project: clips there are added as copies when their ids live elsewhere', async () => {
    const other = await createProject(a, { name: 'Other' });
    const result = await importBundle(a, bundle, { projectId: other.id });
    expect(result.project.id).toBe(other.id);
    expect(result.clips.map((c) => c.outcome)).toEqual(['added-copy', 'added-copy']);
    expect(result.warnings[0]).toBe('The bundle holds project "Bundle test"; its clips were merged into "Other".');
    const copies = await a.clips.where('projectId').equals(other.id).toArray();
    expect(copies).toHaveLength(2);
    expect(copies.every((c) => !seeded.clips.some((s) => s.id === c.id))).toBe(true);
    expect(await a.layers.where('[clipId+frameIndex]').equals([copies[0].id, 2]).count()).toBe(2);
    expect(await a.meta.get(`${projectMetaPrefix(other.id)}review.round`)).toBeDefined();
    // Into a fresh store, a chosen project gets the clips with their own ids.
    const b = await db();
    const mine = await createProject(b, { name: 'Mine' });
    const r2 = await importBundle(b, bundle, { projectId: mine.id });
    expect(r2.clips.map((c) => [c.id, c.outcome])).toEqual(seeded.clips.map((c) => [c.id, 'added']));
    expect((await b.projects.get(mine.id))!.settings.thresholds).toEqual({ peel: { tau: 0.5, delta: 0.1 } });
  });
});
