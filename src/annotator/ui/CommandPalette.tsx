/** Ctrl+K: type to find any action, Enter to run it. */
import { useState } from 'react';
import { ACTIONS, runAction, type ActionContext } from '../actions';
import { formatShortcut } from '../shortcuts';

export function CommandPalette({ ctx, onClose }: { ctx: ActionContext; onClose: () => void }) {
  const [query, setQuery] = useState('');
  const [selected, setSelected] = useState(0);
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const matches = ACTIONS.filter((a) => a.enabled(ctx) && words.every((w) => a.label.toLowerCase().includes(w) || a.id.includes(w)));
  const run = (i: number) => {
    const a = matches[i];
    onClose();
    if (a) runAction(a, ctx);
  };
  return (
    <div className="fixed inset-0 z-40 flex items-start justify-center bg-black/50 pt-24" onClick={onClose} role="dialog" aria-label="Command palette">
      <div className="w-[28rem] rounded-lg border border-zinc-700 bg-zinc-900 shadow-xl" onClick={(e) => e.stopPropagation()}>
        <input
          autoFocus
          aria-label="Command"
          placeholder="Type a command…"
          className="w-full rounded-t-lg bg-zinc-950 px-3 py-2 outline-none"
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            setSelected(0);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Escape') onClose();
            else if (e.key === 'ArrowDown') setSelected((s) => Math.min(matches.length - 1, s + 1));
            else if (e.key === 'ArrowUp') setSelected((s) => Math.max(0, s - 1));
            else if (e.key === 'Enter') run(selected);
            else return;
            e.preventDefault();
          }}
        />
        <ul className="max-h-80 overflow-y-auto py-1 text-sm">
          {matches.map((a, i) => (
            <li key={a.id}>
              <button className={`flex w-full justify-between px-3 py-1 text-left ${i === selected ? 'bg-zinc-700' : ''}`} onMouseEnter={() => setSelected(i)} onClick={() => run(i)}>
                <span>{a.label}</span>
                <span className="text-zinc-500">{a.shortcuts[0] ? formatShortcut(a.shortcuts[0]) : ''}</span>
              </button>
            </li>
          ))}
          {matches.length === 0 && <li className="px-3 py-1 text-zinc-500">No command matches.</li>}
        </ul>
      </div>
    </div>
  );
}
