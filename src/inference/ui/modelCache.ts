/**
 * Model files picked from disk, kept in the browser so they load offline next time: a small Dexie
 * database `spoc-models`, apart from the project store (its schema and backups never see
 * multi-hundred-MB weights, and clearing one never touches the other).
 *
 * Why IndexedDB rather than the Cache API: picked files have no URL to key a Cache entry by, the
 * model's family, roles and goldens must be stored atomically with its bytes (one transaction
 * here), and Dexie is already in the app. Files are stored as Blobs, which Chromium keeps on disk
 * rather than in the database's memory.
 */
import { Dexie, type Table } from 'dexie';
import type { GoldenSpec } from '../models/golden';
import type { ModelFamily } from '../models/manifest';
import type { PickedFile, PickedModel } from './pickedModels';

export const MODEL_DB_NAME = 'spoc-models';

export interface CachedModel {
  id: string;
  family: ModelFamily;
  label: string;
  /** role -> original file name and size. */
  files: Record<string, { name: string; size: number }>;
  selfTest?: Record<string, GoldenSpec>;
  addedAt: number;
}

export interface CachedFile {
  /** `${modelId}/${role}` */
  key: string;
  blob: Blob;
}

export class ModelDb extends Dexie {
  declare models: Table<CachedModel, string>;
  declare files: Table<CachedFile, string>;

  constructor(name = MODEL_DB_NAME, options?: ConstructorParameters<typeof Dexie>[1]) {
    super(name, options);
    this.version(1).stores({ models: '&id', files: '&key' });
  }
}

export async function saveModel(db: ModelDb, model: PickedModel): Promise<void> {
  await db.transaction('rw', db.models, db.files, async () => {
    await removeModelRows(db, model.id);
    const files: CachedModel['files'] = {};
    for (const [role, f] of Object.entries(model.files)) {
      files[role] = { name: f.name, size: f.bytes.byteLength };
      await db.files.put({ key: `${model.id}/${role}`, blob: new Blob([f.bytes as Uint8Array<ArrayBuffer>]) });
    }
    await db.models.put({ id: model.id, family: model.family, label: model.label, files, ...(model.selfTest ? { selfTest: model.selfTest } : {}), addedAt: Date.now() });
  });
}

async function removeModelRows(db: ModelDb, id: string): Promise<void> {
  const old = await db.models.get(id);
  if (!old) return;
  await db.files.bulkDelete(Object.keys(old.files).map((role) => `${id}/${role}`));
  await db.models.delete(id);
}

export function removeModel(db: ModelDb, id: string): Promise<void> {
  return db.transaction('rw', db.models, db.files, () => removeModelRows(db, id));
}

/** Every cached model with its bytes; a model with a missing file is skipped (and reported). */
export async function loadCachedModels(db: ModelDb): Promise<{ models: PickedModel[]; problems: string[] }> {
  const rows = await db.models.orderBy('id').toArray();
  const models: PickedModel[] = [];
  const problems: string[] = [];
  for (const row of rows) {
    const files: Record<string, PickedFile> = {};
    let complete = true;
    for (const [role, meta] of Object.entries(row.files)) {
      const file = await db.files.get(`${row.id}/${role}`);
      if (!file) {
        complete = false;
        problems.push(`${row.id}: cached ${role} file is missing`);
        break;
      }
      files[role] = { name: meta.name, bytes: new Uint8Array(await blobBytes(file.blob)) };
    }
    if (complete) models.push({ id: row.id, family: row.family, label: row.label, files, ...(row.selfTest ? { selfTest: row.selfTest } : {}) });
  }
  return { models, problems };
}

/** Blob.arrayBuffer where it exists; FileReader otherwise (older test environments). */
function blobBytes(blob: Blob): Promise<ArrayBuffer> {
  if (typeof blob.arrayBuffer === 'function') return blob.arrayBuffer();
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => resolve(r.result as ArrayBuffer);
    r.onerror = () => reject(r.error ?? new Error('cannot read blob'));
    r.readAsArrayBuffer(blob);
  });
}
