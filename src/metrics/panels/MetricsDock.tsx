/**
 * The editor's metric panels, in a column beside the canvas: the progress curve, the compare
 * panel and the progress curves of every source, each collapsible (the choice is kept per
 * browser). One LiveAreaStore per editor session feeds them the current frame's areas, updated
 * from each invalidated box.
 */
import { useEffect, useMemo, useSyncExternalStore, type ReactNode } from 'react';
import type { SpocDb } from '../../store/db';
import type { Clip, Frame } from '../../store/types';
import type { LayerAreas } from '../../store/layers';
import { recordPerf } from '../../annotator/ui/perfProbe';
import { ComparePanel } from './ComparePanel';
import { LiveAreaStore, type PanelSession } from './liveStore';
import { ProgressPanel } from './ProgressPanel';
import { ProgressComparePanel } from './ProgressComparePanel';
import { mergeAreas } from './progressSeries';
import { usePanelView } from './panelView';
import { COLLAPSED_STRIP, PANEL_WIDTH } from '../../annotator/ui/panelLayout';

interface Props {
  db: SpocDb;
  session: PanelSession;
  clip: Clip;
  frames: readonly Frame[];
  /** Stored gt areas (store/layers.ts layerAreas). */
  storedAreas: readonly LayerAreas[];
  /** Frame shown in the editor (0-based). */
  current: number;
  /** Go to a frame (the editor's goToFrame command). */
  onPick: (k: number) => void;
}

export function MetricsDock({ db, session, clip, frames, storedAreas, current, onPick }: Props) {
  const view = usePanelView();
  const store = useMemo(() => new LiveAreaStore(session, undefined, (ms) => recordPerf('progress areas from box', ms)), [session]);
  useEffect(() => store.attach(), [store]);
  const live = useSyncExternalStore(store.subscribe, store.getSnapshot);
  const areas = useMemo(() => mergeAreas(clip.frameCount, storedAreas, live.edited), [clip.frameCount, storedAreas, live.edited]);

  if (!view.dock) {
    return (
      <button
        className={COLLAPSED_STRIP}
        onClick={() => view.set({ dock: true })}
        aria-label="Show metric panels"
        data-testid="metrics-dock-open"
      >
        metrics ▸
      </button>
    );
  }
  return (
    <aside className={`flex ${PANEL_WIDTH.metrics} shrink-0 flex-col gap-2 overflow-y-auto overflow-x-hidden border-l border-zinc-800 bg-zinc-950 p-2`} aria-label="Metrics" data-testid="metrics-dock">
      <div className="flex items-center text-xs text-zinc-500">
        <span className="flex-1">Metrics · {clip.name}</span>
        <button className="rounded px-1 hover:bg-zinc-800" onClick={() => view.set({ dock: false })} aria-label="Hide metric panels">
          ✕
        </button>
      </div>
      <Section title="Progress curve (gt)" open={view.progress} onToggle={() => view.set({ progress: !view.progress })}>
        <ProgressPanel areas={areas} frames={frames} live={live} current={current} onPick={onPick} />
      </Section>
      <Section title="Compare with gt" open={view.compare} onToggle={() => view.set({ compare: !view.compare })}>
        <ComparePanel
          db={db}
          session={session}
          store={store}
          live={live}
          clip={{ id: clip.id, width: clip.width, height: clip.height, frameCount: clip.frameCount, verb: clip.osc.verb, noun: clip.osc.noun, subset: clip.subset }}
          frames={frames}
          gtAreas={areas}
          current={current}
          onPick={onPick}
        />
      </Section>
      <Section title="Progress curves (gt and other sources)" open={view.progressCompare} onToggle={() => view.set({ progressCompare: !view.progressCompare })}>
        <ProgressComparePanel db={db} clipId={clip.id} frameCount={clip.frameCount} frames={frames} gtAreas={areas} current={current} onPick={onPick} />
      </Section>
    </aside>
  );
}

function Section({ title, open, onToggle, children }: { title: string; open: boolean; onToggle: () => void; children: ReactNode }) {
  return (
    <section className="rounded border border-zinc-800 bg-zinc-900/60">
      <button className="flex w-full items-center gap-1 px-2 py-1 text-left text-sm font-medium hover:bg-zinc-800" aria-expanded={open} onClick={onToggle}>
        <span className="w-3 text-zinc-500">{open ? '▾' : '▸'}</span>
        {title}
      </button>
      {open && <div className="px-2 pb-2">{children}</div>}
    </section>
  );
}
