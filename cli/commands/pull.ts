/**
 * `spoc-studio pull`: a server project's gt (and one prediction) as WhereToChange mask folders that
 * `spoc-studio eval` reads, written by the app's own WhereToChange writer (src/io/formats/wtc.ts).
 * Each frame's mask is the replay of its revisions in cursor order (cli/remote/serverProject.ts).
 */
import { readdir } from 'node:fs/promises';
import { exportWtc } from '../../src/io/formats/wtc';
import { predictionSource } from '../../src/io/sources/predictions';
import type { LayerSource } from '../../src/store/types';
import { flag, parseCommandArgs, requireString } from '../args';
import { PULL_HELP } from '../help';
import { DataError, EXIT, UsageError, resolvePath, type CliIo } from '../io';
import { writeOutput } from './convertFiles';
import { parseServerUrl, readToken, serverClient } from '../remote/serverClient';
import { clipAnnotations, serverClips } from '../remote/serverProject';

export const REMOTE_OPTIONS = {
  server: { type: 'string' },
  project: { type: 'string' },
  'token-file': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

export async function pullCommand(argv: readonly string[], io: CliIo, doFetch?: typeof fetch): Promise<number> {
  const parsed = parseCommandArgs('pull', argv, { ...REMOTE_OPTIONS, out: { type: 'string' }, pred: { type: 'string' }, 'approved-only': { type: 'boolean' }, force: { type: 'boolean' } });
  if (flag(parsed, 'help')) {
    io.stdout.write(PULL_HELP);
    return EXIT.ok;
  }
  const server = parseServerUrl(requireString(parsed, 'server', 'pull'), 'pull');
  const projectId = requireString(parsed, 'project', 'pull');
  const out = requireString(parsed, 'out', 'pull');
  const predName = parsed.values.pred;
  let pred: LayerSource | null = null;
  if (typeof predName === 'string') {
    try {
      pred = predictionSource(predName);
    } catch (err) {
      throw new UsageError(`--pred: ${(err as Error).message}`, 'pull');
    }
  }
  const outAbs = resolvePath(io, out);
  if (!flag(parsed, 'force') && (await readdir(outAbs).catch(() => [])).length > 0) {
    throw new UsageError(`${out} is not empty; pass --force to write into it (files of the same name are overwritten)`, 'pull');
  }
  const token = await readToken(parsed, io, 'pull');

  const client = serverClient(server, token, doFetch);
  const rows = await client.pullAll(projectId);
  const approvedOnly = flag(parsed, 'approved-only');
  let clips = serverClips(rows);
  const notApproved = clips.filter((c) => c.clip.status !== 'approved');
  for (const c of notApproved) io.stderr.write(`${approvedOnly ? 'left out' : 'note'}: clip "${c.clip.name}" is ${c.clip.status}, not approved\n`);
  if (approvedOnly) clips = clips.filter((c) => c.clip.status === 'approved');

  const files = clips.flatMap((c) => {
    const sources: LayerSource[] = pred ? ['gt', pred] : ['gt'];
    const a = clipAnnotations(c, sources);
    try {
      return sources.flatMap((source) => exportWtc(a, { source }));
    } catch (err) {
      if (err instanceof RangeError) throw new DataError(`clip "${c.clip.name}": ${err.message}`);
      throw err;
    }
  });
  // All masks are rebuilt before the first is written; a failed write removes what this run wrote.
  await writeOutput(files, [], { output: out, force: true }, outAbs, false, (name) => name);
  const masks = files.filter((f) => f.path.endsWith('.png')).length;
  io.stderr.write(`pulled ${rows.length} rows: ${clips.length} ${clips.length === 1 ? 'clip' : 'clips'}, ${masks} masks written to ${out}\n`);
  return EXIT.ok;
}
