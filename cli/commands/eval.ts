/** `spoc-studio eval`: argument handling and output; the work is in ../evaluate.ts and ../report.ts. */
import { mkdir, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import type { Convention } from '../../src/metrics';
import { type Parsed, flag, parseChoice, parseCommandArgs, requireString, stringOption } from '../args';
import { spocHtmlReport } from '../html/spocReport';
import { runEvaluation } from '../evaluate';
import { VOS_ONLY_OPTIONS, evalVosCommand } from './evalVos';
import { EVAL_HELP } from '../help';
import { DataError, EXIT, UsageError, frameProgress, fsProblem, resolvePath, type CliIo } from '../io';
import { scanMasks } from '../layout';
import { buildJson, formatReport, formatWarnings, stringifyJson } from '../report';
import { packageVersion } from '../version';

/** --report FILE: the HTML report's file name (never stdout). */
export function reportOption(parsed: Parsed): string | undefined {
  const out = stringOption(parsed, 'report');
  if (out === '' || out === '-') throw new UsageError('--report needs a file name (the report is one HTML file)', 'eval');
  return out;
}

export async function writeReport(io: CliIo, file: string, html: string): Promise<void> {
  const target = resolvePath(io, file);
  try {
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, html);
  } catch (err) {
    throw new DataError(`${file}: cannot write the HTML report (${fsProblem(err)})`);
  }
}

/**
 * Worker threads for --jobs: every core in the built CLI; from the TypeScript sources (tests, a
 * checkout without dist-cli/) one, as each worker would compile the sources again.
 */
export function parseJobs(text: string | undefined): number {
  if (text === undefined) return import.meta.url.endsWith('.ts') ? 1 : availableParallelism();
  if (!/^[1-9][0-9]*$/.test(text) || Number(text) > 256) throw new UsageError(`--jobs must be a whole number from 1 to 256; got "${text}"`, 'eval');
  return Number(text);
}

export const CONVENTIONS: readonly Convention[] = ['clip-pooled', 'per-frame', 'dataset-pooled'];

export async function evalCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseCommandArgs('eval', argv, {
    gt: { type: 'string' },
    pred: { type: 'string' },
    json: { type: 'string' },
    convention: { type: 'string' },
    boundary: { type: 'boolean' },
    task: { type: 'string' },
    protocol: { type: 'string' },
    set: { type: 'string' },
    resolution: { type: 'string' },
    sequences: { type: 'string' },
    csv: { type: 'string' },
    'davis-compat': { type: 'boolean' },
    jobs: { type: 'string' },
    report: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if (flag(parsed, 'help')) {
    io.stdout.write(EVAL_HELP);
    return EXIT.ok;
  }
  const task = parseChoice(stringOption(parsed, 'task') ?? 'spoc', 'task', ['spoc', 'vos'] as const, 'eval');
  if (task === 'vos') return evalVosCommand(parsed, io);
  for (const name of VOS_ONLY_OPTIONS) {
    if (parsed.values[name] !== undefined) throw new UsageError(`--${name} belongs to --task vos (per-object DAVIS evaluation)`, 'eval');
  }
  const gtDir = requireString(parsed, 'gt', 'eval');
  const predDir = requireString(parsed, 'pred', 'eval');
  const convention = parseChoice(stringOption(parsed, 'convention') ?? 'clip-pooled', 'convention', CONVENTIONS, 'eval');
  const jsonOut = stringOption(parsed, 'json');
  if (jsonOut === '') throw new UsageError('--json needs a file name (or "-" for stdout)', 'eval');
  const boundary = flag(parsed, 'boundary');
  const jobs = parseJobs(stringOption(parsed, 'jobs'));
  const reportOut = reportOption(parsed);

  const gt = await scanMasks(io, gtDir, 'gt');
  const pred = await scanMasks(io, predDir, 'pred');

  const run = await runEvaluation(gt, pred, {
    convention,
    boundary,
    onFrame: frameProgress(io),
    jobs,
  });

  if (jsonOut !== undefined) {
    const text = stringifyJson(buildJson(run, packageVersion()));
    if (jsonOut === '-') io.stdout.write(text);
    else {
      const target = resolvePath(io, jsonOut);
      try {
        await mkdir(path.dirname(target), { recursive: true });
        await writeFile(target, text);
      } catch (err) {
        throw new DataError(`${jsonOut}: cannot write the JSON report (${fsProblem(err)})`);
      }
    }
  }
  if (reportOut !== undefined) await writeReport(io, reportOut, await spocHtmlReport(run, packageVersion()));
  if (jsonOut !== '-') {
    io.stdout.write(formatReport(run));
    if (jsonOut !== undefined) io.stdout.write(`\nJSON written to ${jsonOut}\n`);
    if (reportOut !== undefined) io.stdout.write(`${jsonOut === undefined ? '\n' : ''}HTML report written to ${reportOut}\n`);
  }
  io.stderr.write(formatWarnings(run.warnings, 20, jsonOut !== undefined));
  return EXIT.ok;
}
