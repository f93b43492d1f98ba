/** `spoc-studio eval --task vos --report FILE`: the reference's two tables, J&F per sequence as bars, J and F per frame of every object. */
import type { VosRun } from '../vos/run';
import { GLOBAL_COLUMNS, globalValues, sequenceRows } from '../vos/report';
import { bars, curves, esc, page, table } from './page';

export function vosHtmlReport(run: VosRun, version: string): string {
  const global = table('vos-global-table', [...GLOBAL_COLUMNS], [globalValues(run.global)]);
  const seqRows = sequenceRows(run);
  const perSequence = table('vos-sequence-table', ['Sequence', 'J-Mean', 'F-Mean'], seqRows.map((r) => [r.sequence, r.jMean, r.fMean]));
  const seqBars = bars(
    'sequence-bars',
    seqRows.map((r) => ({ label: r.sequence, value: (r.jMean + r.fMean) / 2 })),
    'J&F mean per object',
  );
  const objectCurves = run.sequences
    .flatMap((s) =>
      s.objects.map((o, k) =>
        curves(
          [
            { name: 'J', values: Array.from(o.j), cls: 'gt' },
            { name: 'F', values: Array.from(o.f), cls: 'pred' },
          ],
          `${s.name}_${k + 1}: J and F per scored frame`,
        ),
      ),
    )
    .join('');
  const body = `<h1>spoc-studio eval --task vos</h1>
<p class="meta">GT ${esc(run.gt.dirArg)} (sequences from ${esc(run.gt.listedBy)}) · results ${esc(run.predDir)} · ${esc(run.protocol)} · ${run.sequences.length} sequences, ${run.frameCount} scored frames${run.davisCompat ? ' · --davis-compat' : ''} · spoc-studio ${esc(version)}</p>
<h2>Global</h2>${global}
<h2>Per sequence (object)</h2>${perSequence}
${seqBars}
<h2>J and F per frame</h2><div class="clips">${objectCurves}</div>
${run.warnings.length > 0 ? `<h2>Warnings</h2><ul>${run.warnings.map((w) => `<li>${esc(w)}</li>`).join('')}</ul>` : ''}`;
  return page('spoc-studio eval --task vos report', body);
}
