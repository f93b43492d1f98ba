/**
 * Plain-text tables for the terminal: the first column left-aligned, the others right-aligned,
 * undefined values (NaN, null) left blank, never printed as 0 or "NaN".
 */

export type Cell = string | number | null | undefined;

export interface TableOptions {
  /** Decimals for numbers that are not integers-by-column (default 3). */
  decimals?: number;
  /** Columns (by index) whose numbers are counts, printed without decimals. */
  integerColumns?: readonly number[];
  /** Columns (by index) printed with an explicit sign (e.g. Kendall tau). */
  signedColumns?: readonly number[];
}

export function formatNumber(v: number, decimals: number, signed = false): string {
  if (!Number.isFinite(v)) return '';
  // Avoid "-0.000" for tiny negative values.
  const s = (Math.abs(v) < 0.5 * 10 ** -decimals ? 0 : v).toFixed(decimals);
  return signed && !s.startsWith('-') ? `+${s}` : s;
}

function cellText(c: Cell, column: number, options: TableOptions): string {
  if (c === null || c === undefined) return '';
  if (typeof c === 'string') return c;
  if (options.integerColumns?.includes(column)) return Number.isFinite(c) ? String(Math.round(c)) : '';
  return formatNumber(c, options.decimals ?? 3, options.signedColumns?.includes(column) ?? false);
}

/** Renders rows under a header; every line ends with "\n"; no trailing spaces. */
export function renderTable(header: readonly string[], rows: readonly (readonly Cell[])[], options: TableOptions = {}): string {
  const text = rows.map((r) => header.map((_, i) => cellText(r[i], i, options)));
  const widths = header.map((h, i) => Math.max(h.length, ...text.map((r) => r[i].length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i])))
      .join('  ')
      .trimEnd() + '\n';
  return line(header) + text.map(line).join('');
}
