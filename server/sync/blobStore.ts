/**
 * Frame images by content (docs/sync.md "The protocol": blobs). One small interface, so a store
 * other than PostgreSQL (a folder, an object store) can plug in later; which projects may read a
 * blob is not the store's business (project_blobs, server/sync/blobRefs.ts).
 */
import type { Queryable } from '../db/db';

export interface StoredBlob {
  data: Buffer;
  mime: string;
  size: number;
}

export interface BlobStore {
  /**
   * Stores the bytes under their SHA-256 (the caller has checked it); storing a blob twice keeps one
   * copy and counts as a new upload for garbage collection (server/sync/blobGc.ts).
   */
  put(sha256: string, data: Buffer, mime: string): Promise<void>;
  get(sha256: string): Promise<StoredBlob | null>;
  has(sha256: string): Promise<boolean>;
}

/** Blobs in the `blobs` table (bytea): nothing else to run, backed up with the rest of the database. */
export function pgBlobStore(db: Queryable): BlobStore {
  return {
    async put(sha256, data, mime) {
      // Storing it again only restarts its grace period before garbage collection (blobGc.ts).
      await db.query('INSERT INTO blobs (sha256, size, mime, data) VALUES ($1, $2, $3, $4) ON CONFLICT (sha256) DO UPDATE SET put_at = now()', [sha256, data.length, mime, data]);
    },
    async get(sha256) {
      const rows = await db.query<{ data: Uint8Array; mime: string; size: number }>('SELECT data, mime, size FROM blobs WHERE sha256 = $1', [sha256]);
      const row = rows[0];
      if (!row) return null;
      return { data: Buffer.isBuffer(row.data) ? row.data : Buffer.from(row.data.buffer, row.data.byteOffset, row.data.byteLength), mime: row.mime, size: row.size };
    },
    async has(sha256) {
      return (await db.query('SELECT 1 FROM blobs WHERE sha256 = $1', [sha256])).length > 0;
    },
  };
}
