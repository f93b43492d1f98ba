/**
 * The project panel's table, laid out like SPOC Table 2: a row for the mean over verbs, one for the
 * mean over clips, then one per verb; columns mIoU, mIoU_act, mIoU_trf, w/o OSC, seen, novel and
 * transition. The numbers are picked from `evaluateSpoc` (../spoc.ts) exactly as the CLI picks them
 * (cli/report.ts tableRows calls this), so the app and `spoc-studio eval` print the same table. Pure.
 */
import type { MiouScore, SpocColumns, SpocReport } from './spoc';

export type TableRowKind = 'mean_over_verbs' | 'mean_over_clips' | 'verb';

export interface SpocTableRow {
  row: TableRowKind;
  /** The verb of a 'verb' row, null for the means. */
  verb: string | null;
  clips: number;
  mIoU: number;
  mIoU_act: number;
  mIoU_trf: number;
  /** Fused object IoU (states merged). */
  wo_osc: number;
  /** mIoU over clips of seen / novel objects, and over transitioning frames only. */
  seen: number;
  novel: number;
  transition: number;
}

export type ValueKey = Exclude<keyof SpocTableRow, 'row' | 'verb' | 'clips'>;

/** Columns in table order with their header text (as in the CLI and the paper). */
export const VALUE_COLUMNS: readonly { key: ValueKey; label: string; title: string }[] = [
  { key: 'mIoU', label: 'mIoU', title: '(mIoU_act + mIoU_trf) / 2' },
  { key: 'mIoU_act', label: 'mIoU_act', title: 'IoU of the actionable state' },
  { key: 'mIoU_trf', label: 'mIoU_trf', title: 'IoU of the transformed state' },
  { key: 'wo_osc', label: 'w/o OSC', title: 'IoU of the object with both states fused into one mask' },
  { key: 'seen', label: 'seen', title: 'mIoU over clips of seen objects' },
  { key: 'novel', label: 'novel', title: 'mIoU over clips of novel objects' },
  { key: 'transition', label: 'transition', title: 'mIoU over frames whose phase is "transitioning"' },
];

export function rowLabel(row: Pick<SpocTableRow, 'row' | 'verb'>): string {
  return row.row === 'mean_over_verbs' ? 'Mean (verbs)' : row.row === 'mean_over_clips' ? 'Mean (clips)' : (row.verb ?? '');
}

/** Rows of the table for a report over `clips` (used only to count clips per verb). */
export function spocTableRows(report: SpocReport, clips: readonly { verb: string }[]): SpocTableRow[] {
  const pick = (cols: SpocColumns, which: TableRowKind, verb: string | null): MiouScore | undefined =>
    which === 'mean_over_verbs' ? cols.meanOverVerbs : which === 'mean_over_clips' ? cols.meanOverClips : cols.perVerb[verb!];
  const make = (which: TableRowKind, verb: string | null, n: number): SpocTableRow => {
    const all = pick(report.all, which, verb);
    const split = (cols: SpocColumns): number => pick(cols, which, verb)?.miou ?? NaN;
    return {
      row: which,
      verb,
      clips: n,
      mIoU: all?.miou ?? NaN,
      mIoU_act: all?.act ?? NaN,
      mIoU_trf: all?.trf ?? NaN,
      wo_osc: all?.object ?? NaN,
      seen: split(report.seen),
      novel: split(report.novel),
      transition: split(report.transition),
    };
  };
  const verbs = Object.keys(report.all.perVerb).sort();
  return [
    make('mean_over_verbs', null, clips.length),
    make('mean_over_clips', null, clips.length),
    ...verbs.map((v) => make('verb', v, clips.filter((c) => c.verb === v).length)),
  ];
}

/** A value with fixed decimals; undefined values (NaN) are blank, never "0" or "NaN"; no "-0.000". */
export function formatValue(v: number, decimals: number): string {
  if (!Number.isFinite(v)) return '';
  return (Math.abs(v) < 0.5 * 10 ** -decimals ? 0 : v).toFixed(decimals);
}

function csvField(s: string): string {
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/**
 * CSV with a header line; one line per row, "\n" line ends. Values keep `decimals` digits
 * (default 6, more than the table shows, for further processing); undefined values are empty.
 */
export function tableToCsv(rows: readonly SpocTableRow[], decimals = 6): string {
  const header = ['row', 'verb', 'clips', ...VALUE_COLUMNS.map((c) => c.key)];
  const lines = rows.map((r) =>
    [r.row, r.verb ?? '', String(r.clips), ...VALUE_COLUMNS.map((c) => formatValue(r[c.key], decimals))].map(csvField).join(','),
  );
  return [header.join(','), ...lines].join('\n') + '\n';
}

function mdCell(s: string): string {
  return s.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/[\r\n]+/g, ' ');
}

export interface MarkdownOptions {
  decimals?: number;
  /** Lines written under the table (source, convention, coverage), each as its own paragraph line. */
  notes?: readonly string[];
}

/** A GitHub-flavoured Markdown table (first column left-aligned, numbers right-aligned). */
export function tableToMarkdown(rows: readonly SpocTableRow[], options: MarkdownOptions = {}): string {
  const decimals = options.decimals ?? 3;
  const header = ['', 'clips', ...VALUE_COLUMNS.map((c) => c.label)];
  const out = [
    `| ${header.map(mdCell).join(' | ')} |`,
    `|${header.map((_, i) => (i === 0 ? ':---' : '---:')).join('|')}|`,
    ...rows.map((r) => `| ${[rowLabel(r), String(r.clips), ...VALUE_COLUMNS.map((c) => formatValue(r[c.key], decimals))].map(mdCell).join(' | ')} |`),
  ];
  if (options.notes?.length) out.push('', ...options.notes.map((n) => mdCell(n)));
  return out.join('\n') + '\n';
}
