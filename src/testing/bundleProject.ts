/**
 * Test and bench helpers for bundles (Node + fake-indexeddb): a project that uses every table and
 * every optional field, edits that add history, and re-zipping a bundle's entries to build hostile
 * variants. Test-only; not exported from index.ts.
 */
import { unzipSync, zipSync, type Zippable } from 'fflate';
import { encode as encodePng } from 'fast-png';
import { encode as encodeJpeg } from 'jpeg-js';
import { applyClipStep } from '../store/clipEvents';
import { addComment, replyToComment, setCommentResolved } from '../store/comments';
import type { SpocDb } from '../store/db';
import { setFrameIgnored, setFramePhase, setFrameReviewed } from '../store/frames';
import { commitClipImports, type ClipImportDraft } from '../store/importCommit';
import { putLayer, saveLayerEdit } from '../store/layers';
import { createClipObject, removeClipObject } from '../store/objects';
import { putFlagDismissal } from '../store/reviewFlags';
import { setMeta, setUserName } from '../store/meta';
import { createProject, updateProject } from '../store/projects';
import { H, W, importDraft, rleFromPicture, rleWithArea } from './storeFixtures';
import type { Clip, ClipObject, Project } from '../store/types';
import { exportBundle, type ExportBundleOptions } from '../io/bundle/exportBundle';
import { MANIFEST_PATH, PROJECT_PATH, countKeysOf, projectMetaPrefix, type BundleManifest } from '../io/bundle/format';
import { sha256Hex } from '../io/bundle/hash';
import { ChunkSink } from '../io/bundle/sinks';

export interface SeededProject {
  project: Project;
  clips: Clip[];
}

/** A project of `clips` clips (3 frames, 8x6) with gt and pred layers, history, phases, ignores, review steps, comments, meta. */
export async function seedProject(db: SpocDb, clips = 2, name = 'Bundle test'): Promise<SeededProject> {
  await setUserName(db, 'ann');
  const project = await createProject(db, { name });
  await updateProject(db, project.id, { settings: { thresholds: { peel: { tau: 0.5, delta: 0.1 } } } });
  const drafts: ClipImportDraft[] = Array.from({ length: clips }, (_, k) => {
    const d = importDraft(project.id, 3);
    d.clip.name = `clip ${k}`;
    // Real images (import checks every frame's header): JPEG frames, one PNG, all distinct.
    d.frames = d.frames.map((f, i) => {
      const mime = i === 2 ? 'image/png' : 'image/jpeg';
      return { ...f, name: `img_${k}_${i}`, image: new Blob([tinyImage(mime, 10 * k + i) as Uint8Array<ArrayBuffer>], { type: mime }), mime };
    });
    d.thumbnail = new Blob([tinyImage('image/png', 99) as Uint8Array<ArrayBuffer>], { type: 'image/png' });
    d.frames[0].phase = 'initial';
    if (k === 1) d.clip.assignee = 'bob';
    return d;
  });
  const rows = await commitClipImports(db, drafts);
  for (const clip of rows) {
    await putLayer(db, {
      clipId: clip.id,
      frameIndex: 2,
      source: 'pred:model-a',
      act: rleWithArea(H, W, 7),
      trf: rleWithArea(H, W, 2),
      provenance: { kind: 'imported', by: 'model-a', at: 5, from: 'run 1', confidence: 0.75 },
      instances: { tracks: [1, 2] },
    });
    await paint(db, clip, 2, 'ann');
    await setFramePhase(db, clip.id, 1, 'transitioning');
    await setFrameIgnored(db, clip.id, 2, { reason: 'too_blurry', note: 'motion', by: 'ann' });
    await setFrameReviewed(db, clip.id, 0, true);
    await putFlagDismissal(db, { clipId: clip.id, source: 'gt', flagId: `speck-${clip.id.slice(0, 4)}`, kind: 'speck', frameIndex: 1, box: { x: 1, y: 1, w: 2, h: 2 }, reason: 'real crumb', by: 'ann', at: 77 });
    await reviewClip(db, clip);
  }
  await setMeta(db, `${projectMetaPrefix(project.id)}review.round`, { round: 2, notes: ['a', 'b'] });
  const fresh = await db.clips.where('projectId').equals(project.id).toArray();
  return { project: (await db.projects.get(project.id))!, clips: fresh.sort((a, b) => a.name.localeCompare(b.name)) };
}

/** Review work on a clip: submitted, changes requested (with a note), a resolved thread with a reply, an open comment. */
export async function reviewClip(db: SpocDb, clip: Pick<Clip, 'id'>): Promise<void> {
  await applyClipStep(db, clip.id, { action: 'submit', by: 'ann', at: 200 }, () => ({ ok: true, to: 'submitted' }));
  await applyClipStep(db, clip.id, { action: 'request_changes', by: 'rev', at: 300 }, () => ({ ok: true, to: 'changes_requested', note: 'frame 2 is too loose' }));
  const root = await addComment(db, { clipId: clip.id, frameIndex: 2, x: 3, y: 4, author: 'rev', text: 'too loose here', at: 310 });
  await replyToComment(db, root.id, { author: 'ann', text: 'fixed', at: 320 });
  await setCommentResolved(db, root.id, true);
  await addComment(db, { clipId: clip.id, frameIndex: 0, x: 7, y: 5, author: 'rev', text: 'nice', at: 330 });
}

/** One brush-like edit on gt frame `frameIndex`: a 2x2 box turned actionable, with its revision. */
export async function paint(db: SpocDb, clip: Pick<Clip, 'id'>, frameIndex: number, author: string, variant = 0): Promise<void> {
  const picture = Array.from({ length: H }, (_, y) => Array.from({ length: W }, (_, x) => (x >= 2 + variant && x < 4 + variant && y >= 1 && y < 3 ? '#' : '.')).join(''));
  await saveLayerEdit(db, {
    layer: { clipId: clip.id, frameIndex, source: 'gt', act: rleFromPicture(picture), trf: rleWithArea(H, W, 0), provenance: { kind: 'manual', by: author, at: 100 + variant } },
    revision: {
      clipId: clip.id,
      frameIndex,
      source: 'gt',
      author,
      at: 1000 + variant,
      action: 'brush',
      box: { x: 2 + variant, y: 1, w: 2, h: 2 },
      before: rleWithArea(2, 2, 0),
      after: rleWithArea(2, 2, 4),
      afterTrf: rleWithArea(2, 2, 0),
    },
  });
}

/** A W x H image whose pixels depend on `seed` (so every frame differs), as JPEG or PNG bytes. */
export function tinyImage(mime: 'image/jpeg' | 'image/png', seed: number, width = W, height = H): Uint8Array {
  const rgba = new Uint8Array(width * height * 4).map((_, i) => (i % 4 === 3 ? 255 : (seed * 37 + i * 11) & 0xff));
  if (mime === 'image/png') return encodePng({ width, height, data: rgba, channels: 4, depth: 8 });
  return new Uint8Array(encodeJpeg({ data: rgba, width, height }, 90).data);
}

/** Only a PNG's signature and IHDR chunk: a header declaring any size, with no pixels behind it. */
export function pngHeader(width: number, height: number): Uint8Array {
  const out = new Uint8Array(33);
  const dv = new DataView(out.buffer);
  out.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  dv.setUint32(8, 13);
  out.set(new TextEncoder().encode('IHDR'), 12);
  dv.setUint32(16, width);
  dv.setUint32(20, height);
  out.set([8, 2, 0, 0, 0], 24); // 8-bit RGB; the CRC stays zero, which header readers ignore
  return out;
}

export async function exportToBlob(db: SpocDb, projectId: string, options: ExportBundleOptions = {}): Promise<{ blob: Blob; sink: ChunkSink }> {
  const sink = new ChunkSink();
  await exportBundle(db, projectId, sink, { now: Date.UTC(2026, 0, 2), ...options });
  return { blob: sink.toBlob(), sink };
}

export async function blobEntries(blob: Blob): Promise<Record<string, Uint8Array>> {
  return unzipSync(new Uint8Array(await blob.arrayBuffer()));
}

const json = (b: Uint8Array) => JSON.parse(new TextDecoder().decode(b)) as unknown;
const bytesOf = (v: unknown) => new TextEncoder().encode(JSON.stringify(v));

/**
 * Rebuilds a bundle from its entries after `edit` changed some of them; the manifest's sizes and
 * checksums are recomputed unless `keepManifest` (then only `editManifest` changes it).
 */
export async function rebuild(
  blob: Blob,
  edit: (entries: Record<string, Uint8Array>) => void,
  options: { keepManifest?: boolean; editManifest?: (m: BundleManifest) => void } = {},
): Promise<Blob> {
  const entries = await blobEntries(blob);
  const manifest = json(entries[MANIFEST_PATH]) as BundleManifest;
  delete entries[MANIFEST_PATH];
  edit(entries);
  if (!options.keepManifest) {
    manifest.entries = [];
    for (const [path, data] of Object.entries(entries)) manifest.entries.push({ path, bytes: data.length, sha256: await sha256Hex(data) });
  }
  options.editManifest?.(manifest);
  const files: Zippable = {};
  for (const [path, data] of Object.entries(entries)) files[path] = [data, { level: 0 }];
  files[MANIFEST_PATH] = bytesOf(manifest);
  return new Blob([zipSync(files)], { type: 'application/zip' });
}

/** Edits a JSON entry in place (for rebuild). */
export function editJson(entries: Record<string, Uint8Array>, path: string, change: (doc: Record<string, unknown>) => void): void {
  const doc = json(entries[path]) as Record<string, unknown>;
  change(doc);
  entries[path] = bytesOf(doc);
}

/** Takes the log rows' ids out of every clip's entries, as an app before bundle format v4 wrote them (for rebuild). */
export function withoutRowIds(entries: Record<string, Uint8Array>): void {
  const strip = (rows: unknown) => {
    for (const r of (rows as Record<string, unknown>[] | undefined) ?? []) delete r.id;
  };
  for (const path of Object.keys(entries)) {
    if (path.endsWith('/revisions.json')) editJson(entries, path, (d) => strip(d.revisions));
    else if (path.endsWith('/clip.json'))
      editJson(entries, path, (d) => {
        strip(d.clipEvents);
        strip(d.frameVerdicts);
      });
  }
}

/** Takes out what bundle format v5 added (clip.json `objects`, project.json `labels`), as an app before v5 wrote it (for rebuild). */
export function withoutObjects(entries: Record<string, Uint8Array>): void {
  for (const path of Object.keys(entries)) {
    if (path.endsWith('/clip.json')) editJson(entries, path, (d) => delete d.objects);
    else if (path === PROJECT_PATH) editJson(entries, path, (d) => delete (d.project as Record<string, unknown>).labels);
  }
}

/** A manifest edit (for rebuild) making it one of format `version`: the counts that version did not have yet are taken out. */
export function asFormat(version: number): (m: BundleManifest) => void {
  return (m) => {
    m.formatVersion = version;
    const keep = new Set<string>(countKeysOf(version));
    for (const k of Object.keys(m.counts)) if (!keep.has(k)) delete (m.counts as unknown as Record<string, number>)[k];
  };
}

export interface SeededObjects extends SeededProject {
  /** Objects of clips[0]: a knife (keyframes, exhaustive), a left hand (occluded, propagated), a removed spoon. */
  knife: ClipObject;
  hand: ClipObject;
  spoon: ClipObject;
  /** The object of clips[1]. */
  pan: ClipObject;
}

/** '#' marks pixels of the 8x6 test frame. */
const pic = (...rows: string[]) => rleFromPicture(rows);
const KNIFE = pic('##......', '##......', '........', '........', '........', '........');
const HAND = pic('........', '........', '........', '........', '......##', '......##');
const BOTH = pic('##......', '##......', '........', '........', '......##', '......##');
const NONE = rleWithArea(H, W, 0);

/**
 * An objects project (bundle format v5): an ontology (the hands, a macro-class, a class with a
 * parent and attributes), two clips; clip 0 has three objects (one removed) on layers with
 * keyframes, presence, exhaustive flags and per-object provenance with confidence, and revisions
 * recording owners; clip 1 has one object.
 */
export async function seedObjectsProject(db: SpocDb, name = 'Objects bundle'): Promise<SeededObjects> {
  await setUserName(db, 'ann');
  const created = await createProject(db, { name, kind: 'objects' });
  await updateProject(db, created.id, {
    labels: {
      kind: 'objects',
      classes: [
        ...created.labels!.classes,
        { id: 'utensil', name: 'utensil', colour: '#336699', attributes: [] },
        {
          id: 'knife',
          name: 'knife',
          colour: '#123456',
          hotkey: 'k',
          parentId: 'utensil',
          attributes: [
            { id: 'sharp', name: 'sharp', kind: 'boolean' },
            { id: 'size', name: 'size', kind: 'choice', options: ['small', 'big'] },
          ],
        },
        { id: 'pan', name: 'pan', colour: '#101010', attributes: [{ id: 'note', name: 'note', kind: 'text' }] },
      ],
    },
  });
  const drafts: ClipImportDraft[] = [0, 1].map((k) => {
    const d = importDraft(created.id, 3, { layers: [] });
    d.clip.name = `objects clip ${k}`;
    d.frames = d.frames.map((f, i) => ({ ...f, image: new Blob([tinyImage('image/jpeg', 50 + 10 * k + i) as Uint8Array<ArrayBuffer>], { type: 'image/jpeg' }), mime: 'image/jpeg' }));
    d.thumbnail = new Blob([tinyImage('image/png', 98) as Uint8Array<ArrayBuffer>], { type: 'image/png' });
    return d;
  });
  const [clip0, clip1] = await commitClipImports(db, drafts);
  const knife = await createClipObject(db, { clipId: clip0.id, by: 'ann', classId: 'knife', attributes: { sharp: true, size: 'big' }, at: 10 });
  const hand = await createClipObject(db, { clipId: clip0.id, by: 'ann', classId: 'hand:left', at: 11 });
  let spoon = await createClipObject(db, { clipId: clip0.id, by: 'bob', classId: 'utensil', name: 'spoon', at: 12 });
  spoon = await removeClipObject(db, spoon.id, 13);
  const pan = await createClipObject(db, { clipId: clip1.id, by: 'ann', classId: 'pan', attributes: { note: 'cast iron' }, at: 14 });

  const box = { x: 0, y: 0, w: 2, h: 2 };
  const full = rleWithArea(2, 2, 4);
  const empty = rleWithArea(2, 2, 0);
  // Frame 0: the knife drawn on a keyframe (a revision recording its owner), the hand visible, the spoon out of view.
  await saveLayerEdit(db, {
    layer: {
      clipId: clip0.id,
      frameIndex: 0,
      source: 'gt',
      act: BOTH,
      trf: NONE,
      provenance: { kind: 'manual', by: 'ann', at: 20 },
      objects: [
        { id: knife.id, rle: KNIFE, area: 4, keyframe: true, exhaustive: true },
        { id: hand.id, rle: HAND, area: 4, presence: 'visible' },
        { id: spoon.id, rle: NONE, area: 0, presence: 'out_of_view' },
      ],
    },
    revision: { clipId: clip0.id, frameIndex: 0, source: 'gt', author: 'ann', at: 21, action: 'brush', box, before: empty, after: full, objectsBefore: [], objectsAfter: [{ id: knife.id, rle: full }] },
  });
  // Frame 1: the knife interpolated, the hand propagated and occluded.
  await putLayer(db, {
    clipId: clip0.id,
    frameIndex: 1,
    source: 'gt',
    act: BOTH,
    trf: NONE,
    provenance: { kind: 'manual', by: 'ann', at: 22 },
    objects: [
      { id: knife.id, rle: KNIFE, area: 4, provenance: { kind: 'interpolated', by: 'interpolator', at: 23, from: 'keyframes 0-2', confidence: 0.8125 } },
      { id: hand.id, rle: HAND, area: 4, presence: 'occluded', provenance: { kind: 'propagated', by: 'tracker', at: 24, confidence: 0.5 } },
    ],
  });
  // Frame 2: the knife's second keyframe, its pixels moved from the hand's place (owners on both sides).
  await saveLayerEdit(db, {
    layer: {
      clipId: clip0.id,
      frameIndex: 2,
      source: 'gt',
      act: HAND,
      trf: NONE,
      provenance: { kind: 'manual', by: 'ann', at: 25 },
      objects: [
        { id: knife.id, rle: HAND, area: 4, keyframe: true },
        { id: hand.id, rle: NONE, area: 0, presence: 'absent' },
      ],
    },
    revision: {
      clipId: clip0.id,
      frameIndex: 2,
      source: 'gt',
      author: 'ann',
      at: 26,
      action: 'give',
      box: { x: 6, y: 4, w: 2, h: 2 },
      before: full,
      after: full,
      objectsBefore: [{ id: hand.id, rle: full }],
      objectsAfter: [{ id: knife.id, rle: full }],
    },
  });
  await putLayer(db, {
    clipId: clip1.id,
    frameIndex: 0,
    source: 'gt',
    act: KNIFE,
    trf: NONE,
    provenance: { kind: 'manual', by: 'ann', at: 27 },
    objects: [{ id: pan.id, rle: KNIFE, area: 4, keyframe: true }],
  });
  const clips = (await db.clips.where('projectId').equals(created.id).toArray()).sort((a, b) => a.name.localeCompare(b.name));
  return { project: (await db.projects.get(created.id))!, clips, knife, hand, spoon, pan };
}
