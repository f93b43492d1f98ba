/**
 * Ctrl+K: type to find any action (the editor's and those the rooms contribute), Enter to run it.
 * Disabled actions are listed too, greyed with the reason, and never run; "go 12" or ":12" goes to
 * a frame (annotator/palette.ts).
 */
import { useState } from 'react';
import type { Action, ActionContext } from '../actions';
import { firstRunnable, paletteEntries, runEntry } from '../palette';
import { formatShortcut } from '../shortcuts';

export function CommandPalette({ ctx, registry, onClose }: { ctx: ActionContext; registry: readonly Action[]; onClose: () => void }) {
  const [query, setQuery] = useState('');
  const [picked, setPicked] = useState<number | null>(null);
  const entries = paletteEntries(query, registry, ctx);
  const selected = Math.min(picked ?? firstRunnable(entries), Math.max(0, entries.length - 1));
  const run = (i: number) => {
    const entry = entries[i];
    if (!entry || entry.disabled !== null) return; // stays open: the reason is on show
    onClose();
    runEntry(entry, ctx);
  };
  return (
    <div className="fixed inset-0 z-40 flex items-start justify-center bg-black/50 pt-24" onClick={onClose} role="dialog" aria-label="Command palette">
      <div className="w-[32rem] max-w-[calc(100vw-2rem)] rounded-lg border border-zinc-700 bg-zinc-900 shadow-xl" onClick={(e) => e.stopPropagation()}>
        <input
          autoFocus
          aria-label="Command"
          placeholder="Type a command… (go 12 or :12 goes to frame 12)"
          className="w-full rounded-t-lg bg-zinc-950 px-3 py-2 outline-none"
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            setPicked(null);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Escape') onClose();
            else if (e.key === 'ArrowDown') setPicked(Math.min(entries.length - 1, selected + 1));
            else if (e.key === 'ArrowUp') setPicked(Math.max(0, selected - 1));
            else if (e.key === 'Enter') run(selected);
            else return;
            e.preventDefault();
          }}
        />
        <ul className="max-h-[min(20rem,calc(100vh-10rem))] overflow-y-auto py-1 text-sm" role="listbox" aria-label="Commands">
          {entries.map((entry, i) => (
            <li key={entry.id} role="option" aria-selected={i === selected} aria-disabled={entry.disabled !== null} data-testid="palette-entry" data-id={entry.id} data-disabled={entry.disabled ?? ''}>
              <button
                className={`flex w-full items-baseline gap-2 px-3 py-1 text-left ${i === selected ? 'bg-zinc-700' : ''} ${entry.disabled !== null ? 'cursor-not-allowed text-zinc-500' : ''}`}
                onMouseEnter={() => setPicked(i)}
                onClick={() => run(i)}
                aria-disabled={entry.disabled !== null}
              >
                <span>{entry.label}</span>
                {entry.disabled !== null && (
                  <span className="text-xs italic text-zinc-500" data-testid="palette-reason">
                    — {entry.disabled}
                  </span>
                )}
                <span className="flex-1" />
                <span className="text-zinc-500">{entry.shortcut ? formatShortcut(entry.shortcut) : ''}</span>
              </button>
            </li>
          ))}
          {entries.length === 0 && <li className="px-3 py-1 text-zinc-500">No command matches.</li>}
        </ul>
      </div>
    </div>
  );
}
