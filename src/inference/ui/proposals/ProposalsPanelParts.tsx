/**
 * The pieces of the proposals panel (Proposals.tsx): the running job's progress with Cancel, the
 * settings (CLIP prompts, grid, Eq. 1 thresholds of the clip's verb) and the table of proposals
 * with their scores. Presentational: state and actions come from Proposals.tsx.
 */
import { useState } from 'react';
import { LABEL_COLOURS, type ProposalLabel, type ShownProposal } from './proposalModel';

export interface Job {
  kind: 'frame' | 'clip';
  fraction: number;
  text: string;
  abort: AbortController;
}

const fmt = (v: number | null) => (v === null ? '–' : v.toFixed(3));

export function JobProgress({ job }: { job: Job }) {
  return (
    <div data-testid="proposals-progress" data-kind={job.kind}>
      <div className="h-1.5 w-full rounded bg-zinc-700">
        <div className="h-1.5 rounded bg-cyan-500" style={{ width: `${Math.round(job.fraction * 100)}%` }} />
      </div>
      <div className="mt-0.5 flex items-center gap-2">
        <span className="flex-1 text-zinc-400">{job.text}</span>
        <button className="rounded bg-zinc-700 px-2 hover:bg-zinc-600" data-testid="proposals-cancel" onClick={() => job.abort.abort()}>
          Cancel
        </button>
      </div>
    </div>
  );
}

interface SettingsProps {
  busy: boolean;
  prompts: { actionable: string; transformed: string };
  setPrompts(p: { actionable: string; transformed: string }): void;
  gridSize: number;
  setGridSize(n: number): void;
  verb: string;
  params: { tau: number; delta: number };
  setParam(key: 'tau' | 'delta', value: number): void;
}

export function ProposalSettings({ busy, prompts, setPrompts, gridSize, setGridSize, verb, params, setParam }: SettingsProps) {
  return (
    <>
      <fieldset className="grid grid-cols-[auto_1fr] items-center gap-x-2 gap-y-0.5" disabled={busy}>
        <label htmlFor="prompt-act">actionable</label>
        <input id="prompt-act" data-testid="prompt-act" className="rounded bg-zinc-800 px-1" value={prompts.actionable} onChange={(e) => setPrompts({ ...prompts, actionable: e.target.value })} />
        <label htmlFor="prompt-trf">transformed</label>
        <input id="prompt-trf" data-testid="prompt-trf" className="rounded bg-zinc-800 px-1" value={prompts.transformed} onChange={(e) => setPrompts({ ...prompts, transformed: e.target.value })} />
        <label htmlFor="proposal-grid">grid</label>
        <select id="proposal-grid" data-testid="proposal-grid" className="rounded bg-zinc-800 px-1" value={gridSize} onChange={(e) => setGridSize(Number(e.target.value))}>
          {[8, 16, 32].map((n) => (
            <option key={n} value={n}>
              {n} x {n} points{n === 32 ? ' (SPOC)' : ''}
            </option>
          ))}
        </select>
      </fieldset>
      <div className="flex items-center gap-2" title={`Eq. 1 thresholds for "${verb}" (SPOC: 0.5 / 0.01); remembered per verb`}>
        <span>{verb}:</span>
        <label>
          tau <NumberField key={`tau-${verb}`} testId="eq1-tau" step={0.01} value={params.tau} onCommit={(v) => setParam('tau', v)} />
        </label>
        <label>
          delta <NumberField key={`delta-${verb}`} testId="eq1-delta" step={0.005} value={params.delta} onCommit={(v) => setParam('delta', v)} />
        </label>
      </div>
    </>
  );
}

interface TableProps {
  items: readonly ShownProposal[];
  labels: readonly ProposalLabel[];
  /** The frame the proposals are of (keys rows). */
  frame: number;
  selected: number | null;
  hover: number | null;
  onSelect(i: number): void;
  onAccept(i: number): void;
}

/** The first 300 proposals (all are outlined on the canvas); click selects, double click accepts. */
export function ProposalTable({ items, labels, frame, selected, hover, onSelect, onAccept }: TableProps) {
  return (
    <div className="min-h-0 flex-1 overflow-auto">
      <table className="w-full text-right tabular-nums">
        <thead className="text-zinc-500">
          <tr>
            <th className="text-left">#</th>
            <th className="text-left">label</th>
            <th>S_act</th>
            <th>S_trf</th>
            <th>SAM IoU</th>
            <th>px</th>
          </tr>
        </thead>
        <tbody>
          {items.slice(0, 300).map((p, i) => (
            <tr
              key={`${frame}-${p.mask.box.x}-${p.mask.box.y}-${p.mask.area}-${i}`}
              data-testid="proposal-row"
              data-label={labels[i]}
              aria-selected={selected === i}
              className={`cursor-pointer ${selected === i ? 'bg-zinc-700' : hover === i ? 'bg-zinc-800' : ''}`}
              onClick={() => onSelect(i)}
              onDoubleClick={() => onAccept(i)}
            >
              <td className="text-left">{i + 1}</td>
              <td className="text-left" style={{ color: LABEL_COLOURS[labels[i]] }}>
                {labels[i]}
              </td>
              <td>{fmt(p.sAct)}</td>
              <td>{fmt(p.sTrf)}</td>
              <td>{fmt(p.samIou)}</td>
              <td>{p.mask.area}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {items.length > 300 && <p className="text-zinc-500">… {items.length - 300} more (all are outlined)</p>}
    </div>
  );
}

/**
 * A number input that keeps what is being typed ("0.", "-") and commits each parseable value, so
 * the labels follow the keystrokes without the field fighting the typist.
 */
function NumberField({ value, onCommit, step, testId }: { value: number; onCommit: (v: number) => void; step: number; testId: string }) {
  const [text, setText] = useState(String(value));
  const [shown, setShown] = useState(value);
  if (shown !== value && Number(text) !== value) {
    // Changed from elsewhere (the stored thresholds arrived): show the new value.
    setShown(value);
    setText(String(value));
  }
  return (
    <input
      type="number"
      step={step}
      data-testid={testId}
      className="w-16 rounded bg-zinc-800 px-1"
      value={text}
      onChange={(e) => {
        setText(e.target.value);
        const v = e.target.valueAsNumber;
        if (Number.isFinite(v)) {
          setShown(v);
          onCommit(v);
        }
      }}
    />
  );
}
