/**
 * Pieces of `spoc-studio eval --report FILE`: one self-contained HTML file (inline CSS, inline SVG
 * charts, PNG data URLs; nothing fetched), readable offline and attachable to a paper's review.
 * Numbers are shown with three decimals ("–" for undefined); every value cell also carries the
 * full value in data-value, so a script (or the report's test) can compare it with the JSON.
 */
export const esc = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The text a number is shown as: three decimals, "–" for NaN / undefined. */
export function fmt(x: number | null | undefined): string {
  return x === null || x === undefined || !Number.isFinite(x) ? '–' : x.toFixed(3);
}

export type HtmlCell = string | number | null;

/** A table; string cells are text, number cells values. `id` names it for readers and tests. */
export function table(id: string, header: readonly string[], rows: readonly HtmlCell[][]): string {
  const th = header.map((h) => `<th>${esc(h)}</th>`).join('');
  const body = rows
    .map(
      (r) =>
        `<tr>${r
          .map((c) =>
            typeof c === 'number' || c === null
              ? `<td class="num" data-value="${c === null || !Number.isFinite(c) ? '' : String(c)}">${fmt(c)}</td>`
              : `<td>${esc(c)}</td>`,
          )
          .join('')}</tr>`,
    )
    .join('\n');
  return `<table id="${esc(id)}"><thead><tr>${th}</tr></thead><tbody>\n${body}\n</tbody></table>`;
}

/** Horizontal bars of values in [0, 1] (NaN drawn as an empty bar labelled "–"). */
export function bars(id: string, items: readonly { label: string; value: number }[], title: string): string {
  const rowH = 22;
  const labelW = 150;
  const barW = 360;
  const h = items.length * rowH + 8;
  const rows = items
    .map((it, i) => {
      const y = i * rowH + 4;
      const w = Number.isFinite(it.value) ? Math.max(0, Math.min(1, it.value)) * barW : 0;
      return (
        `<text x="${labelW - 6}" y="${y + 15}" text-anchor="end">${esc(it.label)}</text>` +
        `<rect x="${labelW}" y="${y + 3}" width="${barW}" height="${rowH - 8}" class="track"/>` +
        `<rect x="${labelW}" y="${y + 3}" width="${w.toFixed(1)}" height="${rowH - 8}" class="bar"/>` +
        `<text x="${labelW + barW + 6}" y="${y + 15}">${fmt(it.value)}</text>`
      );
    })
    .join('');
  return `<figure><svg id="${esc(id)}" role="img" aria-label="${esc(title)}" width="${labelW + barW + 60}" height="${h}" viewBox="0 0 ${labelW + barW + 60} ${h}">${rows}</svg><figcaption>${esc(title)}</figcaption></figure>`;
}

/** Curves over frames with values in [0, 1]; NaN points break the line. */
export function curves(series: readonly { name: string; values: readonly number[]; cls: string }[], title: string): string {
  const w = 320;
  const h = 120;
  const pad = 6;
  const n = Math.max(1, ...series.map((s) => s.values.length));
  const x = (i: number): number => pad + (n === 1 ? 0 : (i / (n - 1)) * (w - 2 * pad));
  const y = (v: number): number => pad + (1 - Math.max(0, Math.min(1, v))) * (h - 2 * pad);
  const paths = series
    .map((s) => {
      let d = '';
      let pen = false;
      s.values.forEach((v, i) => {
        if (!Number.isFinite(v)) {
          pen = false;
          return;
        }
        d += `${pen ? 'L' : 'M'}${x(i).toFixed(1)},${y(v).toFixed(1)}`;
        pen = true;
      });
      const dots = s.values.length === 1 && Number.isFinite(s.values[0]) ? `<circle cx="${x(0)}" cy="${y(s.values[0])}" r="2" class="${s.cls}"/>` : '';
      return `<path d="${d}" class="line ${s.cls}"><title>${esc(s.name)}</title></path>${dots}`;
    })
    .join('');
  const legend = series.map((s) => `<span class="key ${s.cls}">${esc(s.name)}</span>`).join(' ');
  return `<figure class="curve"><svg role="img" aria-label="${esc(title)}" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}"><rect x="0" y="0" width="${w}" height="${h}" class="frame"/>${paths}</svg><figcaption>${esc(title)} ${legend}</figcaption></figure>`;
}

export function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#1d2430;background:#fff}
h1{font-size:20px}h2{font-size:16px;margin-top:28px;border-bottom:1px solid #d8dde6}
table{border-collapse:collapse;margin:8px 0}th,td{padding:3px 8px;border-bottom:1px solid #e6e9ef;text-align:left}
td.num{text-align:right;font-variant-numeric:tabular-nums}th{background:#f3f5f8}
svg text{font:12px system-ui,sans-serif;fill:#1d2430}.track{fill:#eef1f5}.bar{fill:#3a6fd8}
.frame{fill:#fafbfc;stroke:#d8dde6}.line{fill:none;stroke-width:1.6}.gt{stroke:#222;fill:#222}.pred{stroke:#e0701a;fill:#e0701a}
.key.gt{color:#222}.key.pred{color:#e0701a}.clips{display:flex;flex-wrap:wrap;gap:12px}
figure{margin:6px 0}figcaption{font-size:12px;color:#4a5568}.thumbs{display:flex;flex-wrap:wrap;gap:14px}
.thumbs img{image-rendering:pixelated;border:1px solid #d8dde6;display:block}.legend span{display:inline-block;margin-right:12px}
.sw{display:inline-block;width:10px;height:10px;margin-right:4px;vertical-align:middle}
.meta{color:#4a5568}
</style></head><body>
${body}
</body></html>
`;
}
