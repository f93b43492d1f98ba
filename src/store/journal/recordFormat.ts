/**
 * One journal file: a transaction's row changes, or a snapshot of a clip's rows, in a self-checking
 * binary form that lives outside IndexedDB (docs/durability.md).
 *
 *   "SPJR" | u32 format version | u32 header length | header (UTF-8 JSON) | blob bytes ... | u32 CRC-32
 *
 * The header holds the operations; Blobs inside rows (frame images, thumbnails) are replaced by
 * `{ "$blob": i }` and their bytes follow the header in order, so a 40 MB import is written without
 * base64; numbers JSON cannot hold (±Infinity, the bounds of key ranges) become `{ "$num": "-Infinity" }`. The trailing CRC-32 covers everything before it: a file cut short by a crash, or damaged
 * on disk, is recognised and never replayed. Pure: no DOM beyond Blob, runs in Node tests.
 */
import { crc32 } from './crc32';

export const JOURNAL_FORMAT_VERSION = 1;
const MAGIC = [0x53, 0x50, 0x4a, 0x52]; // "SPJR"
const PREFIX = 12;

export interface KeyRangeJson {
  lower?: unknown;
  upper?: unknown;
  lowerOpen?: boolean;
  upperOpen?: boolean;
}

/** One change to one table, as committed. Keys are the rows' primary keys (every table has inbound keys). */
export type JournalOp =
  | { table: string; type: 'put'; values: unknown[] }
  | { table: string; type: 'delete'; keys: unknown[] }
  | { table: string; type: 'deleteRange'; range: KeyRangeJson };

export interface JournalRecord {
  kind: 'tx' | 'snapshot';
  /** The store's change number this record brings it to (tx) or was taken at (snapshot). */
  seq: number;
  /** Store schema version the rows have. */
  schema: number;
  at: number;
  ops: JournalOp[];
}

interface Header extends JournalRecord {
  blobs: { size: number; type: string }[];
}

export class JournalFormatError extends Error {}

/** Encodes a record as the parts of one file (Blob parts are referenced, not copied). */
export async function encodeRecord(record: JournalRecord): Promise<Blob> {
  const blobs: Blob[] = [];
  const json = JSON.stringify(record, (_key, value: unknown) => {
    if (value instanceof Blob) {
      blobs.push(value);
      return { $blob: blobs.length - 1 };
    }
    // Key ranges use ±Infinity (Dexie.minKey); JSON would turn them into null, which is no key at all.
    if (typeof value === 'number' && !Number.isFinite(value)) return { $num: String(value) };
    if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) {
      throw new JournalFormatError('journal rows must not hold raw binary buffers; store them as Blobs');
    }
    return value;
  });
  const header: Header = { ...(JSON.parse(json) as JournalRecord), blobs: blobs.map((b) => ({ size: b.size, type: b.type })) };
  const headerBytes = new TextEncoder().encode(JSON.stringify(header));
  const prefix = new Uint8Array(PREFIX);
  prefix.set(MAGIC, 0);
  const view = new DataView(prefix.buffer);
  view.setUint32(4, JOURNAL_FORMAT_VERSION, true);
  view.setUint32(8, headerBytes.length, true);

  let crc = crc32(prefix);
  crc = crc32(headerBytes, crc);
  const blobBytes: Uint8Array[] = [];
  for (const b of blobs) {
    const bytes = new Uint8Array(await b.arrayBuffer());
    crc = crc32(bytes, crc);
    blobBytes.push(bytes);
  }
  const trailer = new Uint8Array(4);
  new DataView(trailer.buffer).setUint32(0, crc, true);
  return new Blob([prefix, headerBytes, ...blobBytes, trailer] as BlobPart[]);
}

/**
 * Decodes a journal file; throws JournalFormatError if it is not one, was cut short, or fails its
 * checksum. Blobs in the rows are slices of `file` (nothing is copied until they are read).
 */
export async function decodeRecord(file: Blob): Promise<JournalRecord> {
  if (file.size < PREFIX + 4) throw new JournalFormatError(`is ${file.size} bytes, too short to be a journal record`);
  const bytes = new Uint8Array(await file.arrayBuffer());
  for (let i = 0; i < 4; i++) if (bytes[i] !== MAGIC[i]) throw new JournalFormatError('is not a journal record');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = view.getUint32(4, true);
  if (version !== JOURNAL_FORMAT_VERSION) throw new JournalFormatError(`has format version ${version}; this app reads ${JOURNAL_FORMAT_VERSION}`);
  const stored = view.getUint32(bytes.length - 4, true);
  if (crc32(bytes.subarray(0, bytes.length - 4)) !== stored) throw new JournalFormatError('fails its checksum (cut short or damaged)');
  const headerLength = view.getUint32(8, true);
  if (PREFIX + headerLength > bytes.length - 4) throw new JournalFormatError('has a header longer than the file');
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(PREFIX, PREFIX + headerLength))) as Header;
  if (!Array.isArray(header.ops) || !Array.isArray(header.blobs) || !Number.isInteger(header.seq)) {
    throw new JournalFormatError('has a malformed header');
  }
  const blobs: Blob[] = [];
  let offset = PREFIX + headerLength;
  for (const b of header.blobs) {
    if (!Number.isInteger(b.size) || b.size < 0 || offset + b.size > bytes.length - 4) throw new JournalFormatError('has a blob past its end');
    blobs.push(file.slice(offset, offset + b.size, b.type));
    offset += b.size;
  }
  if (offset !== bytes.length - 4) throw new JournalFormatError('has bytes after its last blob');
  const ops = reviveBlobs(header.ops, blobs) as JournalOp[];
  return { kind: header.kind, seq: header.seq, schema: header.schema, at: header.at, ops };
}

function reviveBlobs(value: unknown, blobs: Blob[]): unknown {
  if (Array.isArray(value)) return value.map((v) => reviveBlobs(v, blobs));
  if (value !== null && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    const keys = Object.keys(obj);
    if (keys.length === 1 && keys[0] === '$blob' && typeof obj.$blob === 'number') {
      const blob = blobs[obj.$blob];
      if (!blob) throw new JournalFormatError(`refers to blob ${obj.$blob}, which it does not hold`);
      return blob;
    }
    if (keys.length === 1 && keys[0] === '$num' && (obj.$num === 'Infinity' || obj.$num === '-Infinity' || obj.$num === 'NaN')) {
      return Number(obj.$num);
    }
    const out: Record<string, unknown> = {};
    for (const k of keys) out[k] = reviveBlobs(obj[k], blobs);
    return out;
  }
  return value;
}
