import type { Frame } from '../../store/types';
import type { LayerAreas } from '../../store/layers';

/**
 * One cell per frame: colour says its state (empty, annotated, ignored), the bar its actionable /
 * transformed area share; click to jump. Reads only frame metadata and denormalised areas.
 */
export function FrameStrip({ clipId, frames, areas, current }: { clipId: string; frames: Frame[]; areas: LayerAreas[]; current: number }) {
  const byFrame = new Map(areas.map((a) => [a.frameIndex, a]));
  const maxArea = Math.max(1, ...areas.map((a) => a.actArea + a.trfArea));
  return (
    <nav className="flex h-16 items-end gap-px overflow-x-auto border-t border-zinc-800 bg-zinc-950 px-2 py-1" aria-label="Frames">
      {frames.map((f) => {
        const a = byFrame.get(f.index);
        const painted = a && a.actArea + a.trfArea > 0;
        const state = f.ignored ? 'ignored' : painted || f.reviewed ? 'annotated' : 'empty';
        return (
          <a
            key={f.index}
            href={`#/c/${clipId}/${f.index}`}
            data-testid="strip-frame"
            data-state={state}
            aria-current={f.index === current ? 'true' : undefined}
            title={`frame ${f.index + 1} · ${state}${f.phase ? ` · ${f.phase}` : ''}`}
            className={`relative flex h-full w-3 shrink-0 flex-col justify-end rounded-sm ${
              state === 'ignored' ? 'bg-zinc-700' : state === 'annotated' ? 'bg-zinc-800' : 'bg-zinc-900'
            } ${f.index === current ? 'outline outline-2 outline-sky-400' : ''}`}
          >
            {a && <span className="block bg-emerald-500" style={{ height: `${(100 * a.trfArea) / maxArea}%` }} />}
            {a && <span className="block bg-red-500" style={{ height: `${(100 * a.actArea) / maxArea}%` }} />}
          </a>
        );
      })}
    </nav>
  );
}
