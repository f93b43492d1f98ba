/**
 * Imports a project bundle (format.ts) into the store.
 *
 * 1. Read: the zip's central directory, then manifest.json (format and schema versions), then every
 *    entry — checked against the manifest (no entry missing or extra, same sizes, SHA-256) and, for
 *    JSON, parsed into rows with the store's own checks (rows.ts). Images are not kept in memory:
 *    a stored entry becomes a slice of the bundle file (a Blob the browser reads lazily).
 * 2. Plan, clip by clip: new clips are added; a clip the project already has (same id) is compared
 *    (merge.ts): identical work is skipped, different work is put to `onConflict` — keep mine, take
 *    theirs, or both (their differing sources added as `pred:<exporter>`; a copy of the clip when
 *    the frames differ). A clip id that lives in another local project is imported as a copy.
 * 3. Write everything in ONE read-write transaction over all tables, holding the edit lock of every
 *    clip here it changes (refused as a whole while another tab edits one of them) and after
 *    re-checking that no affected clip changed since step 2. Any failure — a hostile entry, a
 *    conflict left unanswered, a clip open elsewhere, cancel, quota — leaves the store exactly as it was.
 *
 * Errors name the bundle and the problem ("<bundle>: <entry>: <problem>").
 */
import type { SpocDb } from '../../store/db';
import { deleteClipRows } from '../../store/clips';
import { StoreError, isQuotaError, reasonOf } from '../../store/errors';
import {
  addClipBase,
  addCommentRows,
  addFlagDismissalRows,
  addLayerRows,
  addMetaRow,
  addObjectRows,
  addProjectRow,
  appendClipEventRows,
  appendFrameVerdictRows,
  appendRevisionRows,
  getMetaRow,
  getProjectRow,
  layerWithObjectIds,
  putProjectRow,
  readClipRows,
  revisionWithObjectIds,
  touchClipRow,
} from '../../store/clipRows';
import type { Clip, FrameImage, MetaEntry, Project, Revision } from '../../store/types';
import { ImportError } from '../importError';
import { readImageSize } from '../images/imageSize';
import { usableFrameSize } from '../images/imageSequence';
import { sha256Hex } from './hash';
import {
  MANIFEST_PATH,
  MAX_JSON_ENTRY_BYTES,
  MAX_MANIFEST_BYTES,
  META_PATH,
  PROJECT_PATH,
  entryRole,
  parseManifest,
  projectMetaPrefix,
  type BundleCounts,
  type BundleManifest,
  type ManifestEntry,
} from './format';
import { bundleLabel, canonical, conflictSummary, keptDifferences, labelSchemaDifferences, planBoth, sameWork, type ClipConflict, type ClipSide, type ConflictChoice } from './merge';
import { BundleCancelled, throwIfCancelled, type BundleProgress } from './progress';
import { parseClipJson, parseMetaJson, parseProjectJson, parseRevisionsJson, type ClipJson } from './rows';
import { readZipDirectory, type ZipEntry } from '../files/zipDirectory';
import { RangeReader, readEntry } from '../files/zipEntry';
import { DEFAULT_ZIP_READ_LIMITS, type ZipReadLimits } from './zipReader';
import { newId } from '../../store/ids';
import { ClipBusyError, withClipWriteLock } from '../../workspace/clipWriteLock';

export interface ImportBundleOptions {
  /** Import into this existing project. Default: the bundle's own project, created when absent. */
  projectId?: string;
  /** Names the bundle in messages; default the File's name. */
  name?: string;
  onProgress?: (p: BundleProgress) => void;
  signal?: AbortSignal;
  /**
   * Asked once per clip whose work differs from the bundle's. Without it, such a bundle is refused
   * (nothing is decided silently).
   */
  onConflict?: (mine: Clip, conflict: ClipConflict) => ConflictChoice | Promise<ConflictChoice>;
  limits?: Partial<ZipReadLimits>;
  /** Time stamped on rows the merge touches; default now. */
  now?: number;
}

export type ClipOutcome = 'added' | 'identical' | 'kept-mine' | 'took-theirs' | 'added-sources' | 'added-copy';

export interface ClipImportReport {
  /** The clip's id in the store (a new one for copies). */
  id: string;
  name: string;
  outcome: ClipOutcome;
  detail?: string;
}

export interface BundleImportResult {
  project: Project;
  createdProject: boolean;
  clips: ClipImportReport[];
  /** Things kept or renamed that the person should know about. */
  warnings: string[];
  manifest: BundleManifest;
}

/** One clip of the bundle, checked, with its blobs. */
export interface BundleClip extends ClipJson {
  revisions: Revision[];
  images: Blob[];
  thumbnailBlob: Blob | null;
}

export interface ReadBundle {
  name: string;
  manifest: BundleManifest;
  project: Project;
  meta: MetaEntry[];
  clips: BundleClip[];
}

function bundleNameOf(file: Blob, options: { name?: string }): string {
  return options.name ?? ((file as File).name || 'bundle');
}

/**
 * Step 1 on its own: reads and checks the whole bundle without touching the store.
 * Throws ImportError naming the bundle and the problem.
 */
export async function readBundle(file: Blob, options: Pick<ImportBundleOptions, 'name' | 'onProgress' | 'signal' | 'limits'> = {}): Promise<ReadBundle> {
  const name = bundleNameOf(file, options);
  const limits = { ...DEFAULT_ZIP_READ_LIMITS, ...options.limits };
  const fail = (problem: string): never => {
    throw new ImportError(name, problem);
  };
  options.onProgress?.({ stage: 'Reading the bundle', done: 0, total: 1, bytes: 0 });
  // Folder entries ("clips/", as zip tools add when a bundle is unpacked and zipped again) hold nothing.
  const entries = (await readZipDirectory(file, name, limits)).filter((e) => !(e.name.endsWith('/') && e.size === 0));
  const source = new RangeReader(file);
  const byName = new Map(entries.map((e) => [e.name, e]));
  const manifestEntry = byName.get(MANIFEST_PATH);
  if (!manifestEntry) fail(`has no ${MANIFEST_PATH}; it is not a SPOC Studio project bundle`);
  if (manifestEntry!.size > MAX_MANIFEST_BYTES) fail(`${MANIFEST_PATH} declares ${manifestEntry!.size} bytes, over the ${MAX_MANIFEST_BYTES} byte limit`);
  const manifest = parseManifest((await readEntry(source, manifestEntry!, name)).bytes, name, limits.maxEntries);

  // The archive and the manifest must list exactly the same entries with the same sizes.
  const listed = new Map(manifest.entries.map((e) => [e.path, e]));
  for (const e of entries) {
    if (e.name === MANIFEST_PATH) continue;
    if (!listed.has(e.name)) {
      fail(entryRole(e.name) ? `entry ${JSON.stringify(e.name)} is not listed in the manifest` : `entry ${JSON.stringify(e.name)} is not part of a bundle (unexpected file)`);
    }
    if (listed.get(e.name)!.bytes !== e.size) fail(`entry ${JSON.stringify(e.name)} holds ${e.size} bytes but the manifest says ${listed.get(e.name)!.bytes}`);
  }
  for (const e of manifest.entries) if (!byName.has(e.path)) fail(`is missing ${JSON.stringify(e.path)}, which its manifest lists; the bundle is incomplete`);

  // Group the entries by clip, in manifest order.
  const clipIds: string[] = [];
  const clipEntries = new Map<string, { clip?: ManifestEntry; revisions?: ManifestEntry; thumbnail?: ManifestEntry; frames: Map<number, ManifestEntry> }>();
  let projectEntry: ManifestEntry | undefined;
  let metaEntry: ManifestEntry | undefined;
  for (const e of manifest.entries) {
    const role = entryRole(e.path)!;
    if (role.kind === 'project') projectEntry = e;
    else if (role.kind === 'meta') metaEntry = e;
    else {
      let g = clipEntries.get(role.clipId);
      if (!g) {
        clipEntries.set(role.clipId, (g = { frames: new Map() }));
        clipIds.push(role.clipId);
      }
      if (role.kind === 'clip') g.clip = e;
      else if (role.kind === 'revisions') g.revisions = e;
      else if (role.kind === 'thumbnail') {
        if (g.thumbnail) fail(`has two thumbnails for clip ${role.clipId}`);
        g.thumbnail = e;
      } else {
        if (g.frames.has(role.index)) fail(`has two images for frame ${role.index} of clip ${role.clipId}`);
        g.frames.set(role.index, e);
      }
    }
  }
  if (!projectEntry) fail(`has no ${PROJECT_PATH}`);
  if (!metaEntry) fail(`has no ${META_PATH}`);

  let readBytes = 0;
  let done = 0;
  const check = async (e: ManifestEntry, maxBytes: number): Promise<{ bytes: Uint8Array; entry: ZipEntry; start: number; end: number }> => {
    throwIfCancelled(options.signal, 'import');
    if (e.bytes > maxBytes) fail(`entry ${JSON.stringify(e.path)} declares ${e.bytes} bytes, over the ${maxBytes} byte limit for this kind of entry`);
    const entry = byName.get(e.path)!;
    const content = await readEntry(source, entry, name);
    if ((await sha256Hex(content.bytes)) !== e.sha256) fail(`entry ${JSON.stringify(e.path)} does not match its SHA-256 checksum in the manifest; the bundle is damaged or was altered`);
    readBytes += e.bytes;
    done++;
    options.onProgress?.({ stage: 'Checking the bundle', done, total: manifest.entries.length, bytes: readBytes });
    return { ...content, entry };
  };
  /**
   * A verified image entry: a lazy slice of the bundle when stored, else the inflated bytes. Its
   * header must be an image of a size a frame may have (as folder and zip imports demand), and of
   * `size` when given: checksums only prove the bundle is what its writer meant, not that it is sane.
   */
  const imageOf = async (e: ManifestEntry, type: string, what: string, size?: { width: number; height: number }): Promise<Blob> => {
    const c = await check(e, limits.maxEntryBytes);
    const declared = usableFrameSize(readImageSize(c.bytes), (problem) => fail(`entry ${JSON.stringify(e.path)} (${what}) ${problem}`));
    if (size && (declared.width !== size.width || declared.height !== size.height)) {
      fail(`entry ${JSON.stringify(e.path)} (${what}) is ${declared.width}x${declared.height} but the clip is ${size.width}x${size.height}`);
    }
    return c.entry.method === 0 ? file.slice(c.start, c.end, type) : new Blob([c.bytes as Uint8Array<ArrayBuffer>], { type });
  };

  const { project } = parseProjectJson((await check(projectEntry!, MAX_JSON_ENTRY_BYTES)).bytes, name, PROJECT_PATH, manifest.formatVersion);
  if (project.id !== manifest.project.id) fail(`${PROJECT_PATH}: project.id is ${JSON.stringify(project.id)} but the manifest is for ${JSON.stringify(manifest.project.id)}`);
  const { meta } = parseMetaJson((await check(metaEntry!, MAX_JSON_ENTRY_BYTES)).bytes, name, META_PATH, project.id);

  const clips: BundleClip[] = [];
  const seqs = new Set<number>();
  const commentIds = new Set<string>();
  const logIds = new Set<string>();
  const objectIds = new Set<string>();
  for (const clipId of clipIds) {
    const g = clipEntries.get(clipId)!;
    const dir = `clips/${clipId}/`;
    if (!g.clip) fail(`${dir} has entries but no clip.json (rows referencing a clip the bundle does not have)`);
    if (!g.revisions) fail(`${dir} has no revisions.json`);
    const json = parseClipJson((await check(g.clip!, MAX_JSON_ENTRY_BYTES)).bytes, name, g.clip!.path, clipId, project.id, manifest.formatVersion);
    for (const c of json.comments) {
      if (commentIds.has(c.id)) fail(`${g.clip!.path}: comment id ${JSON.stringify(c.id)} also appears in another clip`);
      commentIds.add(c.id);
    }
    // An object id names one object of one clip: a layer of another clip cannot borrow it.
    for (const o of json.objects) {
      if (objectIds.has(o.id)) fail(`${g.clip!.path}: object id ${JSON.stringify(o.id)} also appears in another clip`);
      objectIds.add(o.id);
    }
    const clipObjectIds = new Set(json.objects.map((o) => o.id));
    const { revisions } = parseRevisionsJson((await check(g.revisions!, MAX_JSON_ENTRY_BYTES)).bytes, name, g.revisions!.path, json.clip, manifest.formatVersion, clipObjectIds);
    for (const r of revisions) {
      if (seqs.has(r.seq)) fail(`${g.revisions!.path}: revision seq ${r.seq} also appears in another clip`);
      seqs.add(r.seq);
    }
    // Each id names one row in the whole bundle (rows.ts checks within a clip's log).
    for (const [what, rows] of [['revision', revisions], ['clip event', json.clipEvents], ['frame verdict', json.frameVerdicts]] as const) {
      for (const row of rows) {
        const key = `${what}\u0000${row.id}`;
        if (logIds.has(key)) fail(`${what === 'revision' ? g.revisions!.path : g.clip!.path}: ${what} id ${JSON.stringify(row.id)} also appears in another clip`);
        logIds.add(key);
      }
    }
    let thumbnailBlob: Blob | null = null;
    if (json.thumbnail) {
      const e = g.thumbnail;
      if (!e || e.path !== json.thumbnail.path) fail(`${g.clip!.path}: thumbnail names ${JSON.stringify(json.thumbnail.path)}, which the bundle does not have`);
      if (e!.bytes !== json.thumbnail.bytes) fail(`${g.clip!.path}: thumbnail.bytes is ${json.thumbnail.bytes} but the entry holds ${e!.bytes}`);
      thumbnailBlob = await imageOf(e!, json.thumbnail.blobType, `the thumbnail of clip "${json.clip.name}"`);
    } else if (g.thumbnail) fail(`${g.thumbnail.path} is not referenced by ${g.clip!.path}`);
    if (g.frames.size !== json.frameImages.length) {
      const extra = [...g.frames.values()].find((e) => !json.frameImages.some((im) => im.path === e.path));
      fail(extra ? `${extra.path} is not referenced by ${g.clip!.path}` : `${g.clip!.path} lists ${json.frameImages.length} frame images but the bundle holds ${g.frames.size}`);
    }
    const images: Blob[] = [];
    for (const im of json.frameImages) {
      const e = g.frames.get(im.index);
      if (!e || e.path !== im.path) fail(`${g.clip!.path}: frame ${im.index}'s image ${JSON.stringify(im.path)} is not in the bundle`);
      if (e!.bytes !== im.bytes) fail(`${g.clip!.path}: frameImages[${im.index}].bytes is ${im.bytes} but the entry holds ${e!.bytes}`);
      images.push(await imageOf(e!, im.blobType, `frame ${im.index} of clip "${json.clip.name}"`, json.clip));
    }
    clips.push({ ...json, revisions, images, thumbnailBlob });
  }

  const counted: BundleCounts = {
    clips: clips.length,
    frames: clips.reduce((n, c) => n + c.frames.length, 0),
    frameImages: clips.reduce((n, c) => n + c.images.length, 0),
    thumbnails: clips.filter((c) => c.thumbnailBlob).length,
    layers: clips.reduce((n, c) => n + c.layers.length, 0),
    revisions: clips.reduce((n, c) => n + c.revisions.length, 0),
    reviewFlags: clips.reduce((n, c) => n + c.reviewFlags.length, 0),
    clipEvents: clips.reduce((n, c) => n + c.clipEvents.length, 0),
    comments: clips.reduce((n, c) => n + c.comments.length, 0),
    frameVerdicts: clips.reduce((n, c) => n + c.frameVerdicts.length, 0),
    objects: clips.reduce((n, c) => n + c.objects.length, 0),
    meta: meta.length,
  };
  for (const [k, v] of Object.entries(counted)) {
    const declared = manifest.counts[k as keyof BundleCounts];
    if (declared !== v) fail(`${MANIFEST_PATH}: counts.${k} is ${declared} but the bundle holds ${v}`);
  }
  return { name, manifest, project, meta, clips };
}

/** Reads one local clip's rows in one transaction (for comparing and re-checking). */
async function localSide(db: SpocDb, clipId: string): Promise<ClipSide | null> {
  const rows = await readClipRows(db, clipId);
  if (!rows) return null;
  const { frameImages, thumbnail: _thumbnail, ...rest } = rows;
  return { ...rest, images: frameImages.map((im) => ({ mime: im.mime, bytes: im.blob.size })) };
}

function bundleSide(c: BundleClip): ClipSide {
  return {
    clip: c.clip,
    frames: c.frames,
    images: c.frameImages.map((im) => ({ mime: im.mime, bytes: im.bytes })),
    layers: c.layers,
    revisions: c.revisions,
    reviewFlags: c.reviewFlags,
    clipEvents: c.clipEvents,
    comments: c.comments,
    frameVerdicts: c.frameVerdicts,
    objects: c.objects,
  };
}

/** A fingerprint of a local clip's state: if it changes between planning and writing, the import stops. */
function fingerprint(side: ClipSide | null): string {
  if (!side) return 'absent';
  return canonical({
    clip: side.clip,
    frames: side.frames,
    layers: side.layers.map((l) => [l.source, l.frameIndex, l.updatedAt, l.actArea, l.trfArea]),
    revisions: [side.revisions.length, side.revisions.at(-1)?.seq ?? 0],
    reviewFlags: side.reviewFlags,
    clipEvents: [side.clipEvents.length, (side.clipEvents.at(-1) as { seq?: number } | undefined)?.seq ?? 0],
    comments: side.comments,
    frameVerdicts: [side.frameVerdicts.length, (side.frameVerdicts.at(-1) as { seq?: number } | undefined)?.seq ?? 0],
    objects: side.objects,
    images: side.images,
  });
}

type Plan =
  | { kind: 'new'; clip: BundleClip }
  | { kind: 'identical'; clip: BundleClip }
  | { kind: 'mine'; clip: BundleClip }
  | { kind: 'theirs'; clip: BundleClip; mine: ClipSide }
  | { kind: 'both'; clip: BundleClip; mine: ClipSide }
  | { kind: 'copy'; clip: BundleClip; newId: string; name: string; reason: string };

export async function importBundle(db: SpocDb, file: Blob, options: ImportBundleOptions = {}): Promise<BundleImportResult> {
  const bundle = await readBundle(file, options);
  const { name, manifest } = bundle;
  const now = options.now ?? Date.now();
  const signal = options.signal;
  const fail = (problem: string): never => {
    throw new ImportError(name, problem);
  };
  const label = bundleLabel(manifest.exportedBy, name);

  // ---- plan (reads only)
  const targetId = options.projectId ?? bundle.project.id;
  const existingProject = await getProjectRow(db, targetId);
  if (options.projectId && !existingProject) fail('cannot be imported: the project to import into was not found (it may have been deleted in another tab)');
  if (existingProject) refuseOtherLabels(existingProject, bundle.project, fail);
  const plans: Plan[] = [];
  const fingerprints = new Map<string, string>();
  const total = bundle.clips.length;
  for (const [i, c] of bundle.clips.entries()) {
    throwIfCancelled(signal, 'import');
    options.onProgress?.({ stage: 'Comparing with this project', done: i, total, bytes: 0 });
    const mine = await db.transaction('r', db.tables, () => localSide(db, c.clip.id));
    fingerprints.set(c.clip.id, fingerprint(mine));
    if (!mine) {
      plans.push({ kind: 'new', clip: c });
    } else if (mine.clip.projectId !== targetId) {
      plans.push({ kind: 'copy', clip: c, newId: newId(), name: c.clip.name, reason: 'this clip already exists in another project here' });
    } else if (sameWork(mine, bundleSide(c))) {
      plans.push({ kind: 'identical', clip: c });
    } else {
      const theirs = bundleSide(c);
      const conflict = conflictSummary(mine, theirs, label);
      if (!options.onConflict) {
        fail(`holds different work on clip "${mine.clip.name}" (${conflict.differences.join('; ')}); choose to keep yours, take theirs or keep both. Nothing was imported.`);
      }
      const choice = await options.onConflict!(mine.clip, conflict);
      throwIfCancelled(signal, 'import');
      if (choice === 'mine') plans.push({ kind: 'mine', clip: c });
      else if (choice === 'theirs') plans.push({ kind: 'theirs', clip: c, mine });
      else if (choice === 'both') {
        if (conflict.both.kind === 'copy') plans.push({ kind: 'copy', clip: c, newId: newId(), name: conflict.both.name, reason: 'its frames differ from the clip here' });
        else plans.push({ kind: 'both', clip: c, mine });
      } else fail(`got the answer ${JSON.stringify(choice)} for clip "${mine.clip.name}"; expected mine, theirs or both`);
    }
  }

  // ---- lock every clip here the write changes, before anything is written: while another tab edits
  // one of them, the import is refused as a whole (that editor would write its stale copy back).
  const changing = plans.flatMap((p) => (p.kind === 'theirs' || p.kind === 'both' ? [{ id: p.mine.clip.id, name: p.mine.clip.name }] : []));

  // ---- write (one transaction)
  const reports: ClipImportReport[] = [];
  const warnings: string[] = [];
  let createdProject = false;
  let project: Project = existingProject ?? bundle.project;
  // Every table: the rows of all of them, and the cascade of "theirs" (which knows every clip table).
  const tables = db.tables;
  options.onProgress?.({ stage: 'Saving', done: 0, total, bytes: 0 });
  try {
    await withClipWriteLock(changing, name, () => db.transaction('rw', tables, async () => {
      let changed = false;
      const current = await getProjectRow(db, targetId);
      if (!existingProject) {
        if (current) fail('cannot be imported: its project was created in another tab meanwhile; import again');
        await addProjectRow(db, bundle.project);
        createdProject = true;
      } else {
        if (!current) fail('cannot be imported: the project was deleted meanwhile');
        project = current!;
        refuseOtherLabels(project, bundle.project, fail); // its schema may have changed in another tab since
      }
      for (const [id, fp] of fingerprints) {
        if (fingerprint(await localSide(db, id)) !== fp) fail('cannot be imported: a clip it holds was changed here while the bundle was being read (another tab?). Nothing was imported; import again.');
      }
      for (const [i, plan] of plans.entries()) {
        if (signal?.aborted) throw new BundleCancelled('import');
        options.onProgress?.({ stage: 'Saving', done: i, total, bytes: 0 });
        const c = plan.clip;
        switch (plan.kind) {
          case 'new':
            await addClip(db, c, targetId, c.clip.id, c.clip.name, true);
            reports.push({ id: c.clip.id, name: c.clip.name, outcome: 'added' });
            changed = true;
            break;
          case 'identical':
            reports.push({ id: c.clip.id, name: c.clip.name, outcome: 'identical', detail: 'the same work is already here' });
            break;
          case 'mine':
            reports.push({ id: c.clip.id, name: c.clip.name, outcome: 'kept-mine', detail: "kept this project's version; the bundle's was not imported" });
            break;
          case 'theirs':
            await deleteClipRows(db, c.clip.id);
            await addClip(db, c, targetId, c.clip.id, c.clip.name, true);
            reports.push({ id: c.clip.id, name: c.clip.name, outcome: 'took-theirs', detail: "replaced by the bundle's version" });
            changed = true;
            break;
          case 'both': {
            const both = planBoth(plan.mine, bundleSide(c), label);
            // Objects first: their layers and revisions name them, and follow any id that had to change.
            const renamed = await addObjectRows(db, both.objects, true);
            await addLayerRows(db, both.layers.map((l) => layerWithObjectIds(l, renamed)));
            await appendRevisionRows(db, both.revisions.map((r) => revisionWithObjectIds(r, renamed)));
            await addFlagDismissalRows(db, both.reviewFlags);
            await appendClipEventRows(db, both.clipEvents);
            await addCommentRows(db, both.comments, true);
            await appendFrameVerdictRows(db, both.frameVerdicts);
            if (both.sources.length > 0 || both.reviewFlags.length > 0 || both.clipEvents.length > 0 || both.comments.length > 0 || both.frameVerdicts.length > 0 || both.objects.length > 0) {
              await touchClipRow(db, c.clip.id, now);
              changed = true;
            }
            const moved = both.sources.map((s) => (s.from === s.to ? s.to : `${s.from} as ${s.to}`)).join(', ');
            const review = [
              both.objects.length > 0 ? `${both.objects.length} ${both.objects.length === 1 ? 'object' : 'objects'}` : '',
              both.clipEvents.length > 0 ? `${both.clipEvents.length} review ${both.clipEvents.length === 1 ? 'step' : 'steps'}` : '',
              both.comments.length > 0 ? `${both.comments.length} ${both.comments.length === 1 ? 'comment' : 'comments'}` : '',
              both.frameVerdicts.length > 0 ? `${both.frameVerdicts.length} frame ${both.frameVerdicts.length === 1 ? 'verdict' : 'verdicts'}` : '',
            ].filter(Boolean);
            const detail = [moved ? `added ${moved}` : 'their sources were already here', review.length > 0 ? `added ${review.join(' and ')}` : ''].filter(Boolean).join('; ');
            reports.push({ id: c.clip.id, name: plan.mine.clip.name, outcome: 'added-sources', detail });
            const kept = keptDifferences(plan.mine, bundleSide(c));
            if (kept.length > 0) warnings.push(`Clip "${plan.mine.clip.name}": kept this project's ${kept.join('; ')} (the bundle's differ and have no place as a source).`);
            if (both.keptComments > 0) {
              warnings.push(`Clip "${plan.mine.clip.name}": kept this project's version of ${both.keptComments} ${both.keptComments === 1 ? 'comment' : 'comments'} the bundle also has, with other text or state.`);
            }
            if (both.keptObjects > 0) {
              warnings.push(`Clip "${plan.mine.clip.name}": kept this project's version of ${both.keptObjects} ${both.keptObjects === 1 ? 'object' : 'objects'} the bundle also has, with other name, class or attributes.`);
            }
            break;
          }
          case 'copy':
            await addClip(db, c, targetId, plan.newId, plan.name, false);
            reports.push({ id: plan.newId, name: plan.name, outcome: 'added-copy', detail: `added as a new clip: ${plan.reason}` });
            warnings.push(`Clip "${c.clip.name}" was added as a copy "${plan.name}": ${plan.reason}.`);
            changed = true;
            break;
        }
      }
      if (signal?.aborted) throw new BundleCancelled('import');
      // Project-scoped meta: absent keys are added, equal ones skipped, different ones kept (and reported).
      const fromPrefix = projectMetaPrefix(bundle.project.id);
      const toPrefix = projectMetaPrefix(targetId);
      for (const m of bundle.meta) {
        const key = toPrefix + m.key.slice(fromPrefix.length);
        const local = await getMetaRow(db, key);
        if (!local) {
          await addMetaRow(db, { key, value: m.value });
          changed = true;
        } else if (canonical(local.value) !== canonical(m.value)) warnings.push(`Setting "${key.slice(toPrefix.length)}": kept this project's value (the bundle's differs).`);
      }
      if (!createdProject) {
        const merged = mergeSettings(project, bundle.project, warnings);
        if (merged || changed) {
          project = { ...project, settings: merged ?? project.settings, updatedAt: now };
          await putProjectRow(db, project);
        }
      }
      if (signal?.aborted) throw new BundleCancelled('import');
    }));
  } catch (err) {
    if (err instanceof ImportError || err instanceof BundleCancelled || err instanceof ClipBusyError) throw err;
    if (isQuotaError(err)) {
      const mb = (file.size / 2 ** 20).toFixed(1);
      throw new StoreError('quota', `Storage is full: could not import ${name} (${mb} MB). Free space or delete clips; nothing was saved.`, { cause: err });
    }
    throw new StoreError(err instanceof StoreError ? err.code : 'failed', `Could not import ${name}: ${reasonOf(err).replace(/[.\s]+$/, '')}. Nothing was saved.`, { cause: err });
  }
  options.onProgress?.({ stage: 'Done', done: total, total, bytes: file.size });
  if (options.projectId && options.projectId !== bundle.project.id) {
    warnings.unshift(`The bundle holds project "${bundle.project.name}"; its clips were merged into "${project.name}".`);
  }
  return { project, createdProject, clips: reports, warnings, manifest };
}

/**
 * Adds a bundle clip's rows under `clipId` in `projectId` (inside the caller's transaction). `keep`:
 * the clip keeps its identity (its log rows' seqs and ids, its comments' and objects' ids, where
 * free here); a copy (`keep` false) is another clip, so its rows get new ids (docs/sync.md "Row
 * identity"). An object whose id changes takes its masks and history along: the layers and
 * revisions naming it are rewritten to the new id.
 */
async function addClip(db: SpocDb, c: BundleClip, projectId: string, clipId: string, name: string, keep: boolean): Promise<void> {
  const images = c.frameImages.map((im, k): FrameImage => ({ clipId, index: im.index, blob: c.images[k], mime: im.mime, width: im.width, height: im.height }));
  await addClipBase(db, { ...c.clip, id: clipId, projectId, name }, c.frames.map((f) => ({ ...f, clipId })), images, c.thumbnailBlob);
  const renamed = await addObjectRows(
    db,
    c.objects.map((o) => ({ ...o, clipId })),
    keep,
  );
  await addLayerRows(db, c.layers.map((l) => layerWithObjectIds({ ...l, clipId }, renamed)));
  await addFlagDismissalRows(db, c.reviewFlags.map((f) => ({ ...f, clipId })));
  await appendRevisionRows(
    db,
    c.revisions.map((r) => revisionWithObjectIds({ ...r, clipId }, renamed)),
    keep,
  );
  await appendClipEventRows(
    db,
    c.clipEvents.map((e) => ({ ...e, clipId })),
    keep,
  );
  // A copy lives next to the original (or its ids are taken elsewhere): its comments get new ids.
  await addCommentRows(
    db,
    c.comments.map((cm) => ({ ...cm, clipId })),
    keep,
  );
  await appendFrameVerdictRows(
    db,
    c.frameVerdicts.map((v) => ({ ...v, clipId })),
    keep,
  );
}

/**
 * A bundle goes into an existing project only when both have the same label schema (kind and
 * classes, docs/formats.md "Project bundle"): its objects name their classes by id, and an id only
 * means something within its schema, so keeping this project's schema while adding the bundle's
 * objects could silently give them other classes (or none).
 */
function refuseOtherLabels(mine: Project, theirs: Project, fail: (problem: string) => never): void {
  const differ = labelSchemaDifferences(mine, theirs);
  if (differ.length === 0) return;
  fail(
    `cannot be imported into "${mine.name}": its label schema differs from this project's (${differ.join('; ')}). ` +
      'Objects name their classes by id, so they would get other classes here. ' +
      (mine.id === theirs.id ? 'Give both copies of the project the same classes first. ' : 'Import it from the projects list as a project of its own instead. ') +
      'Nothing was imported.',
  );
}

/** Thresholds of verbs this project lacks are added; differing values are kept and reported. Null when nothing changes. */
function mergeSettings(mine: Project, theirs: Project, warnings: string[]): Project['settings'] | null {
  const thresholds = { ...mine.settings.thresholds };
  let added = false;
  for (const [verb, t] of Object.entries(theirs.settings.thresholds)) {
    const local = mine.settings.thresholds[verb];
    if (!local) {
      thresholds[verb] = t;
      added = true;
    } else if (local.tau !== t.tau || local.delta !== t.delta) {
      warnings.push(`Thresholds for "${verb}": kept this project's (tau ${local.tau}, delta ${local.delta}); the bundle has tau ${t.tau}, delta ${t.delta}.`);
    }
  }
  if (mine.settings.sampleFps !== theirs.settings.sampleFps) {
    warnings.push(`Sample rate: kept this project's ${mine.settings.sampleFps} fps; the bundle's project uses ${theirs.settings.sampleFps} fps.`);
  }
  if (mine.name !== theirs.name && mine.id === theirs.id) warnings.push(`Project name: kept "${mine.name}"; the bundle calls it "${theirs.name}".`);
  return added ? { ...mine.settings, thresholds } : null;
}
