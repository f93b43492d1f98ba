import { Dexie, type DBCore, type DexieOptions, type Middleware, type Table } from 'dexie';
import { StoreError, reasonOf } from './errors';
import { localWritesMiddleware } from './localWrites';
import { SCHEMA_V1, SCHEMA_V2, SCHEMA_V3, SCHEMA_V4, SCHEMA_V5, SCHEMA_V6, SCHEMA_V7, SCHEMA_V8, SCHEMA_V9, SCHEMA_VERSION, upgradeV1toV2, upgradeV7toV8 } from './schema';
import type {
  Clip,
  ClipComment,
  ClipEvent,
  ClipObject,
  ClipEventInput,
  FlagDismissal,
  Frame,
  FrameImage,
  FrameVerdict,
  FrameVerdictInput,
  GestureDraftKey,
  GestureDraftRow,
  Layer,
  LayerSource,
  MetaEntry,
  Project,
  Revision,
  RevisionInput,
  Thumbnail,
} from './types';

export const DEFAULT_DB_NAME = 'spoc-studio';

/** Dexie options the store passes through; tests inject fake-indexeddb's `indexedDB`/`IDBKeyRange` here. */
export type SpocDbOptions = Pick<DexieOptions, 'indexedDB' | 'IDBKeyRange'>;

export class SpocDb extends Dexie {
  // `declare`: Dexie creates these properties in version().stores(); a class field would reset them.
  declare projects: Table<Project, string>;
  declare clips: Table<Clip, string>;
  declare frames: Table<Frame, [string, number]>;
  declare frameImages: Table<FrameImage, [string, number]>;
  declare thumbnails: Table<Thumbnail, string>;
  declare layers: Table<Layer, [string, LayerSource, number]>;
  declare revisions: Table<Revision, number, RevisionInput>;
  declare meta: Table<MetaEntry, string>;
  declare reviewFlags: Table<FlagDismissal, [string, LayerSource, string]>;
  declare clipEvents: Table<ClipEvent, number, ClipEventInput>;
  declare comments: Table<ClipComment, string>;
  declare frameVerdicts: Table<FrameVerdict, number, FrameVerdictInput>;
  /** The store's change number (store/journal/capture.ts); one row, written only by the journal. */
  declare journalMarks: Table<{ seq: number; at: number }, number, { seq?: number; at: number }>;
  /** Pointer input of strokes in progress (store/gestureDrafts.ts); never journaled. */
  declare gestureDrafts: Table<GestureDraftRow, GestureDraftKey>;
  /** A clip's objects (schema v9, store/objects.ts). */
  declare objects: Table<ClipObject, string>;

  constructor(name: string = DEFAULT_DB_NAME, options?: SpocDbOptions) {
    super(name, options);
    this.version(1).stores(SCHEMA_V1);
    this.version(2).stores(SCHEMA_V2).upgrade(upgradeV1toV2);
    this.version(3).stores(SCHEMA_V3);
    this.version(4).stores(SCHEMA_V4);
    this.version(5).stores(SCHEMA_V5);
    this.version(6).stores(SCHEMA_V6);
    this.version(7).stores(SCHEMA_V7);
    this.version(8).stores(SCHEMA_V8).upgrade(upgradeV7toV8);
    this.version(9).stores(SCHEMA_V9);
  }
}

/**
 * Open (creating or upgrading) the project store.
 *
 * Refuses a database written by a newer app version. Since 4.0.1 Dexie no longer raises VersionError
 * in that case but silently opens the newer database, and may even patch its schema; an old tab would
 * then write rows without the newer fields. So the installed version is read first with a schema-less
 * probe that cannot modify anything, and the error is raised before SpocDb touches the database.
 */
export async function openSpocDb(
  name: string = DEFAULT_DB_NAME,
  options?: SpocDbOptions,
  middlewares: readonly Middleware<DBCore>[] = [],
): Promise<SpocDb> {
  const installed = await installedSchemaVersion(name, options);
  if (installed !== null && installed > SCHEMA_VERSION) throw newerSchemaError(installed);

  const db = new SpocDb(name, options);
  // Before open: Dexie builds its DBCore stack when the database opens.
  db.use(localWritesMiddleware(db));
  for (const m of middlewares) db.use(m);
  try {
    await db.open();
  } catch (err) {
    db.close();
    if (err instanceof Error && err.name === 'VersionError') throw newerSchemaError(null, err);
    throw new StoreError('failed', `Could not open the local project store: ${reasonOf(err)}`, { cause: err });
  }
  // Another tab may have upgraded between the probe and our open.
  const opened = Math.floor(db.backendDB().version / 10);
  if (opened > SCHEMA_VERSION) {
    db.close();
    throw newerSchemaError(opened);
  }
  return db;
}

/**
 * Schema version of an existing database, or null if there is none. Dexie stores version n as native
 * version 10n and may bump the native number by one to patch a schema, hence the floor.
 */
export async function installedSchemaVersion(name: string, options?: SpocDbOptions): Promise<number | null> {
  const probe = new Dexie(name, options);
  try {
    await probe.open();
    return Math.floor(probe.verno);
  } catch (err) {
    if (err instanceof Error && err.name === 'NoSuchDatabaseError') return null;
    throw new StoreError('failed', `Could not read the local project store: ${reasonOf(err)}`, { cause: err });
  } finally {
    probe.close();
  }
}

function newerSchemaError(installed: number | null, cause?: unknown): StoreError {
  const which = installed === null ? 'a newer schema' : `schema v${installed}`;
  return new StoreError(
    'newer_schema',
    `This browser's SPOC Studio data was saved by a newer version of the app (${which}; this version ` +
      `reads up to v${SCHEMA_VERSION}). Reload the page to get the latest version. Nothing was opened or changed.`,
    { cause },
  );
}
