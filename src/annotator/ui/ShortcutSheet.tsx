/** "?": every action with its shortcuts, grouped, read from the one action table (the rooms' actions included). */
import type { Action, ActionGroup } from '../actions';
import { formatShortcut } from '../shortcuts';

const GROUPS: [ActionGroup, string][] = [
  ['class', 'Class'],
  ['tool', 'Tools'],
  ['brush', 'Brush'],
  ['edit', 'Edit'],
  ['frame', 'Frames'],
  ['view', 'View'],
  ['review', 'Review'],
  ['assist', 'AI assist'],
];

export function ShortcutSheet({ registry, onClose }: { registry: readonly Action[]; onClose: () => void }) {
  return (
    <div className="fixed inset-0 z-40 flex items-center justify-center bg-black/60" onClick={onClose} role="dialog" aria-label="Keyboard shortcuts">
      <div className="max-h-[80vh] w-[40rem] overflow-y-auto rounded-lg border border-zinc-700 bg-zinc-900 p-4" onClick={(e) => e.stopPropagation()}>
        <h2 className="mb-3 text-lg font-semibold">Keyboard shortcuts</h2>
        <div className="grid grid-cols-2 gap-4">
          {GROUPS.map(([group, title]) => (
            <section key={group}>
              <h3 className="mb-1 text-xs uppercase tracking-wide text-zinc-500">{title}</h3>
              <dl className="text-sm">
                {registry.filter((a) => a.group === group && a.shortcuts.length > 0).map((a) => (
                  <div key={a.id} className="flex justify-between gap-2 py-0.5" data-testid="shortcut" data-id={a.id}>
                    <dt>{a.label}</dt>
                    <dd className="text-zinc-400">{a.shortcuts.map((s) => formatShortcut(s)).join(' / ')}</dd>
                  </div>
                ))}
              </dl>
            </section>
          ))}
          <section>
            <h3 className="mb-1 text-xs uppercase tracking-wide text-zinc-500">Mouse</h3>
            <dl className="text-sm">
              <div className="flex justify-between py-0.5"><dt>Paint / erase</dt><dd className="text-zinc-400">left / right button (or Alt)</dd></div>
              <div className="flex justify-between py-0.5"><dt>Straight brush line</dt><dd className="text-zinc-400">Shift-click after a stroke</dd></div>
              <div className="flex justify-between py-0.5"><dt>Pan</dt><dd className="text-zinc-400">space-drag, middle button</dd></div>
              <div className="flex justify-between py-0.5"><dt>Zoom</dt><dd className="text-zinc-400">wheel</dd></div>
              <div className="flex justify-between py-0.5"><dt>Close polygon</dt><dd className="text-zinc-400">first point, Enter, double-click</dd></div>
              <div className="flex justify-between py-0.5"><dt>Cancel gesture</dt><dd className="text-zinc-400">Escape</dd></div>
              <div className="flex justify-between py-0.5"><dt>Keep a fill that asks</dt><dd className="text-zinc-400">Enter (Escape cancels)</dd></div>
              <div className="flex justify-between py-0.5"><dt>Select frames</dt><dd className="text-zinc-400">shift-click or drag on the timeline</dd></div>
            </dl>
          </section>
        </div>
      </div>
    </div>
  );
}
