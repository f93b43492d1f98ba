/**
 * The project bundle format (docs/formats.md, "Project bundle"): one zip holding a whole project —
 * the project row, every clip with its frames, frame images (original bytes), thumbnail, every
 * layer of every source and the whole revision log, project-scoped meta — plus `manifest.json`
 * with the format version, the app's schema version, row counts and a SHA-256 per entry.
 *
 *   project.json                          {"project": Project}
 *   meta.json                             {"meta": MetaEntry[]}  (keys "project.<projectId>.*")
 *   clips/<clipId>/clip.json              {"clip", "frames", "frameImages", "thumbnail", "layers", "reviewFlags",
 *                                          "clipEvents", "comments", "frameVerdicts", "objects"}  (events and comments:
 *                                          format v2; verdicts: v3; objects: v5)
 *   clips/<clipId>/revisions.json         {"revisions": Revision[]}  (ascending seq)
 *   clips/<clipId>/thumbnail.<ext>        the thumbnail blob, as stored
 *   clips/<clipId>/frames/<index>.<ext>   frame images, as stored (index zero-padded to 6 digits)
 *   manifest.json                         written last (it holds the checksums of all the others)
 *
 * Rows are the store's rows as they are (types.ts), blobs replaced by {path, bytes, blobType}.
 *
 * Format versions:
 * - v1: everything above except the review workflow.
 * - v2 (store schema v4): clip.json gains `clipEvents` (the lifecycle log in seq order, rows without
 *   their store-local `seq`) and `comments`, both required; the manifest's counts gain `clipEvents`
 *   and `comments`, both required. Bumped (rather than adding optional fields) so an older app
 *   refuses a v2 bundle with "written by a newer version" instead of a confusing unknown-field error.
 *   v1 bundles are still read: they have neither field (strictly: a v1 bundle carrying them is
 *   refused) and import with no events and no comments.
 * - v3 (store schema v5): clip.json gains `frameVerdicts` (the reviewer's per-frame accept / reject
 *   log in seq order, rows without their store-local `seq`), required, and the manifest's counts
 *   gain `frameVerdicts`, required. Bumped for the same reason as v2. v1 and v2 bundles are still
 *   read and import with no verdicts.
 * - v4 (store schema v8): every revision, lifecycle event and frame verdict carries its `id` (a
 *   time-ordered UUID, required and unique within the bundle; docs/sync.md "Row identity"). Bumped
 *   for the same reason as v2. Rows of v1–v3 bundles must not carry one and get new ids on reading.
 * - v5 (store schema v9, objects and tracks): clip.json gains `objects` (the clip's ClipObject rows,
 *   removed ones included, by number then id), required; the manifest's counts gain `objects`,
 *   required; project.json's project may carry `labels` (the label schema). Every object a layer
 *   (`Layer.objects`) or a revision (`objectsBefore` / `objectsAfter`) names must be one of its
 *   clip's `objects`, and an object id names one object in the whole bundle. Bumped for the same
 *   reason as v2. v1–v4 bundles are still read: they must carry neither `objects` nor `labels`
 *   (nor layers or revisions naming objects) and import with no objects.
 */
import { SCHEMA_VERSION } from '../../store/schema';
import { ImportError } from '../importError';
import { JsonReader, listKeys, parseJsonText, unknownKeys, type JsonObject } from '../formats/json';

export const BUNDLE_FORMAT = 'spoc-studio/bundle';
export const BUNDLE_FORMAT_VERSION = 5;
export const BUNDLE_EXTENSION = '.spoc.zip';
export const MANIFEST_PATH = 'manifest.json';
export const PROJECT_PATH = 'project.json';
export const META_PATH = 'meta.json';
/** Manifests list one line per entry; 64 MB is several hundred thousand entries. */
export const MAX_MANIFEST_BYTES = 64 * 2 ** 20;
/** One clip's rows or revision log. */
export const MAX_JSON_ENTRY_BYTES = 256 * 2 ** 20;

/** The meta rows that belong to a project (and travel in its bundle): keys "project.<id>.<name>". */
export function projectMetaPrefix(projectId: string): string {
  return `project.${projectId}.`;
}

const ID = '[A-Za-z0-9_-]{1,64}';
export const IMAGE_EXTENSIONS = ['jpg', 'png', 'webp', 'bmp', 'bin'] as const;
const EXT = `(?:${IMAGE_EXTENSIONS.join('|')})`;
const CLIP_PATH = new RegExp(`^clips/(${ID})/(clip\\.json|revisions\\.json|thumbnail\\.${EXT}|frames/(\\d{6})\\.${EXT})$`);
export const ID_PATTERN = new RegExp(`^${ID}$`);

export type EntryRole =
  | { kind: 'project' }
  | { kind: 'meta' }
  | { kind: 'clip'; clipId: string }
  | { kind: 'revisions'; clipId: string }
  | { kind: 'thumbnail'; clipId: string }
  | { kind: 'frame'; clipId: string; index: number };

/** What a bundle path holds, or null for a path the format does not have. */
export function entryRole(path: string): EntryRole | null {
  if (path === PROJECT_PATH) return { kind: 'project' };
  if (path === META_PATH) return { kind: 'meta' };
  const m = CLIP_PATH.exec(path);
  if (!m) return null;
  const [, clipId, rest, index] = m;
  if (rest === 'clip.json') return { kind: 'clip', clipId };
  if (rest === 'revisions.json') return { kind: 'revisions', clipId };
  if (rest.startsWith('thumbnail.')) return { kind: 'thumbnail', clipId };
  return { kind: 'frame', clipId, index: Number(index) };
}

export function blobExtension(type: string): string {
  switch (type) {
    case 'image/jpeg':
      return 'jpg';
    case 'image/png':
      return 'png';
    case 'image/webp':
      return 'webp';
    case 'image/bmp':
      return 'bmp';
    default:
      return 'bin';
  }
}

export const clipDir = (clipId: string) => `clips/${clipId}`;
export const clipJsonPath = (clipId: string) => `${clipDir(clipId)}/clip.json`;
export const revisionsPath = (clipId: string) => `${clipDir(clipId)}/revisions.json`;
export const thumbnailPath = (clipId: string, type: string) => `${clipDir(clipId)}/thumbnail.${blobExtension(type)}`;
export const framePath = (clipId: string, index: number, type: string) =>
  `${clipDir(clipId)}/frames/${String(index).padStart(6, '0')}.${blobExtension(type)}`;

/** Already-compressed images are stored as they are; everything else is deflated. */
export function isCompressedImage(type: string): boolean {
  return type === 'image/jpeg' || type === 'image/png' || type === 'image/webp';
}

export const COUNT_KEYS = ['clips', 'frames', 'frameImages', 'thumbnails', 'layers', 'revisions', 'reviewFlags', 'clipEvents', 'comments', 'frameVerdicts', 'objects', 'meta'] as const;
export type BundleCounts = Record<(typeof COUNT_KEYS)[number], number>;
/** Counts a v1 manifest has (the review workflow came with v2). */
export const COUNT_KEYS_V1 = ['clips', 'frames', 'frameImages', 'thumbnails', 'layers', 'revisions', 'reviewFlags', 'meta'] as const;
/** Counts a v2 manifest has (frame verdicts came with v3). */
export const COUNT_KEYS_V2 = ['clips', 'frames', 'frameImages', 'thumbnails', 'layers', 'revisions', 'reviewFlags', 'clipEvents', 'comments', 'meta'] as const;
/** Counts a v3 or v4 manifest has (objects came with v5). */
export const COUNT_KEYS_V3 = ['clips', 'frames', 'frameImages', 'thumbnails', 'layers', 'revisions', 'reviewFlags', 'clipEvents', 'comments', 'frameVerdicts', 'meta'] as const;

/** The count keys (and clip.json fields) of a format version. */
export function countKeysOf(formatVersion: number): readonly (typeof COUNT_KEYS)[number][] {
  return formatVersion >= 5 ? COUNT_KEYS : formatVersion >= 3 ? COUNT_KEYS_V3 : formatVersion === 2 ? COUNT_KEYS_V2 : COUNT_KEYS_V1;
}

export interface ManifestEntry {
  path: string;
  /** Uncompressed size. */
  bytes: number;
  /** Lower-case hex SHA-256 of the uncompressed content. */
  sha256: string;
}

export interface BundleManifest {
  format: typeof BUNDLE_FORMAT;
  formatVersion: number;
  /** The store schema version (src/store/schema.ts) the rows were written with. */
  schemaVersion: number;
  /** "spoc-studio <version>" of the app that wrote the bundle. */
  app: string;
  createdAt: number;
  /** The user name set in the exporting browser, if any (names the source their work becomes on merge). */
  exportedBy?: string;
  project: { id: string; name: string };
  counts: BundleCounts;
  /** Every entry except the manifest itself, in archive order. */
  entries: ManifestEntry[];
}

const MANIFEST_FIELDS = new Set(['format', 'formatVersion', 'schemaVersion', 'app', 'createdAt', 'exportedBy', 'project', 'counts', 'entries']);

/** Parses and checks manifest.json; `bundleName` names the bundle in messages. */
export function parseManifest(bytes: Uint8Array, bundleName: string, maxEntries: number): BundleManifest {
  const fileName = `${bundleName}: ${MANIFEST_PATH}`;
  const doc = parseJsonText(bytes, fileName, MAX_MANIFEST_BYTES);
  const r = new JsonReader(fileName);
  const o = r.object(doc, '');
  // The version first: a newer manifest may legitimately have fields this version does not know.
  const format = r.required(o, 'format', '');
  if (format !== BUNDLE_FORMAT) r.fail('format', `must be "${BUNDLE_FORMAT}", got ${JSON.stringify(format)}; this is not a SPOC Studio project bundle`);
  const formatVersion = r.integer(r.required(o, 'formatVersion', ''), 'formatVersion', 1);
  if (formatVersion > BUNDLE_FORMAT_VERSION) {
    throw new ImportError(
      bundleName,
      `was written by a newer version of SPOC Studio (bundle format v${formatVersion}; this version reads up to v${BUNDLE_FORMAT_VERSION}). ` +
        'Update the app (reload the page) to import it. Nothing was imported.',
    );
  }
  const schemaVersion = r.integer(r.required(o, 'schemaVersion', ''), 'schemaVersion', 1);
  if (schemaVersion > SCHEMA_VERSION) {
    throw new ImportError(
      bundleName,
      `holds data of a newer app version (store schema v${schemaVersion}; this version has v${SCHEMA_VERSION}). ` +
        'Update the app (reload the page) to import it. Nothing was imported.',
    );
  }
  strictFields(r, o, MANIFEST_FIELDS, '');
  const app = r.string(r.required(o, 'app', ''), 'app', 200);
  const createdAt = r.number(r.required(o, 'createdAt', ''), 'createdAt');
  const exportedByRaw = r.optional(o, 'exportedBy');
  const project = r.object(r.required(o, 'project', ''), 'project');
  strictFields(r, project, new Set(['id', 'name']), 'project');
  const projectId = r.string(r.required(project, 'id', 'project'), 'project.id', 64);
  if (!ID_PATTERN.test(projectId)) r.fail('project.id', `is not a valid id (${JSON.stringify(projectId)})`);
  const counts = r.object(r.required(o, 'counts', ''), 'counts');
  const countKeys = countKeysOf(formatVersion);
  strictFields(r, counts, new Set(countKeys), 'counts');
  // Keys a version does not have count 0 (a v1 bundle holds no events or comments, a v2 one no verdicts, a v4 one no objects).
  const countValues = Object.fromEntries(COUNT_KEYS.map((k) => [k, countKeys.includes(k) ? r.integer(r.required(counts, k, 'counts'), `counts.${k}`, 0) : 0])) as BundleCounts;
  const list = r.array(r.required(o, 'entries', ''), 'entries', maxEntries);
  const seen = new Set<string>();
  const entries = list.map((v, i): ManifestEntry => {
    const e = r.object(v, `entries[${i}]`);
    strictFields(r, e, new Set(['path', 'bytes', 'sha256']), `entries[${i}]`);
    const path = r.string(r.required(e, 'path', `entries[${i}]`), `entries[${i}].path`, 300);
    if (!entryRole(path)) r.fail(`entries[${i}].path`, `${JSON.stringify(path)} is not a path a bundle has`);
    if (seen.has(path)) r.fail(`entries[${i}].path`, `lists ${JSON.stringify(path)} twice`);
    seen.add(path);
    const bytesDeclared = r.integer(r.required(e, 'bytes', `entries[${i}]`), `entries[${i}].bytes`, 0, Number.MAX_SAFE_INTEGER);
    const sha256 = r.string(r.required(e, 'sha256', `entries[${i}]`), `entries[${i}].sha256`, 64);
    if (!/^[0-9a-f]{64}$/.test(sha256)) r.fail(`entries[${i}].sha256`, 'must be 64 lower-case hex digits');
    return { path, bytes: bytesDeclared, sha256 };
  });
  const manifest: BundleManifest = {
    format: BUNDLE_FORMAT,
    formatVersion,
    schemaVersion,
    app,
    createdAt,
    project: { id: projectId, name: r.string(r.required(project, 'name', 'project'), 'project.name', 1000) },
    counts: countValues,
    entries,
  };
  if (exportedByRaw !== undefined) manifest.exportedBy = r.string(exportedByRaw, 'exportedBy', 200);
  return manifest;
}

/** Unknown fields are errors in bundles: rows are stored as they are, so nothing unchecked may ride along. */
export function strictFields(r: JsonReader, obj: JsonObject, known: ReadonlySet<string>, path: string): void {
  const extra = unknownKeys(obj, known);
  if (extra.length > 0) r.fail(path, `has unknown ${extra.length === 1 ? 'field' : 'fields'} ${listKeys(extra)}`);
}

