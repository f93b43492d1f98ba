/**
 * The filmstrip: one cell per frame with its state (empty, annotated, ignored, reviewed), a
 * sparkline bar of actionable (red) and transformed (green) area, and a band below for the phase.
 * Reads frame metadata and the denormalised areas only; never pixels.
 */
import type { Frame, FramePhase } from '../../store/types';
import type { LayerAreas } from '../../store/layers';

export type FrameState = 'empty' | 'annotated' | 'ignored' | 'reviewed';

export function frameState(frame: Frame, area: LayerAreas | undefined): FrameState {
  if (frame.ignored) return 'ignored';
  if (area && area.actArea + area.trfArea > 0) return 'annotated';
  if (frame.reviewed) return 'reviewed';
  return 'empty';
}

const PHASE_COLOUR: Record<FramePhase, string> = {
  initial: 'bg-sky-600',
  transitioning: 'bg-amber-500',
  end: 'bg-fuchsia-600',
};

const STATE_BG: Record<FrameState, string> = {
  empty: 'bg-zinc-900',
  annotated: 'bg-zinc-800',
  reviewed: 'bg-zinc-800',
  ignored: 'bg-zinc-700 bg-[repeating-linear-gradient(45deg,transparent,transparent_3px,#52525b_3px,#52525b_5px)]',
};

export function Timeline({ frames, areas, current, onPick }: { frames: Frame[]; areas: LayerAreas[]; current: number; onPick: (k: number) => void }) {
  const byFrame = new Map(areas.map((a) => [a.frameIndex, a]));
  const maxArea = Math.max(1, ...areas.map((a) => a.actArea + a.trfArea));
  return (
    <nav className="flex h-20 items-end gap-px overflow-x-auto border-t border-zinc-800 bg-zinc-950 px-2 py-1" aria-label="Frames">
      {frames.map((f) => {
        const a = byFrame.get(f.index);
        const state = frameState(f, a);
        return (
          <button
            key={f.index}
            onClick={() => onPick(f.index)}
            data-testid="timeline-frame"
            data-state={state}
            data-phase={f.phase ?? ''}
            aria-current={f.index === current ? 'true' : undefined}
            title={`frame ${f.index + 1} · ${state}${f.ignored ? ` (${f.ignored.reason})` : ''}${f.phase ? ` · ${f.phase}` : ''}`}
            className={`flex h-full min-w-3 flex-1 shrink-0 flex-col justify-end rounded-sm ${STATE_BG[state]} ${
              f.index === current ? 'outline outline-2 outline-sky-400' : ''
            }`}
          >
            <span className="flex flex-1 flex-col justify-end">
              {a && <span className="block bg-emerald-500" style={{ height: `${(100 * a.trfArea) / maxArea}%` }} />}
              {a && <span className="block bg-red-500" style={{ height: `${(100 * a.actArea) / maxArea}%` }} />}
            </span>
            <span className={`mt-px block h-1.5 ${f.phase ? PHASE_COLOUR[f.phase] : 'bg-transparent'}`} />
          </button>
        );
      })}
    </nav>
  );
}
