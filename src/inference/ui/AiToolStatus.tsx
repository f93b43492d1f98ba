/**
 * The AI tool's status strip, over the bottom of the canvas while the tool is active: what SAM (or
 * the weight-free fallback) is doing, the candidate on show, and Accept / Add / Clear. It floats
 * over the canvas rather than sitting in the header, so its changing text never moves the canvas
 * under the pointer between two clicks.
 */
import { useCallback, useSyncExternalStore } from 'react';
import type { EditorSession } from '../../annotator/session/editorSession';
import { AcceptButtons } from './AcceptButtons';
import { useAiTool } from './aiToolState';
import { samModelOf, useAssist } from './assistStore';
import { FallbackStatusLine } from './fallback/FallbackStatusLine';
import type { SamTool } from './samTool';

export function AiToolStatus({ session }: { session: EditorSession }) {
  const tool = useSyncExternalStore(
    useCallback((fn: () => void) => session.onState(fn), [session]),
    () => session.snapshot.tool,
  );
  const { sam, fallback } = useAiTool();
  if (tool !== 'sam') return null;
  return (
    <div className="pointer-events-none absolute inset-x-2 bottom-6 z-10 flex justify-start">
      <div className="pointer-events-auto flex max-w-full flex-wrap items-center gap-2 rounded bg-zinc-900/90 px-2 py-1 shadow">
        {sam ? <SamStatus sam={sam} session={session} /> : fallback ? <FallbackStatusLine tool={fallback} session={session} /> : <NoModel />}
      </div>
    </div>
  );
}

function SamStatus({ sam, session }: { sam: SamTool; session: EditorSession }) {
  const snap = useSyncExternalStore(
    useCallback((fn: () => void) => sam.subscribe(fn), [sam]),
    () => `${sam.status}|${sam.message}|${sam.selectedIndex}|${sam.candidates.length}`,
  );
  const [status, message, selected, count] = snap.split('|');
  return (
    <>
      <span className="text-xs text-cyan-300" data-testid="sam-status" data-state={status}>
        SAM: {message || status}
        {Number(count) > 1 ? ` · mask ${Number(selected) + 1}/${count} (Tab)` : ''} · Enter accept, Shift+Enter add, Esc clear
      </span>
      {Number(count) > 0 && <AcceptButtons session={session} />}
    </>
  );
}

function NoModel() {
  const loading = useAssist((s) => samModelOf(s.models) === null && s.models.some((m) => m.state === 'loading'));
  return (
    <span className="text-xs text-cyan-300" data-testid="sam-status" data-state="no-model">
      {loading ? 'SAM: loading model…' : 'SAM: no model loaded — open Models'}
    </span>
  );
}
