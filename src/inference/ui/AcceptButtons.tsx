/** Accept / Add / Clear for the AI tool's pending mask (SAM or fallback): the same keys as Enter, Shift+Enter, Esc. */
import type { EditorSession } from '../../annotator/session/editorSession';

export function AcceptButtons({ session }: { session: EditorSession }) {
  return (
    <span className="flex gap-1 text-xs">
      <button className="rounded bg-zinc-700 px-2 py-0.5 hover:bg-zinc-600" data-testid="sam-accept" onClick={() => session.toolKey('Enter')} title="Accept (Enter)">
        Accept
      </button>
      <button className="rounded bg-zinc-800 px-2 py-0.5 hover:bg-zinc-700" onClick={() => session.toolKey('Enter', true)} title="Add to the region (Shift+Enter)">
        Add
      </button>
      <button className="rounded bg-zinc-800 px-2 py-0.5 hover:bg-zinc-700" onClick={() => session.toolKey('Escape')} title="Clear (Esc)">
        Clear
      </button>
    </span>
  );
}
