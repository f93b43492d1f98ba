/**
 * Who has which clips (assignmentBoard.ts): people × lifecycle status, each count a link that
 * filters the dashboard to those clips; and a bulk assignment that gives the clips shown (after
 * the filters) to one person or to nobody. With a team server, `people` are the project's
 * annotators, so idle ones show too.
 */
import { useState } from 'react';
import { useDb } from '../../workspace/db';
import { messageOf, notify } from '../../workspace/notices';
import { assignClips } from '../../store/clips';
import type { Clip } from '../../store/types';
import { STATUS_LABEL, NO_FILTER, type ClipFilter } from './clipFilter';
import { assignmentBoard, assignmentSummary, boardColumns, UNASSIGNED } from './assignmentBoard';

interface Props {
  clips: readonly Clip[];
  /** The clips the filters show: what a bulk assignment acts on. */
  shown: readonly Clip[];
  people?: readonly string[];
  onFilter: (f: ClipFilter) => void;
}

export function AssignmentBoard({ clips, shown, people = [], onFilter }: Props) {
  const db = useDb();
  const [person, setPerson] = useState('');
  const [busy, setBusy] = useState(false);
  const rows = assignmentBoard(clips, people);
  const columns = boardColumns(rows);
  const summary = assignmentSummary(shown, person);
  const names = [...new Set([...people, ...rows.map((r) => r.person)].filter((p) => p !== UNASSIGNED))].sort((a, b) => a.localeCompare(b));

  const assign = async () => {
    setBusy(true);
    try {
      const changed = await assignClips(
        db,
        shown.map((c) => c.id),
        person,
      );
      notify('info', person.trim() ? `Gave ${changed} clip${changed === 1 ? '' : 's'} to ${person.trim()}.` : `Unassigned ${changed} clip${changed === 1 ? '' : 's'}.`);
    } catch (err) {
      notify('error', `Nothing was assigned: ${messageOf(err)}`);
    } finally {
      setBusy(false);
    }
  };

  return (
    <details className="mt-6 rounded border border-zinc-800 p-3" data-testid="assignment-board">
      <summary className="cursor-pointer text-sm font-semibold">Assignments</summary>
      <table className="mt-3 text-sm">
        <thead>
          <tr className="text-left text-xs text-zinc-500">
            <th className="pr-4 font-normal">person</th>
            {columns.map((s) => (
              <th key={s} className="pr-4 font-normal">
                {STATUS_LABEL[s]}
              </th>
            ))}
            <th className="font-normal">all</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.person} data-testid="assignment-row" data-person={row.person}>
              <td className="pr-4">{row.person === UNASSIGNED ? <em className="text-zinc-500">nobody</em> : row.person}</td>
              {columns.map((s) => (
                <td key={s} className="pr-4 tabular-nums">
                  {row.counts[s] > 0 ? (
                    <button type="button" className="text-sky-400 hover:underline" onClick={() => onFilter({ ...NO_FILTER, person: row.person, status: s })}>
                      {row.counts[s]}
                    </button>
                  ) : (
                    <span className="text-zinc-600">·</span>
                  )}
                </td>
              ))}
              <td className="tabular-nums">
                <button type="button" className="text-sky-400 hover:underline" onClick={() => onFilter({ ...NO_FILTER, person: row.person })}>
                  {row.total}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <form
        className="mt-3 flex flex-wrap items-center gap-2 text-sm"
        onSubmit={(e) => {
          e.preventDefault();
          void assign();
        }}
      >
        <label className="flex items-center gap-2">
          Assign the shown clips to
          <input
            aria-label="Assignee"
            list="assignment-people"
            placeholder="nobody"
            className="w-40 rounded bg-zinc-900 px-2 py-1"
            value={person}
            onChange={(e) => setPerson(e.target.value)}
          />
        </label>
        <datalist id="assignment-people">
          {names.map((n) => (
            <option key={n} value={n} />
          ))}
        </datalist>
        <button type="submit" disabled={busy || summary.changes === 0} className="rounded bg-sky-700 px-3 py-1 hover:bg-sky-600 disabled:opacity-50">
          Assign
        </button>
        <span className="text-xs text-zinc-400" data-testid="assignment-summary">
          {summary.text}
        </span>
      </form>
    </details>
  );
}
