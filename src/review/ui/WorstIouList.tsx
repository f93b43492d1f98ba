/**
 * The predictions panel's "worst frames" list: frames ranked by IoU of the chosen prediction against
 * gt (mean, actionable or transformed), worst first; a click jumps to the frame, and W / Shift+W
 * jump to the next / previous worst scored frame from anywhere in the editor.
 */
import { useEffect, useMemo, useState } from 'react';
import type { SpocDb } from '../../store/db';
import type { Clip } from '../../store/types';
import { CountCache } from '../../metrics/panels/projectEval';
import { notify, messageOf } from '../../workspace/notices';
import { nextInRanking, rankByWorstIou, type FrameIou, type IouKey } from '../worstIou';
import { loadFrameIous } from '../worstIouLoader';
import { usePublishRunners } from '../../annotator/ui/roomActions';
import { WORST_ACTION_IDS } from './reviewActions';

const KEYS: [IouKey, string][] = [
  ['mean', 'mean'],
  ['act', 'actionable'],
  ['trf', 'transformed'],
];

const pct = (x: number) => (Number.isNaN(x) ? '—' : x.toFixed(3));

interface Props {
  db: SpocDb;
  clip: Clip;
  source: `pred:${string}`;
  frameIndex: number;
  onPick?: (frameIndex: number) => void;
}

export function WorstIouList({ db, clip, source, frameIndex, onPick }: Props) {
  const [key, setKey] = useState<IouKey>('mean');
  const [rows, setRows] = useState<{ source: string; stamp: number; rows: FrameIou[] } | null>(null);
  const [stamp, setStamp] = useState(0);
  const cache = useMemo(() => new CountCache(), []);
  const busy = !rows || rows.source !== source || rows.stamp !== stamp;

  useEffect(() => {
    const ctl = new AbortController();
    loadFrameIous(db, clip, source, { cache, signal: ctl.signal })
      .then((r) => setRows({ source, stamp, rows: r }))
      .catch((err: unknown) => {
        if (ctl.signal.aborted) return;
        notify('error', `Could not rank the frames by IoU: ${messageOf(err)}`);
        setRows({ source, stamp, rows: [] });
      });
    return () => ctl.abort();
  }, [db, clip, source, cache, stamp]);

  const ranked = useMemo(() => (rows && rows.source === source ? rankByWorstIou(rows.rows, key) : []), [rows, source, key]);
  const scored = useMemo(() => ranked.filter((r) => !Number.isNaN(r[key])), [ranked, key]);

  // W / Shift+W: next / previous worst scored frame, actions in the editor's table (reviewActions.ts).
  const stepWorst = (dir: 1 | -1) => {
    if (!onPick) return;
    const next = nextInRanking(scored, frameIndex, dir);
    if (next === null) notify('info', 'No frame has an IoU to rank by.');
    else onPick(next);
  };
  const canPick = onPick ? null : 'no frame to go to';
  usePublishRunners({
    [WORST_ACTION_IDS.next]: { disabled: canPick, run: () => stepWorst(1) },
    [WORST_ACTION_IDS.previous]: { disabled: canPick, run: () => stepWorst(-1) },
  });

  return (
    <div className="mt-2 flex flex-col gap-1" aria-label="Worst frames by IoU" data-testid="worst-iou">
      <div className="flex items-center gap-1">
        <span className="font-semibold">Worst IoU</span>
        <select aria-label="Rank by" className="rounded bg-zinc-950 px-1 py-0.5" value={key} onChange={(e) => setKey(e.target.value as IouKey)}>
          {KEYS.map(([k, label]) => (
            <option key={k} value={k}>
              {label}
            </option>
          ))}
        </select>
        <button className="rounded bg-zinc-800 px-1 py-0.5 hover:bg-zinc-700" title="Recount after edits" onClick={() => setStamp((s) => s + 1)} disabled={busy}>
          {busy ? 'counting…' : 'recount'}
        </button>
        <span className="flex-1" />
        <span className="text-zinc-500">W next · Shift+W back</span>
      </div>
      <ol className="max-h-40 overflow-y-auto" data-testid="worst-iou-list" data-source={rows?.source ?? ''} data-key={key}>
        {ranked.map((r) => (
          <li key={r.frameIndex}>
            <button
              data-testid="worst-iou-row"
              data-frame={r.frameIndex}
              data-iou={Number.isNaN(r[key]) ? '' : String(r[key])}
              className={`flex w-full gap-2 rounded px-1 text-left tabular-nums ${r.frameIndex === frameIndex ? 'bg-zinc-700' : 'hover:bg-zinc-800'} ${Number.isNaN(r[key]) ? 'text-zinc-500' : ''}`}
              onClick={() => onPick?.(r.frameIndex)}
            >
              <span className="w-16">frame {r.frameIndex + 1}</span>
              <span className="w-12">{pct(r[key])}</span>
              <span className="text-zinc-500">
                act {pct(r.act)} · trf {pct(r.trf)}
              </span>
            </button>
          </li>
        ))}
        {rows && ranked.length === 0 && <li className="text-zinc-500">Every frame is ignored.</li>}
      </ol>
    </div>
  );
}
