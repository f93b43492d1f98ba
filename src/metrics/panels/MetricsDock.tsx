/**
 * The editor's metric panels, in a column beside the canvas: the progress curve, the compare
 * panel and the progress curves of every source, each collapsible (the choice is kept per
 * browser). The editor session's one LiveAreaStore (attached by the editor, also read by the
 * timeline) feeds them the current frame's areas, updated from each invalidated box.
 */
import { useMemo, useSyncExternalStore, type ReactNode } from 'react';
import type { SpocDb } from '../../store/db';
import type { Clip, Frame } from '../../store/types';
import type { LayerAreas } from '../../store/layers';
import { useGtAreas } from '../../annotator/ui/useGtAreas';
import { ComparePanel } from './ComparePanel';
import type { LiveAreaStore, PanelSession } from './liveStore';
import type { StateAreas } from '../progress';
import { ProgressPanel } from './ProgressPanel';
import { ProgressComparePanel } from './ProgressComparePanel';
import { mergeAreas } from './progressSeries';
import { usePanelView } from './panelView';
import { COLLAPSED_STRIP, PANEL_WIDTH } from '../../annotator/ui/panelLayout';

const NO_EDITS: ReadonlyMap<number, StateAreas> = new Map();

interface Props {
  db: SpocDb;
  session: PanelSession;
  clip: Clip;
  frames: readonly Frame[];
  /** The session's live area store, which the editor attaches (liveAreaStoreFor). */
  store: LiveAreaStore;
  /** Stored gt areas (store/layers.ts layerAreas); the frames edited here come from `store`. */
  storedAreas: readonly LayerAreas[];
  /** Frame shown in the editor (0-based). */
  current: number;
  /** Go to a frame (the editor's goToFrame command). */
  onPick: (k: number) => void;
}

export function MetricsDock({ db, session, store, clip, frames, storedAreas, current, onPick }: Props) {
  const view = usePanelView();
  const live = useSyncExternalStore(store.subscribe, store.getSnapshot);
  // The areas exactly as the timeline's sparkline has them (the editor's one merge, useGtAreas).
  const rows = useGtAreas(storedAreas, store);
  const areas = useMemo(() => mergeAreas(clip.frameCount, rows, NO_EDITS), [clip.frameCount, rows]);

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
