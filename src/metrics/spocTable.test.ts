import { describe, expect, it } from 'vitest';
import { type CountedClip, type CountedFrame, evaluateSpoc } from './spoc';
import { formatValue, spocTableRows, tableToCsv, tableToMarkdown } from './spocTable';

const f = (iAct: number, uAct: number, iTrf: number, uTrf: number, phase?: CountedFrame['phase']): CountedFrame => ({
  counts: { iAct, uAct, iTrf, uTrf, iObj: iAct + iTrf, uObj: uAct + uTrf },
  phase,
  missingPred: false,
});

const clips: CountedClip[] = [
  { id: 'a', verb: 'peeling', noun: 'potato', subset: 'seen', frames: [f(1, 2, 0, 0), f(1, 1, 1, 4, 'transitioning')] },
  { id: 'b', verb: 'peeling', noun: 'kiwi', subset: 'novel', frames: [f(0, 4, 2, 2)] },
  { id: 'c', verb: 'grating', noun: 'carrot', subset: 'seen', frames: [f(3, 4, 0, 0), { counts: null, missingPred: false }] },
];

describe('spocTableRows', () => {
  const rows = spocTableRows(evaluateSpoc(clips), clips);

  it('lays out mean over verbs, mean over clips, then verbs in order, picked from evaluateSpoc', () => {
    const report = evaluateSpoc(clips);
    expect(rows.map((r) => [r.row, r.verb, r.clips])).toEqual([
      ['mean_over_verbs', null, 3],
      ['mean_over_clips', null, 3],
      ['verb', 'grating', 1],
      ['verb', 'peeling', 2],
    ]);
    expect(rows[0].mIoU).toBe(report.all.meanOverVerbs.miou);
    expect(rows[1].wo_osc).toBe(report.all.meanOverClips.object);
    expect(rows[3]).toMatchObject({
      mIoU_act: report.all.perVerb.peeling.act,
      mIoU_trf: report.all.perVerb.peeling.trf,
      seen: report.seen.perVerb.peeling.miou,
      novel: report.novel.perVerb.peeling.miou,
      transition: report.transition.perVerb.peeling.miou,
    });
    // grating has no novel clip and no transitioning frame: undefined, not 0.
    expect(rows[2].novel).toBeNaN();
    expect(rows[2].transition).toBeNaN();
  });

  it('exports CSV with blanks for undefined values and quoted fields where needed', () => {
    const csv = tableToCsv([...rows, { ...rows[2], verb: 'odd, "verb"' }]);
    const lines = csv.trimEnd().split('\n');
    expect(lines[0]).toBe('row,verb,clips,mIoU,mIoU_act,mIoU_trf,wo_osc,seen,novel,transition');
    // grating: act 3/4; trf absent everywhere (blank); object 3/4; seen only; no transitioning frame.
    expect(lines[3]).toBe('verb,grating,1,0.750000,0.750000,,0.750000,0.750000,,');
    expect(lines[5].startsWith('verb,"odd, ""verb""",1,')).toBe(true);
    expect(csv.endsWith('\n')).toBe(true);
  });

  it('exports a Markdown table like the panel (3 decimals) with notes', () => {
    const md = tableToMarkdown(rows, { notes: ['source pred:x | clip-pooled'] });
    const lines = md.trimEnd().split('\n');
    expect(lines[0]).toBe('|  | clips | mIoU | mIoU_act | mIoU_trf | w/o OSC | seen | novel | transition |');
    expect(lines[1]).toBe('|:---|---:|---:|---:|---:|---:|---:|---:|---:|');
    expect(lines[2]).toBe(`| Mean (verbs) | 3 | ${formatValue(rows[0].mIoU, 3)} | ${formatValue(rows[0].mIoU_act, 3)} | ${formatValue(rows[0].mIoU_trf, 3)} | ${formatValue(rows[0].wo_osc, 3)} | ${formatValue(rows[0].seen, 3)} | ${formatValue(rows[0].novel, 3)} | ${formatValue(rows[0].transition, 3)} |`);
    expect(lines[4]).toBe('| grating | 1 | 0.750 | 0.750 |  | 0.750 | 0.750 |  |  |');
    expect(lines.at(-1)).toBe('source pred:x \\| clip-pooled');
  });
});

describe('formatValue', () => {
  it('blanks NaN and never prints -0', () => {
    expect(formatValue(NaN, 3)).toBe('');
    expect(formatValue(-1e-9, 3)).toBe('0.000');
    expect(formatValue(2 / 3, 3)).toBe('0.667');
  });
});
