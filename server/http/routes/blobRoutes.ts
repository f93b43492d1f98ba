/**
 * Frame images (docs/sync.md "The protocol": blobs): PUT the raw bytes under their SHA-256, GET them
 * back through a project that references them. The server hashes what it received, so a blob id
 * always names its bytes, and uploading proves one holds them (no reading another project's image
 * by guessing or learning its hash).
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { BLOB_ID_PATTERN, MAX_BLOB_BYTES } from '../../../src/sync/protocol';
import { mayPutBlob } from '../../auth/syncPermissions';
import { addBlobRef, projectHasBlob } from '../../sync/blobRefs';
import { imageMime } from '../../sync/imageMime';
import { requireUser } from '../authenticate';
import { HttpError } from '../httpError';
import type { ServerContext } from '../serverContext';
import { myRole } from './projectAccess';

type BlobParams = { projectId: string; sha256: string };

/** Checked before anything else: "..%2F.." and friends never reach a query. */
function blobParam(value: string): string {
  if (!BLOB_ID_PATTERN.test(value)) throw new HttpError(400, 'a blob id is the SHA-256 of its bytes: 64 lower-case hex digits');
  return value;
}

/** Registered in a context of its own, so only these routes take raw application/octet-stream bodies. */
export async function blobRoutes(api: FastifyInstance, ctx: ServerContext): Promise<void> {
  api.addContentTypeParser('application/octet-stream', { parseAs: 'buffer', bodyLimit: MAX_BLOB_BYTES }, (_request, body, done) => done(null, body));
  const auth = { preHandler: requireUser(ctx) };

  api.put<{ Params: BlobParams }>('/projects/:projectId/blobs/:sha256', { ...auth, bodyLimit: MAX_BLOB_BYTES }, async (request) => {
    const sha256 = blobParam(request.params.sha256);
    const { projectId, role } = await myRole(ctx, request);
    const refusal = mayPutBlob(role);
    if (refusal) throw new HttpError(403, refusal);
    const data = request.body;
    if (!Buffer.isBuffer(data)) throw new HttpError(415, 'send the image bytes as application/octet-stream');
    const actual = createHash('sha256').update(data).digest('hex');
    if (actual !== sha256) throw new HttpError(400, `the bytes hash to ${actual}, not to the id in the URL`);
    const mime = imageMime(data);
    // The bytes first (storing them twice is a no-op), then the project's reference to them.
    await ctx.blobs.put(sha256, data, mime);
    await addBlobRef(ctx.db, projectId, sha256, request.signedIn.id);
    return { sha256, size: data.length, mime };
  });

  api.get<{ Params: BlobParams }>('/projects/:projectId/blobs/:sha256', auth, async (request, reply) => {
    const sha256 = blobParam(request.params.sha256);
    const { projectId } = await myRole(ctx, request);
    const blob = (await projectHasBlob(ctx.db, projectId, sha256)) ? await ctx.blobs.get(sha256) : null;
    if (!blob) throw new HttpError(404, 'this project has no such image');
    // A blob id names its bytes forever; "private" because reading it needs a membership.
    return reply
      .header('content-type', blob.mime)
      .header('cache-control', 'private, max-age=31536000, immutable')
      .header('etag', `"${sha256}"`)
      .header('x-content-type-options', 'nosniff')
      .send(blob.data);
  });
}
