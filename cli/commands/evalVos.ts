/** `spoc-studio eval --task vos`: argument handling and output; the work is in ../vos/. */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { VOS_PROTOCOLS } from '../../src/metrics/vos';
import { type Parsed, flag, parseChoice, requireString, stringOption } from '../args';
import { DataError, EXIT, UsageError, frameProgress, fsProblem, resolvePath, type CliIo } from '../io';
import { formatWarnings, stringifyJson } from '../report';
import { packageVersion } from '../version';
import { vosHtmlReport } from '../html/vosReport';
import { openFolder, scanVosGt } from '../vos/layout';
import { reportOption, writeReport } from './eval';
import { buildVosJson, csvNames, formatVosReport, globalCsv, perSequenceCsv } from '../vos/report';
import { runVosEvaluation } from '../vos/run';

/** Options that only the SPOC task reads, and only the VOS task reads: refused in the other. */
export const SPOC_ONLY_OPTIONS = ['convention', 'boundary'] as const;
export const VOS_ONLY_OPTIONS = ['protocol', 'set', 'resolution', 'sequences', 'csv', 'davis-compat'] as const;

async function writeOut(io: CliIo, file: string, text: string, what: string): Promise<void> {
  const target = resolvePath(io, file);
  try {
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, text);
  } catch (err) {
    throw new DataError(`${file}: cannot write the ${what} (${fsProblem(err)})`);
  }
}

export async function evalVosCommand(parsed: Parsed, io: CliIo): Promise<number> {
  for (const name of SPOC_ONLY_OPTIONS) {
    if (parsed.values[name] !== undefined) throw new UsageError(`--${name} belongs to the SPOC task; --task vos scores J and F per object`, 'eval');
  }
  if (parsed.values.jobs !== undefined) throw new UsageError('--jobs applies to the SPOC task; --task vos evaluates on one thread', 'eval');
  const gtDir = requireString(parsed, 'gt', 'eval');
  const predDir = requireString(parsed, 'pred', 'eval');
  const protocol = parseChoice(stringOption(parsed, 'protocol') ?? 'semi-supervised', 'protocol', VOS_PROTOCOLS, 'eval');
  const set = stringOption(parsed, 'set') ?? 'val';
  if (!/^[A-Za-z0-9._-]+$/.test(set)) throw new UsageError(`--set must be a subset name such as val or test-dev; got "${set}"`, 'eval');
  const resolution = stringOption(parsed, 'resolution') ?? '480p';
  if (!/^[A-Za-z0-9._-]+$/.test(resolution)) throw new UsageError(`--resolution must be a folder name such as 480p or Full-Resolution; got "${resolution}"`, 'eval');
  const sequencesArg = stringOption(parsed, 'sequences');
  const sequences = sequencesArg === undefined ? undefined : sequencesArg.split(',').map((s) => s.trim()).filter(Boolean);
  if (sequences && sequences.length === 0) throw new UsageError('--sequences needs at least one sequence name', 'eval');
  const csvDir = stringOption(parsed, 'csv');
  if (csvDir === '') throw new UsageError('--csv needs a folder', 'eval');
  const jsonOut = stringOption(parsed, 'json');
  if (jsonOut === '') throw new UsageError('--json needs a file name (or "-" for stdout)', 'eval');
  const davisCompat = flag(parsed, 'davis-compat');
  const reportOut = reportOption(parsed);

  const gt = await scanVosGt(io, gtDir, { protocol, set, resolution, sequences });
  const pred = await openFolder(io, predDir, 'pred');
  const run = await runVosEvaluation(gt, pred, {
    protocol,
    davisCompat,
    set,
    onFrame: frameProgress(io),
  });

  // Everything was read: only now is anything written.
  const written: string[] = [];
  if (csvDir !== undefined) {
    const names = csvNames(set);
    await writeOut(io, path.join(csvDir, names.global), globalCsv(run), 'global results CSV');
    await writeOut(io, path.join(csvDir, names.perSequence), perSequenceCsv(run), 'per-sequence results CSV');
    written.push(`CSV written to ${path.join(csvDir, names.global)} and ${path.join(csvDir, names.perSequence)}`);
  }
  if (jsonOut !== undefined) {
    const text = stringifyJson(buildVosJson(run, packageVersion()));
    if (jsonOut === '-') io.stdout.write(text);
    else {
      await writeOut(io, jsonOut, text, 'JSON report');
      written.push(`JSON written to ${jsonOut}`);
    }
  }
  if (reportOut !== undefined) {
    await writeReport(io, reportOut, vosHtmlReport(run, packageVersion()));
    written.push(`HTML report written to ${reportOut}`);
  }
  if (jsonOut !== '-') {
    io.stdout.write(formatVosReport(run));
    if (written.length > 0) io.stdout.write(`\n${written.join('\n')}\n`);
  }
  io.stderr.write(formatWarnings(run.warnings, 20, jsonOut !== undefined));
  return EXIT.ok;
}
