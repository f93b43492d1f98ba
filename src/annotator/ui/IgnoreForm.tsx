/**
 * "Why is frame k ignored?": a guideline reason and a note, which "other" requires (ignoreNote.ts).
 * The caller stores the answer; the form only collects it.
 */
import { useState } from 'react';
import type { IgnoreReason } from '../../store/types';
import { IGNORE_REASONS } from '../../taxonomy/verbs';
import { ignoreNoteProblem, MAX_IGNORE_NOTE } from './ignoreNote';

interface Props {
  frameNumber: number;
  onIgnore: (reason: IgnoreReason, note: string) => void;
  onCancel: () => void;
}

export function IgnoreForm({ frameNumber, onIgnore, onCancel }: Props) {
  const [reason, setReason] = useState<IgnoreReason>('not_visible');
  const [note, setNote] = useState('');
  const [tried, setTried] = useState(false);
  const problem = ignoreNoteProblem(reason, note);
  return (
    <form
      className="mt-2 flex flex-col gap-1 rounded bg-zinc-800 p-2"
      onSubmit={(e) => {
        e.preventDefault();
        setTried(true);
        if (problem) return;
        onIgnore(reason, note.trim());
      }}
    >
      <label className="text-xs text-zinc-400" htmlFor="ignore-reason">
        Why is frame {frameNumber} ignored?
      </label>
      <select id="ignore-reason" autoFocus className="rounded bg-zinc-950 px-2 py-1" value={reason} onChange={(e) => setReason(e.target.value as IgnoreReason)}>
        {(Object.keys(IGNORE_REASONS) as IgnoreReason[]).map((r) => (
          <option key={r} value={r}>
            {IGNORE_REASONS[r]}
          </option>
        ))}
      </select>
      <label className="text-xs text-zinc-400" htmlFor="ignore-note">
        {reason === 'other' ? 'Why (required)' : 'Note (optional)'}
      </label>
      <textarea
        id="ignore-note"
        rows={2}
        maxLength={MAX_IGNORE_NOTE + 100}
        className="rounded bg-zinc-950 px-2 py-1 text-xs"
        placeholder={reason === 'other' ? 'e.g. a hand covers the object' : ''}
        aria-invalid={tried && problem !== null}
        aria-describedby={tried && problem ? 'ignore-note-problem' : undefined}
        value={note}
        onChange={(e) => setNote(e.target.value)}
      />
      {tried && problem && (
        <p id="ignore-note-problem" className="text-xs text-amber-300" role="status">
          {problem}
        </p>
      )}
      <div className="flex gap-2">
        <button className="rounded bg-zinc-600 px-2 py-1 text-xs hover:bg-zinc-500">Ignore frame</button>
        <button type="button" className="text-xs underline" onClick={onCancel}>
          cancel
        </button>
      </div>
    </form>
  );
}
