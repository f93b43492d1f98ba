/** The current frame's phase and ignore state, its areas, and the guidelines for the clip's verb. */
import type { SpocDb } from '../../store/db';
import { setFrameIgnored, setFrameReviewed } from '../../store/frames';
import type { Clip, Frame } from '../../store/types';
import type { LayerAreas } from '../../store/layers';
import { GENERAL_GUIDELINES, IGNORE_REASONS, VERB_SPECS } from '../../taxonomy/verbs';
import { isKnownVerb } from '../../taxonomy/osc';
import { notify, messageOf } from '../../workspace/notices';
import { IgnoreForm } from './IgnoreForm';
import { PhaseControls } from './PhaseControls';
import { useEditorView } from './editorViewState';
import { COLLAPSED_STRIP, PANEL_WIDTH } from './panelLayout';

interface Props {
  db: SpocDb;
  clip: Clip;
  frame: Frame | undefined;
  area: LayerAreas | undefined;
  /** The user name in force now (asked when a row is written: the user may have renamed themselves). */
  author: () => string;
  readOnly: boolean;
  ignoreOpen: boolean;
  setIgnoreOpen: (open: boolean) => void;
  /** Every frame of the clip (for phases over ranges and the change markers). */
  frames?: readonly Frame[];
  /** Frames selected on the timeline (inclusive bounds), or null. */
  selection?: [number, number] | null;
  onClearSelection?: () => void;
}

export function SidePanel({ db, clip, frame, area, author, readOnly, ignoreOpen, setIgnoreOpen, frames = [], selection = null, onClearSelection = () => undefined }: Props) {
  const k = frame?.index ?? 0;
  const guard = (p: Promise<unknown>) => p.catch((err: unknown) => notify('error', `Could not save frame ${k + 1}: ${messageOf(err)}`));
  const spec = isKnownVerb(clip.osc.verb) ? VERB_SPECS[clip.osc.verb] : null;
  const open = useEditorView((s) => s.framePanel);
  if (!open) {
    return (
      <button className={COLLAPSED_STRIP} onClick={() => useEditorView.getState().set({ framePanel: true })} aria-label="Show frame panel" data-testid="frame-panel-open">
        frame ▸
      </button>
    );
  }
  return (
    <aside className={`flex ${PANEL_WIDTH.frame} shrink-0 flex-col gap-4 overflow-y-auto overflow-x-hidden border-l border-zinc-800 bg-zinc-900 p-3 text-sm`} aria-label="Frame panel" data-testid="frame-panel">
      <section aria-label="Frame">
        <div className="flex items-center">
          <h3 className="flex-1 font-semibold">Frame {k + 1}</h3>
          <button className="text-xs text-zinc-500 hover:text-zinc-300" aria-label="Hide frame panel" onClick={() => useEditorView.getState().set({ framePanel: false })}>
            hide ◂
          </button>
        </div>
        <p className="mt-1 text-xs text-zinc-400" data-testid="frame-areas">
          <span className="text-red-400">{area?.actArea ?? 0}</span> actionable px ·{' '}
          <span className="text-emerald-400">{area?.trfArea ?? 0}</span> transformed px
        </p>
        <PhaseControls db={db} clip={clip} frame={frame} frames={frames} selection={selection} onClearSelection={onClearSelection} readOnly={readOnly} />
        {frame?.ignored ? (
          <div className="mt-2 rounded bg-zinc-800 p-2 text-xs" data-testid="ignored-banner">
            Ignored: {IGNORE_REASONS[frame.ignored.reason]}
            {frame.ignored.note ? ` — ${frame.ignored.note}` : ''}
            <button disabled={readOnly} className="ml-2 underline" onClick={() => void guard(setFrameIgnored(db, clip.id, k, null))}>
              stop ignoring
            </button>
          </div>
        ) : ignoreOpen ? (
          <IgnoreForm
            frameNumber={k + 1}
            onCancel={() => setIgnoreOpen(false)}
            onIgnore={(reason, note) => {
              void guard(setFrameIgnored(db, clip.id, k, { reason, note, by: author() }));
              setIgnoreOpen(false);
            }}
          />
        ) : (
          <button disabled={readOnly || !frame} className="mt-2 w-full rounded bg-zinc-800 px-2 py-1 text-xs hover:bg-zinc-700" onClick={() => setIgnoreOpen(true)}>
            Ignore this frame… (i)
          </button>
        )}
        {frame && !frame.ignored && (
          // A frame may rightly hold neither state (guidelines): saying so answers it, unlike
          // ignoring, which keeps it out of evaluation.
          <button
            type="button"
            aria-pressed={frame.reviewed === true}
            disabled={readOnly}
            className={`mt-2 w-full rounded px-2 py-1 text-left text-xs ${frame.reviewed ? 'bg-sky-900 text-sky-100' : 'bg-zinc-800 hover:bg-zinc-700'}`}
            onClick={() => void guard(setFrameReviewed(db, clip.id, k, !frame.reviewed))}
          >
            {frame.reviewed ? '✓ ' : ''}Nothing to paint here (an empty frame)
          </button>
        )}
      </section>
      <section aria-label="Guidelines">
        <h3 className="font-semibold">
          Guidelines: {clip.osc.verb} {clip.osc.noun}
        </h3>
        <p className="mt-1 text-xs">
          <span className="text-red-400">Actionable</span> ({clip.osc.actionable}): {spec?.actionableRule ?? 'regions that have not reached the end state.'}
        </p>
        <p className="mt-1 text-xs">
          <span className="text-emerald-400">Transformed</span> ({clip.osc.transformed}): {spec?.transformedRule ?? 'regions that have reached it.'}
        </p>
        <ul className="mt-2 list-disc space-y-1 pl-4 text-xs text-zinc-400">
          {[...(spec?.notes ?? []), ...GENERAL_GUIDELINES].map((g) => (
            <li key={g}>{g}</li>
          ))}
        </ul>
      </section>
    </aside>
  );
}
