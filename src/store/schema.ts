import type { Transaction } from 'dexie';
import { newRowId } from './ids';
import { rleArea } from './rleArea';
import type { Rle } from './types';

/**
 * Schema versions, one constant per version, never edited once released: a user's browser may hold
 * any of them, and Dexie needs every step to upgrade from there. A new version is a new constant,
 * a new `db.version(n)` line in db.ts and, when rows change shape, an upgrade function below plus a
 * test in schema.test.ts that opens the old version, seeds it, and reopens with SpocDb.
 *
 * Index rules: ids, frame numbers and times only; never blobs or RLE.
 * Compound primary keys double as indexes on their prefixes ("virtual indexes" in Dexie), so
 * `[clipId+index]` also answers "all frames of a clip" in index order.
 */

/** 2026-11-22 — first schema: the records of the data model (docs/architecture.md). */
export const SCHEMA_V1 = {
  projects: 'id, updatedAt',
  clips: 'id, projectId, updatedAt',
  frames: '[clipId+index]',
  frameImages: '[clipId+index]',
  thumbnails: 'clipId',
  layers: '[clipId+source+frameIndex], [clipId+frameIndex]',
  revisions: '++seq, [clipId+source+frameIndex], at',
  meta: 'key',
} as const;

/**
 * 2026-11-22 — v2:
 * - Layer gains `actArea` / `trfArea`, backfilled from the RLE counts by `upgradeV1toV2`, and an
 *   index that carries them, so progress, dashboards and sparklines read areas from index keys
 *   without loading (let alone decoding) any RLE.
 * - Clips gain `[projectId+status]` for review queues ("submitted clips of this project").
 */
export const SCHEMA_V2 = {
  ...SCHEMA_V1,
  clips: 'id, projectId, [projectId+status], updatedAt',
  layers: '[clipId+source+frameIndex], [clipId+frameIndex], [clipId+source+frameIndex+actArea+trfArea]',
} as const;

/**
 * 2026-11-22 — v3 (review room):
 * - New table `reviewFlags`: dismissals of automatic review flags (FlagDismissal), keyed by
 *   `[clipId+source+flagId]`; the key's `[clipId]` prefix answers "every dismissal of a clip".
 * - Frame gains an optional `name` (the original file stem), written by importers from now on so
 *   predictions can be matched to frames by name. Not indexed and not backfilled (the stems of
 *   older imports were never stored); absent means the positional name frame0000, frame0001, ...
 *   No row changes shape, so there is no upgrade function.
 */
export const SCHEMA_V3 = {
  ...SCHEMA_V2,
  reviewFlags: '[clipId+source+flagId]',
} as const;

/**
 * 2026-11-22 — v4 (review workflow):
 * - New table `clipEvents`: the clip's lifecycle steps (ClipEvent), auto-incremented `seq` so the
 *   history is append-only and ordered; `[clipId+seq]` answers "a clip's history in order".
 * - New table `comments`: comments pinned to a point of a frame (ClipComment); `[clipId+frameIndex]`
 *   answers "comments of this frame" and, as a prefix, "every comment of a clip".
 *   No existing row changes shape, so there is no upgrade function.
 */
export const SCHEMA_V4 = {
  ...SCHEMA_V3,
  clipEvents: '++seq, [clipId+seq]',
  comments: 'id, [clipId+frameIndex]',
} as const;

/**
 * 2026-11-22 — v5 (reviewer mode):
 * - New table `frameVerdicts`: a reviewer's accept / reject (with an optional note) of one frame
 *   (FrameVerdict), append-only with an auto-incremented `seq`; the latest row of a frame (by time,
 *   then seq) is its verdict and the earlier ones are its history. `[clipId+frameIndex+seq]` answers "a frame's
 *   verdicts in order" and, as a prefix, "every verdict of a clip".
 *   No existing row changes shape, so there is no upgrade function.
 */
export const SCHEMA_V5 = {
  ...SCHEMA_V4,
  frameVerdicts: '++seq, [clipId+frameIndex+seq]',
} as const;

/**
 * 2026-11-25 — v6 (crash journal, docs/durability.md):
 * - New table `journalMarks`: one row whose auto-incremented `seq` is the store's change number.
 *   Every read-write transaction that changes something replaces it (clear, then add) without
 *   reading anything, so a stroke's transaction has no read round trip before it can commit; the
 *   key generator never goes back (and is restored when a transaction aborts), so numbers are
 *   gapless in commit order across tabs. No existing row changes shape, so there is no upgrade function.
 */
export const SCHEMA_V6 = {
  ...SCHEMA_V5,
  journalMarks: '++seq',
} as const;

/**
 * 2026-11-28 — v7 (gesture drafts, docs/durability.md "Strokes in progress"):
 * - New table `gestureDrafts`, keyed [clipId+gesture+seq]: the pointer input of a stroke in
 *   progress, one row per event, written as the stroke is drawn; the stroke's own commit deletes
 *   them in its transaction, so rows left behind are exactly the gestures whose commit never
 *   landed (the browser died), which the next start replays. Never journaled (store/journal/capture.ts).
 *   No existing row changes shape, so there is no upgrade function.
 */
export const SCHEMA_V7 = {
  ...SCHEMA_V6,
  gestureDrafts: '[clipId+gesture+seq]',
} as const;

/**
 * 2026-11-28 — v8 (row identity, docs/sync.md "Row identity"):
 * - `revisions`, `clipEvents` and `frameVerdicts` gain `id`, a time-ordered UUID (v7, store/ids.ts),
 *   with a unique index: the row's identity everywhere beyond this browser (bundles now, a sync
 *   server later). `seq` stays the primary key as a purely local number: it orders the log on this
 *   machine (undo, history) and will be the push cursor; it is never synced and never compared
 *   across machines. `upgradeV7toV8` gives every existing row an id, in seq order.
 */
export const SCHEMA_V8 = {
  ...SCHEMA_V7,
  revisions: '++seq, &id, [clipId+source+frameIndex], at',
  clipEvents: '++seq, &id, [clipId+seq]',
  frameVerdicts: '++seq, &id, [clipId+frameIndex+seq]',
} as const;

/**
 * 2026-11-29 — v9 (objects and tracks, docs/objects.md):
 * - New table `objects`: a clip's objects (ClipObject) by their UUID, `clipId` answering "the
 *   objects of a clip".
 * - Layer gains `objects` (each object's pixels on the frame), Revision `objectsBefore` /
 *   `objectsAfter`, Project `labels`: none indexed, none backfilled (absent means none), so
 *   there is no upgrade function.
 */
export const SCHEMA_V9 = {
  ...SCHEMA_V8,
  objects: 'id, clipId',
} as const;

/** The tables whose rows carry a global `id` beside their local `seq` (schema v8). */
export const ROW_ID_TABLES = ['revisions', 'clipEvents', 'frameVerdicts'] as const;

export const SCHEMA_VERSION = 9;

/** Index name of the v2 area index, shared by the repositories that read it. */
export const LAYER_AREA_INDEX = '[clipId+source+frameIndex+actArea+trfArea]';

/**
 * Meta key where migrations record rows they could not convert, so the app can show them instead of
 * the upgrade failing (a failed upgrade would lock the user out of all their work).
 */
export const MIGRATION_ISSUES_KEY = 'migration.issues';

export interface MigrationIssue {
  version: number;
  table: string;
  key: unknown;
  problem: string;
}

interface LayerV1 {
  clipId: string;
  frameIndex: number;
  source: string;
  act: Rle;
  trf: Rle;
  actArea?: number;
  trfArea?: number;
}

/** v1 → v2: backfill layer areas from COCO counts (no mask is decoded, only the run lengths). */
export async function upgradeV1toV2(tx: Transaction): Promise<void> {
  const issues: MigrationIssue[] = [];
  await tx
    .table<LayerV1>('layers')
    .toCollection()
    .modify((layer) => {
      try {
        layer.actArea = rleArea(layer.act);
        layer.trfArea = rleArea(layer.trf);
      } catch (err) {
        // Keep the row (the pixels may still be recoverable by hand); an area of 0 keeps it out of
        // "annotated" counts until someone repaints it, and the issue is recorded for the UI.
        layer.actArea = 0;
        layer.trfArea = 0;
        issues.push({
          version: 2,
          table: 'layers',
          key: [layer.clipId, layer.source, layer.frameIndex],
          problem: err instanceof Error ? err.message : String(err),
        });
      }
    });
  await recordIssues(tx, issues);
}

/**
 * v7 → v8: a time-ordered id for every row of the logs, made in seq order (Dexie walks a table by
 * primary key), so ids sort as the local log does. No v7 writer set `id`; a row that has one anyway
 * (written by something else) gets a fresh id too, since a duplicate would fail the unique index
 * and with it the whole upgrade, and the value it had is recorded for the UI.
 */
export async function upgradeV7toV8(tx: Transaction): Promise<void> {
  const issues: MigrationIssue[] = [];
  for (const table of ROW_ID_TABLES) {
    await tx
      .table<{ seq: number; id?: unknown }>(table)
      .toCollection()
      .modify((row) => {
        if (row.id !== undefined) {
          issues.push({ version: 8, table, key: row.seq, problem: `had an id field (${JSON.stringify(row.id)?.slice(0, 80)}) before ids existed; replaced by a new id` });
        }
        row.id = newRowId();
      });
  }
  await recordIssues(tx, issues);
}

async function recordIssues(tx: Transaction, issues: MigrationIssue[]): Promise<void> {
  if (issues.length === 0) return;
  const meta = tx.table<{ key: string; value: MigrationIssue[] }>('meta');
  const previous = (await meta.get(MIGRATION_ISSUES_KEY))?.value ?? [];
  await meta.put({ key: MIGRATION_ISSUES_KEY, value: [...previous, ...issues] });
}
