/**
 * The question a leaking flood fill asks (tools/floodFillTool.ts): the fill is already on show in
 * the canvas; Enter or "Fill anyway" keeps it as one undo step, Escape or "Cancel" puts the pixels
 * back. The keys reach the tool through the editor's key handler (session.toolKey), so this is an
 * alert, not a modal dialog that would swallow them.
 */
import type { EditorSession } from '../session/editorSession';
import { fillQuestion } from '../paint/fillLeak';

export function FillConfirm({ session, busy }: { session: EditorSession; busy: boolean }) {
  const preview = busy ? session.toolPreview : null;
  if (preview?.kind !== 'fill-confirm') return null;
  return (
    <div
      role="alertdialog"
      aria-label="Confirm flood fill"
      data-testid="fill-confirm"
      data-fraction={preview.fraction.toFixed(4)}
      className="absolute left-1/2 top-3 z-30 flex -translate-x-1/2 items-center gap-2 rounded border border-amber-600 bg-zinc-900/95 px-3 py-2 text-sm shadow-lg"
    >
      <span>{fillQuestion(preview)}</span>
      <button className="rounded bg-amber-700 px-2 py-0.5 text-xs hover:bg-amber-600" onClick={() => session.toolKey('Enter')}>
        Fill anyway (Enter)
      </button>
      <button className="rounded bg-zinc-800 px-2 py-0.5 text-xs hover:bg-zinc-700" onClick={() => session.toolKey('Escape')}>
        Cancel (Esc)
      </button>
    </div>
  );
}
