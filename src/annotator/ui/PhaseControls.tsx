/**
 * The phase of the shown frame, or of every frame selected on the timeline at once, and the
 * "change starts here" / "change ends here" markers that set the phases around the shown frame
 * (phases.ts). Every click is one store transaction (setFramePhases).
 */
import type { SpocDb } from '../../store/db';
import { setFramePhases } from '../../store/frames';
import type { Clip, Frame, FramePhase } from '../../store/types';
import { notify, messageOf } from '../../workspace/notices';
import { changeEndsAt, changeStartsAt, phaseChangesFor, rangePhaseTarget, type PhaseChanges } from '../phases';

const PHASES: FramePhase[] = ['initial', 'transitioning', 'end'];

interface Props {
  db: SpocDb;
  clip: Clip;
  frame: Frame | undefined;
  frames: readonly Frame[];
  /** Frames selected on the timeline (inclusive bounds), or null. */
  selection: [number, number] | null;
  onClearSelection: () => void;
  readOnly: boolean;
}

export function PhaseControls({ db, clip, frame, frames, selection, onClearSelection, readOnly }: Props) {
  const k = frame?.index ?? 0;
  const phases = frames.map((f) => f.phase);
  const range = selection && selection[1] > selection[0] ? selection : null;
  const write = (changes: PhaseChanges, what: string) =>
    void setFramePhases(db, clip.id, changes).catch((err: unknown) => notify('error', `Could not set the phase of ${what}: ${messageOf(err)}`));

  // The same changes as the palette's "Set phase" (annotator/actions.ts).
  const setPhase = (p: FramePhase) => write(phaseChangesFor(frames, k, selection, p), range ? `frames ${range[0] + 1}–${range[1] + 1}` : `frame ${k + 1}`);
  const pressed = (p: FramePhase) => (range ? rangePhaseTarget(phases, range, p) === undefined : frame?.phase === p);

  return (
    <div className="mt-2 flex flex-col gap-1">
      {range && (
        <p className="flex items-center gap-2 text-xs text-sky-300" data-testid="timeline-selection">
          Frames {range[0] + 1}–{range[1] + 1} selected ({range[1] - range[0] + 1})
          <button className="underline" onClick={onClearSelection}>
            clear
          </button>
        </p>
      )}
      <div className="flex gap-1" role="group" aria-label="Phase">
        {PHASES.map((p) => (
          <button
            key={p}
            disabled={readOnly || !frame}
            aria-pressed={pressed(p)}
            title={range ? `Set the ${range[1] - range[0] + 1} selected frames to ${p} (again to clear)` : `This frame is ${p} (again to clear); shift-click or drag on the timeline to set many`}
            className={`flex-1 rounded px-1 py-1 text-xs ${pressed(p) ? 'bg-amber-600 text-white' : 'bg-zinc-800 hover:bg-zinc-700'}`}
            onClick={() => setPhase(p)}
          >
            {p}
          </button>
        ))}
      </div>
      <div className="flex gap-1" role="group" aria-label="Change markers">
        <button
          disabled={readOnly || !frame}
          className="flex-1 rounded bg-zinc-800 px-1 py-1 text-xs hover:bg-zinc-700"
          title="The change starts on this frame: frames before it become initial, this one up to the end marker transitioning"
          onClick={() => write(changeStartsAt(phases, k), 'the frames around the change start')}
        >
          change starts here
        </button>
        <button
          disabled={readOnly || !frame}
          className="flex-1 rounded bg-zinc-800 px-1 py-1 text-xs hover:bg-zinc-700"
          title="The change has ended on this frame: it and the frames after it become end, those since the start transitioning"
          onClick={() => write(changeEndsAt(phases, k), 'the frames around the change end')}
        >
          change ends here
        </button>
      </div>
    </div>
  );
}
