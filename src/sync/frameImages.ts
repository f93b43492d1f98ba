/**
 * Frame images travel apart from frame rows, by content (protocol.ts FrameImageRef): a frame row
 * names its image by SHA-256, the bytes go up before the first push of that row, and a browser that
 * pulled the row fetches them only when someone opens the frame (`ensureFrameImage`), checking the
 * hash before storing them.
 */
import type { SpocDb } from '../store/db';
import type { FrameImage } from '../store/types';
import { frameRowId, type FrameImageRef } from './protocol';
import { readImageRefs, readLink } from './syncState';
import type { SyncTransport } from './transport';

export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', bytes as BufferSource);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

export async function blobBytes(blob: Blob): Promise<Uint8Array> {
  return new Uint8Array(await blob.arrayBuffer());
}

/** The reference a frame row carries for its stored image. */
export async function imageRef(image: FrameImage): Promise<{ ref: FrameImageRef; bytes: Uint8Array }> {
  const bytes = await blobBytes(image.blob);
  return { ref: { sha256: await sha256Hex(bytes), mime: image.mime, width: image.width, height: image.height, size: bytes.length }, bytes };
}

/**
 * Makes sure a frame's image is stored here, fetching it from the project's server if the frame came
 * from a pull and its bytes were never fetched. Returns false when the frame has no image here nor a
 * reference to one (not a synced frame); throws SyncHttpError when the server could not give it, and
 * an Error when the bytes do not have the hash the frame row names (nothing is stored then).
 */
export async function ensureFrameImage(db: SpocDb, transport: SyncTransport, projectId: string, clipId: string, index: number): Promise<boolean> {
  if (await db.frameImages.get([clipId, index])) return true;
  const [link, refs] = await Promise.all([readLink(db, projectId), readImageRefs(db, projectId)]);
  const ref = refs[frameRowId(clipId, index)];
  if (!link || !ref) return false;
  const { bytes } = await transport.getBlob(link.serverProjectId, ref.sha256);
  await storeFetchedImage(db, clipId, index, ref, bytes);
  return true;
}

/** Stores fetched bytes as the frame's image if they hash to what its row names; throws (storing nothing) otherwise. */
export async function storeFetchedImage(db: SpocDb, clipId: string, index: number, ref: FrameImageRef, bytes: Uint8Array): Promise<void> {
  const got = await sha256Hex(bytes);
  if (got !== ref.sha256) throw new Error(`The server's image for frame ${index} has SHA-256 ${got}, not the ${ref.sha256} its frame names; it was not stored.`);
  const image: FrameImage = { clipId, index, blob: new Blob([bytes as BlobPart], { type: ref.mime }), mime: ref.mime, width: ref.width, height: ref.height };
  await db.transaction('rw', db.frameImages, async () => {
    if (!(await db.frameImages.get([clipId, index]))) await db.frameImages.put(image);
  });
}
