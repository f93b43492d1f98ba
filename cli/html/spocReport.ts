/** `spoc-studio eval --report FILE` for the SPOC task: the terminal's tables, per-verb bars, each clip's progress curves and its worst frames. */
import { readFile } from 'node:fs/promises';
import { decodeIndexedPng } from '../../src/io/indexedPng';
import type { LabelMap } from '../../src/masks/labelMap';
import { VALUE_COLUMNS, rowLabel } from '../../src/metrics/spocTable';
import { scoreClips } from '../../src/metrics';
import type { ClipResult, EvalRun, FrameResult } from '../evaluate';
import type { MaskSet } from '../layout';
import { NODE_PNG } from '../nativePng';
import { davisRows, progressRows, tableRows } from '../report';
import { errorLegend, errorMapDataUrl } from './errorMap';
import { bars, curves, esc, page, table } from './page';

/** How many of the worst frames get a thumbnail (one per clip at most). */
export const WORST_FRAMES = 12;

/** A frame's score for "worst": mean of the two states' J (ignored frames never count). */
const frameScore = (f: FrameResult): number => (f.j.act + f.j.trf) / 2;

async function readMap(set: MaskSet, videoKey: string | null, frame: string): Promise<LabelMap | null> {
  const video = set.videos.find((v) => v.key === videoKey);
  const file = video?.frames.find((f) => f.stem === frame || f.key === frame.toLowerCase());
  if (!file) return null;
  return decodeIndexedPng(new Uint8Array(await readFile(file.abs)), { fileName: file.rel, native: NODE_PNG });
}

async function worstFrames(run: EvalRun): Promise<string> {
  const picks: { clip: ClipResult; frame: FrameResult; score: number }[] = [];
  for (const clip of run.clips) {
    let best: { frame: FrameResult; score: number } | null = null;
    for (const f of clip.frames) {
      if (f.ignored || f.gtFile === null) continue;
      const score = frameScore(f);
      if (Number.isFinite(score) && (!best || score < best.score)) best = { frame: f, score };
    }
    if (best) picks.push({ clip, ...best });
  }
  picks.sort((a, b) => a.score - b.score || a.clip.key.localeCompare(b.clip.key));
  const cards: string[] = [];
  for (const p of picks.slice(0, WORST_FRAMES)) {
    const gt = await readMap(run.gt, p.clip.key, p.frame.frame);
    if (!gt) continue;
    const pred = p.frame.predFile ? await readMap(run.pred, p.clip.predVideo, p.frame.frame) : null;
    const img = errorMapDataUrl(gt, pred && pred.width === gt.width && pred.height === gt.height ? pred : null);
    cards.push(
      `<figure class="worst" data-clip="${esc(p.clip.key)}" data-frame="${esc(p.frame.frame)}"><img alt="error map of ${esc(p.clip.key)} ${esc(p.frame.frame)}" src="${img.url}" width="${img.width * 2}" height="${img.height * 2}">` +
        `<figcaption>${esc(p.clip.key)} · ${esc(p.frame.frame)} · J act ${p.frame.j.act.toFixed(3)}, trf ${p.frame.j.trf.toFixed(3)}${p.frame.predFile ? '' : ' (no prediction)'}</figcaption></figure>`,
    );
  }
  return cards.length > 0 ? `${errorLegend()}<div class="thumbs">${cards.join('')}</div>` : '<p>No evaluated frame.</p>';
}

export async function spocHtmlReport(run: EvalRun, version: string): Promise<string> {
  const rows = tableRows(run);
  const main = table(
    'spoc-table',
    ['', 'clips', ...VALUE_COLUMNS.map((c) => c.label)],
    rows.map((r) => [rowLabel(r), String(r.clips), ...VALUE_COLUMNS.map((c) => r[c.key])]),
  );
  const verbBars = bars(
    'verb-bars',
    rows.filter((r) => r.row === 'verb').map((r) => ({ label: r.verb ?? '', value: r.mIoU })),
    'mIoU per verb',
  );
  const progress = table(
    'progress-table',
    ['', 'clips', 'τ (pred)', 'τ (gt)', 'end σ', 'end L2', 'end RMS'],
    progressRows(run).map((r) => [rowLabel(r), String(r.clips), r.tau, r.tau_gt, r.end_sigma, r.end_l2, r.end_rms]),
  );
  const davis = run.boundary
    ? `<h2>DAVIS J and F per state</h2>${table(
        'davis-table',
        ['state', 'clips', 'J&F', 'J mean', 'J recall', 'J decay', 'F mean', 'F recall', 'F decay'],
        davisRows(run).map((r) => [r.state, String(r.clips), r.JF, r.J_mean, r.J_recall, r.J_decay, r.F_mean, r.F_recall, r.F_decay]),
      )}`
    : '';
  const clipRows = run.clips.map((c) => {
    const s = scoreClips([c.counted], run.convention);
    return [c.key, c.verb, s.act, s.trf, s.miou, s.object, c.progress.tau, c.progressGt.tau];
  });
  const clipTable = table('clip-table', ['clip', 'verb', 'IoU act', 'IoU trf', 'mIoU', 'IoU obj', 'τ (pred)', 'τ (gt)'], clipRows);
  const clipCurves = run.clips
    .map((c) =>
      curves(
        [
          { name: 'gt', values: c.progressGt.curve, cls: 'gt' },
          { name: 'prediction', values: c.progress.curve, cls: 'pred' },
        ],
        `${c.key}: R = A_act / (A_act + A_trf)`,
      ),
    )
    .join('');
  const body = `<h1>spoc-studio eval</h1>
<p class="meta">GT ${esc(run.gt.dirArg)} (${esc(run.gt.description)}) · prediction ${esc(run.pred.dirArg)} · ${run.clips.length} clips, ${run.report.coverage.evaluatedFrames} evaluated frames · convention ${esc(run.convention)} · spoc-studio ${esc(version)}</p>
<h2>SPOC mIoU</h2>${main}
${verbBars}
<h2>Progress</h2>${progress}
${davis}
<h2>Per clip</h2>${clipTable}
<h2>Progress curves (gt and prediction)</h2><div class="clips">${clipCurves}</div>
<h2>Worst frames</h2><p class="meta">Each clip's frame with the lowest mean J of the two states, worst first (at most ${WORST_FRAMES}).</p>${await worstFrames(run)}
${run.warnings.length > 0 ? `<h2>Warnings</h2><ul>${run.warnings.map((w) => `<li>${esc(w)}</li>`).join('')}</ul>` : ''}`;
  return page('spoc-studio eval report', body);
}
