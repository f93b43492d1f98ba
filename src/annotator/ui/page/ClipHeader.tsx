import type { Clip } from '../../../store/types';
import type { PersistStatus } from '../../persistQueue';
import type { SessionState } from '../../session/editorSession';
import type { EditorSlot, EditorSlotContext } from '../editorSlots';
import { SaveStatus } from './SaveStatus';

interface Props {
  clip: Clip;
  state: SessionState;
  persist: PersistStatus;
  /** The rooms' part of the header (the `header` slot), with the slot context. */
  Header: EditorSlot | undefined;
  slot: EditorSlotContext;
}

/** The editor's top bar: back to the clips, the clip's name and task, read-only, the rooms' part, save status and frame. */
export function ClipHeader({ clip, state, persist, Header, slot }: Props) {
  return (
    <div className="flex items-center gap-3 whitespace-nowrap border-b border-zinc-800 px-4 py-1.5 text-sm">
      <a href={`#/p/${clip.projectId}`} className="text-zinc-400 hover:underline">
        ← clips
      </a>
      <span className="font-medium" data-testid="clip-title">
        {clip.name}
      </span>
      <span className="min-w-0 truncate text-zinc-400">
        {clip.osc.verb} {clip.osc.noun} · <span className="text-red-400">{clip.osc.actionable}</span> → <span className="text-emerald-400">{clip.osc.transformed}</span>
      </span>
      <span className="flex-1" />
      {state.readOnly && (
        <span className="rounded bg-amber-700 px-2 py-0.5 text-xs" data-testid="read-only" data-reason={clip.status === 'approved' ? 'approved' : 'other-tab'}>
          {clip.status === 'approved' ? 'read-only: approved' : 'read-only: open in another tab'}
        </span>
      )}
      {Header && <Header {...slot} />}
      <SaveStatus status={persist} kept={state.unsavedKept} />
      <span data-testid="frame-indicator" className="tabular-nums">
        frame {state.frameIndex + 1} / {clip.frameCount}
      </span>
    </div>
  );
}
