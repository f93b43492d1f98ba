/**
 * The AI tool's status strip when it runs as the weight-free fallback: says so plainly, shows what
 * the last GrabCut / colour fill produced, the colour tolerance, and Accept / Add / Clear.
 */
import { useCallback, useSyncExternalStore } from 'react';
import type { EditorSession } from '../../../annotator/session/editorSession';
import type { FallbackTool } from './fallbackTool';
import { AcceptButtons } from '../AcceptButtons';

export function FallbackStatusLine({ tool, session }: { tool: FallbackTool; session: EditorSession }) {
  const snap = useSyncExternalStore(
    useCallback((fn: () => void) => tool.subscribe(fn), [tool]),
    () => `${tool.status}|${tool.message}|${tool.area}|${tool.tolerance}|${tool.mode}`,
  );
  const [status, message, area, tolerance, mode] = snap.split('|');
  return (
    <>
      <span className="text-xs text-amber-300" data-testid="sam-status" data-state={status} data-mode="fallback" data-area={area}>
        Fallback (no SAM model): GrabCut / colour fill{message ? ` · ${message}` : ''} ·{' '}
        {mode === 'scissors' ? 'drag a box, or click around the object (edge-following scissors)' : 'drag a box or click; Shift+click add, Alt+click remove'} · Enter accept, Shift+Enter add, Esc clear
      </span>
      <button
        className="rounded px-2 py-0.5 text-xs text-zinc-300 hover:bg-zinc-800"
        data-testid="fallback-mode"
        data-mode={mode}
        onClick={() => tool.setMode(mode === 'scissors' ? 'fill' : 'scissors')}
        title="What a click does: colour fill, or scissors anchors (a closed boundary that follows edges)"
      >
        click: {mode === 'scissors' ? 'scissors' : 'colour fill'}
      </button>
      <label className="flex items-center gap-1 text-xs text-zinc-400" title="Colour-fill tolerance (Lab units): how different a pixel may be from the clicked one">
        tol
        <input
          type="range"
          min={4}
          max={60}
          value={tolerance}
          data-testid="fallback-tolerance"
          className="w-16"
          onChange={(e) => tool.setTolerance(Number(e.target.value))}
        />
      </label>
      {Number(area) > 0 && (
        <AcceptButtons session={session} />
      )}
    </>
  );
}
