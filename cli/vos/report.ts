/**
 * Output of `spoc-studio eval --task vos`: the reference's two tables printed, its two CSV files
 * byte for byte as evaluation_method.py writes them (pandas `to_csv(index=False,
 * float_format="%.3f")`), and a JSON document with every per-frame value.
 */
import type { VosGlobal } from '../../src/metrics/vos';
import { renderTable } from '../table';
import type { VosRun } from './run';

export const VOS_JSON_SCHEMA = 'spoc-studio/eval-vos/1';
export const GLOBAL_COLUMNS = ['J&F-Mean', 'J-Mean', 'J-Recall', 'J-Decay', 'F-Mean', 'F-Recall', 'F-Decay'] as const;
export const SEQUENCE_COLUMNS = ['Sequence', 'J-Mean', 'F-Mean'] as const;

export function globalValues(g: VosGlobal): number[] {
  return [g.jfMean, g.jMean, g.jRecall, g.jDecay, g.fMean, g.fRecall, g.fDecay];
}

/** `<seq>_<k>` rows in the reference's order (k counts a sequence's rows from 1). */
export function sequenceRows(run: VosRun): { sequence: string; jMean: number; fMean: number }[] {
  return run.sequences.flatMap((s) => s.objects.map((o, k) => ({ sequence: `${s.name}_${k + 1}`, jMean: o.jStats.mean, fMean: o.fStats.mean })));
}

/**
 * Python's '%.3f' % x: the exact binary value rounded half to even. JavaScript's toFixed rounds an
 * exact tie up instead; at three decimals the ties are the odd multiples of 1/16 (0.0625, 0.1875…),
 * which recall and decay over 16 frames do produce. -0.0 keeps its sign, as in Python.
 */
export function pythonFixed3(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  const negative = x < 0 || Object.is(x, -0);
  const a = Math.abs(x);
  let text = a.toFixed(3);
  const sixteenths = a * 16;
  if (Number.isInteger(sixteenths) && sixteenths % 2 === 1 && a < 2 ** 40) {
    const lower = Math.floor(a * 1000);
    const even = lower % 2 === 0 ? lower : lower + 1;
    text = (even / 1000).toFixed(3);
  }
  return negative ? `-${text}` : text;
}

/** A CSV cell as pandas writes it: floats with float_format, NaN as the empty string, strings quoted only when needed. */
function csvCell(v: number | string): string {
  if (typeof v === 'number') return Number.isNaN(v) ? '' : pythonFixed3(v);
  return /[",\n\r]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

const csvLine = (cells: readonly (number | string)[]): string => cells.map(csvCell).join(',') + '\n';

export function globalCsv(run: VosRun): string {
  return csvLine(GLOBAL_COLUMNS) + csvLine(globalValues(run.global));
}

export function perSequenceCsv(run: VosRun): string {
  return csvLine(SEQUENCE_COLUMNS) + sequenceRows(run).map((r) => csvLine([r.sequence, r.jMean, r.fMean])).join('');
}

export const csvNames = (set: string): { global: string; perSequence: string } => ({
  global: `global_results-${set}.csv`,
  perSequence: `per-sequence_results-${set}.csv`,
});

const PROTOCOL_NOTE = {
  'semi-supervised': 'object k of the result against object k of the GT; first and last frame left out; GT void (255) read as background, as davis2017-evaluation does',
  unsupervised: 'every result object against every GT object, optimal assignment of (J mean + F mean)/2 (missing result objects padded as empty); GT void (255) excluded',
} as const;

/** The printed report: inputs, then the reference's two tables (6 decimals). */
export function formatVosReport(run: VosRun): string {
  const objects = run.sequences.reduce((n, s) => n + s.objects.length, 0);
  const gtWhere = run.gt.base ? `${run.gt.base}/<sequence>/*.png` : '<sequence>/*.png';
  const lines = [
    `GT    ${run.gt.dirArg}: ${gtWhere}; ${run.sequences.length} sequences (${run.gt.listedBy}), ${objects} objects`,
    `Pred  ${run.predDir}: <sequence>/<frame>.png; ${run.frameCount} frames scored`,
    `Protocol  ${run.protocol}: ${PROTOCOL_NOTE[run.protocol]}`,
    `Statistics  per object: mean, recall (share of frames > 0.5), decay (first minus last of 4 temporal bins)${
      run.davisCompat ? '; --davis-compat: bin edges cast to uint8 as the reference does' : ''
    }`,
    '',
    `--------------------------- Global results for ${run.set} ---------------------------`,
  ];
  let out = lines.join('\n') + '\n';
  out += renderTable([...GLOBAL_COLUMNS], [globalValues(run.global)], { decimals: 6 });
  out += `\n---------- Per sequence results for ${run.set} ----------\n`;
  out += renderTable([...SEQUENCE_COLUMNS], sequenceRows(run).map((r) => [r.sequence, r.jMean, r.fMean]), { decimals: 6 });
  return out;
}

const num = (x: number): number | null => (Number.isFinite(x) ? x : null);

export const VOS_DEFINITIONS = {
  J: 'region similarity per object and frame: |P ∩ G| / |P ∪ G| (void excluded in the unsupervised protocol); 1 when both are empty',
  F: 'boundary F-measure per object and frame (davis2017 f_measure, radius ceil(0.008 × image diagonal))',
  mean: 'mean over the scored frames (numpy pairwise sum)',
  recall: 'share of scored frames with a value > 0.5',
  decay: 'mean of the first minus mean of the last of 4 temporal bins (np.linspace edges; uint8 edges with --davis-compat)',
  'J&F-Mean': '(mean over objects of J mean + mean over objects of F mean) / 2',
  sequence: '<sequence>_<k>: the k-th row of the sequence; semi-supervised: GT object k; unsupervised: the k-th assigned pair in order of result id (gt_object and pred_object say which)',
  null: 'not defined (e.g. an empty decay bin with --davis-compat)',
};

export function buildVosJson(run: VosRun, version: string): object {
  const rows = sequenceRows(run);
  let r = 0;
  return {
    schema: VOS_JSON_SCHEMA,
    tool: { name: 'spoc-studio', version },
    task: 'vos',
    protocol: run.protocol,
    davis_compat: run.davisCompat,
    set: run.set,
    inputs: { gt: { dir: run.gt.dirArg, annotations: run.gt.base || '.', sequences_from: run.gt.listedBy }, pred: { dir: run.predDir } },
    definitions: VOS_DEFINITIONS,
    global: Object.fromEntries(GLOBAL_COLUMNS.map((c, i) => [c, num(globalValues(run.global)[i])])),
    per_sequence: rows.map((row) => ({ Sequence: row.sequence, 'J-Mean': num(row.jMean), 'F-Mean': num(row.fMean) })),
    sequences: run.sequences.map((s) => ({
      name: s.name,
      frames: s.frames,
      gt_objects: s.gtObjects,
      pred_objects: s.predObjects,
      objects: s.objects.map((o) => ({
        name: rows[r++].sequence,
        gt_object: o.gtId,
        pred_object: o.predId,
        J_mean: num(o.jStats.mean),
        J_recall: num(o.jStats.recall),
        J_decay: num(o.jStats.decay),
        F_mean: num(o.fStats.mean),
        F_recall: num(o.fStats.recall),
        F_decay: num(o.fStats.decay),
        J: Array.from(o.j),
        F: Array.from(o.f),
      })),
    })),
    warnings: run.warnings,
  };
}
