/**
 * `spoc-studio push`: predicted masks from a folder (the layouts `eval` reads) become `pred:<name>`
 * revisions on a server project. Folders and frames are matched to the server's clips the way the
 * app's "prediction for the whole project" import matches them (src/io/sources/projectPredictions.ts).
 * One revision per changed frame, the whole frame as its box, `before` the frame's current replayed
 * pred layer: a frame whose mask already equals the server's is skipped, so a re-run pushes nothing.
 */
import { randomUUID } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { patchToRevision } from '../../src/annotator/revisionPatch';
import { decodeLayer } from '../../src/masks/layers';
import { createLabelMap } from '../../src/masks/labelMap';
import { readProjectPredictions } from '../../src/io/sources/projectPredictions';
import { predictionSource, type PredictionSource } from '../../src/io/sources/predictions';
import { uuidV7Generator } from '../../src/store/ids';
import { MAX_PUSH_BYTES, MAX_PUSH_CHANGES, type PushChange } from '../../src/sync/protocol';
import { flag, parseCommandArgs, requireString } from '../args';
import { PUSH_HELP } from '../help';
import { DataError, EXIT, UsageError, asDataError, displayPath, resolvePath, type CliIo } from '../io';
import { readInput } from './convertFiles';
import { REMOTE_OPTIONS } from './pull';
import { parseServerUrl, readToken, serverClient, type ServerClient } from '../remote/serverClient';
import { latestCursor, replayedLayer, serverClips, type ServerClip } from '../remote/serverProject';

/** Room kept in a push body for the envelope around the changes (protocol, clientId, brackets). */
const ENVELOPE_BYTES = 1024;

export async function pushCommand(argv: readonly string[], io: CliIo, doFetch?: typeof fetch): Promise<number> {
  const parsed = parseCommandArgs('push', argv, { ...REMOTE_OPTIONS, pred: { type: 'string' } }, true);
  if (flag(parsed, 'help')) {
    io.stdout.write(PUSH_HELP);
    return EXIT.ok;
  }
  const server = parseServerUrl(requireString(parsed, 'server', 'push'), 'push');
  const projectId = requireString(parsed, 'project', 'push');
  let source: PredictionSource;
  try {
    source = predictionSource(requireString(parsed, 'pred', 'push'));
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError(`--pred: ${(err as Error).message}`, 'push');
  }
  const [dir, ...extra] = parsed.positionals;
  if (dir === undefined) throw new UsageError('the folder of predicted masks is required: spoc-studio push ... DIR', 'push');
  if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}"`, 'push');
  const dirAbs = resolvePath(io, dir);
  if (!(await stat(dirAbs).catch(() => null))?.isDirectory()) throw new UsageError(`${dir}: no such folder`, 'push');
  const token = await readToken(parsed, io, 'push');

  const client = serverClient(server, token, doFetch);
  const { username } = await client.me();
  const clips = serverClips(await client.pullAll(projectId));
  const { files } = await readInput(dirAbs, dir, 'wtc');
  const targets = clips.map((c) => ({ clip: c.clip, frames: c.frames }));
  let report;
  try {
    report = await readProjectPredictions(files, dir, targets, source);
  } catch (err) {
    throw asDataError(err, (name) => displayPath(dir, name)) ?? err;
  }
  for (const w of report.warnings) io.stderr.write(`warning: ${w}\n`);
  for (const f of report.unmatchedFolders) io.stderr.write(`warning: ${displayPath(dir, f)}: no clip on the server has this name; skipped\n`);
  for (const name of report.clipsWithout) io.stderr.write(`note: no masks for clip "${name}"\n`);
  if (report.errors.length > 0) throw new DataError(`nothing was pushed:\n  ${report.errors.join('\n  ')}`);

  const byId = new Map(clips.map((c) => [c.clip.id, c]));
  const newId = uuidV7Generator();
  const changes: { change: PushChange; label: string }[] = [];
  let unchanged = 0;
  for (const m of report.matched) {
    const c = byId.get(m.clipId)!;
    for (const [frameIndex, layer] of [...m.draft.layers].sort((a, b) => a[0] - b[0])) {
      const change = frameRevision(c, source, frameIndex, decodeLayer(layer), username, newId);
      if (!change) unchanged++;
      else changes.push({ change, label: `clip "${c.clip.name}" frame ${frameIndex + 1} (${m.draft.from.get(frameIndex) ?? ''})` });
    }
  }
  const { accepted, refused } = await pushInBatches(client, projectId, changes, io);
  io.stderr.write(`${source}: ${accepted} frames pushed, ${unchanged} already equal on the server${refused ? `, ${refused} refused` : ''}\n`);
  return refused > 0 ? EXIT.data : EXIT.ok;
}

/** The revision turning the server's pred layer of the frame into `after`; null when they are equal. */
function frameRevision(c: ServerClip, source: PredictionSource, frameIndex: number, after: ReturnType<typeof decodeLayer>, author: string, newId: () => string): PushChange | null {
  const { width, height } = c.clip;
  const before = replayedLayer(c, source, frameIndex) ?? createLabelMap(width, height);
  // A frame never predicted and predicted empty is still an answer worth storing; equal pixels over a stored layer are not.
  if (c.revisions.has(`${source}/${frameIndex}`) && before.data.every((v, i) => v === after.data[i])) return null;
  const pixels = patchToRevision({ frameIndex, box: { x: 0, y: 0, w: width, h: height }, before: before.data, after: after.data, action: 'import' });
  const id = newId();
  return { kind: 'revision', id, base: latestCursor(c, source, frameIndex), row: { id, clipId: c.clip.id, source, author, at: Date.now(), ...pixels } };
}

/**
 * Splits changes into push bodies the server reads: at most `maxCount` changes and `maxBytes` of JSON
 * each (`ENVELOPE_BYTES` kept for the rest of the body). A change too large for any body is an error.
 */
export function pushBatches<T extends { change: PushChange; label: string }>(changes: readonly T[], maxCount = MAX_PUSH_CHANGES, maxBytes = MAX_PUSH_BYTES): T[][] {
  const batches: T[][] = [];
  let batch: T[] = [];
  let bytes = ENVELOPE_BYTES;
  for (const c of changes) {
    const size = Buffer.byteLength(JSON.stringify(c.change)) + 1;
    if (size + ENVELOPE_BYTES > maxBytes) throw new DataError(`${c.label}: its revision is ${size} bytes, more than a push may carry (${maxBytes})`);
    if (batch.length === maxCount || bytes + size > maxBytes) {
      batches.push(batch);
      batch = [];
      bytes = ENVELOPE_BYTES;
    }
    batch.push(c);
    bytes += size;
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}

/** Sends the changes batch by batch; prints each refusal. */
async function pushInBatches(client: ServerClient, projectId: string, changes: readonly { change: PushChange; label: string }[], io: CliIo): Promise<{ accepted: number; refused: number }> {
  const clientId = randomUUID();
  let accepted = 0;
  let refused = 0;
  for (const batch of pushBatches(changes)) {
    const response = await client.push(projectId, clientId, batch.map((b) => b.change));
    batch.forEach((b, k) => {
      const o = response.outcomes[k];
      if (o?.status === 'accepted') accepted++;
      else {
        refused++;
        io.stderr.write(`refused: ${b.label}: ${o ? `${o.code} ${o.error}` : 'no answer for this row'}\n`);
      }
    });
  }
  return { accepted, refused };
}
