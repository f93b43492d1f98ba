/**
 * The filmstrip: one cell per frame with its state (empty, annotated, ignored, reviewed), a
 * sparkline bar of actionable (red) and transformed (green) area, a band below for the phase, and a
 * red mark on frames the reviewer rejected (the note on hover), an amber one on frames propagated
 * with low confidence (`flagged`, the reason on hover). Reads frame metadata, the
 * denormalised areas and the verdicts only; never pixels.
 *
 * A click goes to a frame. Shift-click, or a drag across cells, selects a range of frames instead,
 * so their phase can be set in one go (SidePanel).
 */
import { memo, useEffect, useMemo, useRef, type MouseEvent as ReactMouseEvent, type PointerEvent as ReactPointerEvent } from 'react';
import type { Frame, FramePhase, FrameVerdict } from '../../store/types';
import type { LayerAreas } from '../../store/layers';
import { rangeBounds, type FrameRange } from '../phases';
import type { ObjectMark } from './objectMarks';

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

/** The hover text of a cell: frame, state, ignore reason, phase, and a rejection with its note. */
export function cellTitle(f: Frame, state: FrameState, rejected: FrameVerdict | undefined): string {
  let t = `frame ${f.index + 1} · ${state}${f.ignored ? ` (${f.ignored.reason})` : ''}${f.phase ? ` · ${f.phase}` : ''}`;
  if (rejected) t += ` · rejected by ${rejected.by}${rejected.note ? `: ${rejected.note}` : ''}`;
  return t;
}

/**
 * The heights (percent of the cell) of a frame's two sparkline bars, stacked, with `scale` pixels
 * standing for a full cell. A frame past the scale fills the cell, its two states in proportion.
 */
export function barHeights(area: Pick<LayerAreas, 'actArea' | 'trfArea'>, scale: number): { act: number; trf: number } {
  const full = Math.max(1, scale, area.actArea + area.trfArea);
  return { act: (100 * area.actArea) / full, trf: (100 * area.trfArea) / full };
}

/** The largest area (both states) of any frame, at least 1: what a full-height bar stands for by default. */
export function largestArea(areas: readonly Pick<LayerAreas, 'actArea' | 'trfArea'>[]): number {
  let largest = 1;
  for (const a of areas) largest = Math.max(largest, a.actArea + a.trfArea);
  return largest;
}

interface Props {
  frames: Frame[];
  areas: LayerAreas[];
  current: number;
  onPick: (k: number) => void;
  /** Frames whose verdict in force is a rejection, by index. */
  rejected?: ReadonlyMap<number, FrameVerdict>;
  selection?: FrameRange | null;
  onSelect?: (range: FrameRange | null) => void;
  /** Frames to check (e.g. propagated with low confidence), with the reason, by index. */
  flagged?: ReadonlyMap<number, string>;
  /**
   * The area a full-height bar stands for (default: the largest of `areas`). The editor passes the
   * largest stored area, so painting past it grows only the painted frame's bar (to full height)
   * instead of rescaling, and laying out again, every bar of the strip on every animation frame.
   */
  scaleArea?: number;
  /** An objects project: per frame, each object's presence band and keyframe tick (objectMarks.ts). */
  objectMarks?: ReadonlyMap<number, readonly ObjectMark[]>;
}

export function Timeline({ frames, areas, current, onPick, rejected, selection = null, onSelect, flagged, scaleArea, objectMarks }: Props) {
  const byFrame = useMemo(() => new Map(areas.map((a) => [a.frameIndex, a])), [areas]);
  const maxArea = useMemo(() => scaleArea ?? largestArea(areas), [scaleArea, areas]);
  const [lo, hi] = selection ? rangeBounds(selection) : [-1, -1];
  // A press on a cell that may become a drag; `moved` once it reached another cell.
  const drag = useRef<{ start: number; head: number; moved: boolean } | null>(null);
  // The click that ends a shift-click or a drag must not also go to the frame.
  const swallowClick = useRef(false);
  useEffect(() => {
    const end = () => (drag.current = null);
    window.addEventListener('pointerup', end);
    return () => window.removeEventListener('pointerup', end);
  }, []);

  // One set of handlers on the strip, not four per cell: a frame switch then re-renders the two
  // cells whose `current` changed, not all of them (bench: switch frames).
  const cellOf = (target: EventTarget): number | null => {
    const cell = (target as Element).closest?.('[data-frame-index]');
    return cell ? Number((cell as HTMLElement).dataset.frameIndex) : null;
  };
  const onPointerDown = (e: ReactPointerEvent) => {
    const k = cellOf(e.target);
    if (k === null || e.button !== 0 || !onSelect) return;
    swallowClick.current = false;
    if (e.shiftKey) {
      swallowClick.current = true;
      onSelect({ anchor: selection?.anchor ?? current, head: k });
      return;
    }
    drag.current = { start: k, head: k, moved: false };
  };
  // pointerover bubbles where pointerenter does not; it fires again for the children of a cell.
  const onPointerOver = (e: ReactPointerEvent) => {
    const d = drag.current;
    const k = cellOf(e.target);
    if (k === null || !d || !onSelect || (e.buttons & 1) === 0) return;
    if (k === d.head && (d.moved || k === d.start)) return;
    d.head = k;
    d.moved = true;
    swallowClick.current = true;
    onSelect({ anchor: d.start, head: k });
  };
  const onClick = (e: ReactMouseEvent) => {
    const k = cellOf(e.target);
    if (k === null) return;
    if (swallowClick.current) {
      swallowClick.current = false;
      return;
    }
    onSelect?.(null);
    onPick(k);
  };

  return (
    <nav
      className="flex h-20 select-none items-end gap-px overflow-x-auto border-t border-zinc-800 bg-zinc-950 px-2 py-1"
      aria-label="Frames"
      onPointerDown={onPointerDown}
      onPointerOver={onPointerOver}
      onClick={onClick}
    >
      {frames.map((f) => (
        <TimelineCell
          key={f.index}
          frame={f}
          area={byFrame.get(f.index)}
          maxArea={maxArea}
          current={f.index === current}
          selected={f.index >= lo && f.index <= hi}
          rejection={rejected?.get(f.index)}
          flag={flagged?.get(f.index)}
          marks={objectMarks?.get(f.index)}
        />
      ))}
    </nav>
  );
}

interface CellProps {
  frame: Frame;
  area: LayerAreas | undefined;
  maxArea: number;
  current: boolean;
  selected: boolean;
  rejection: FrameVerdict | undefined;
  flag: string | undefined;
  marks: readonly ObjectMark[] | undefined;
}

const TimelineCell = memo(function TimelineCell({ frame: f, area: a, maxArea, current, selected, rejection, flag, marks }: CellProps) {
  const state = frameState(f, a);
  const bars = a && barHeights(a, maxArea);
  const keyframes = marks?.filter((m) => m.keyframe).length ?? 0;
  return (
    <button
      data-frame-index={f.index}
      data-testid="timeline-frame"
      data-state={state}
      data-phase={f.phase ?? ''}
      data-selected={selected ? 'true' : undefined}
      data-rejected={rejection ? 'true' : undefined}
      data-low-confidence={flag ? 'true' : undefined}
      data-objects-present={marks ? marks.filter((m) => m.present).length : undefined}
      data-keyframes={keyframes > 0 ? keyframes : undefined}
      aria-current={current ? 'true' : undefined}
      title={cellTitle(f, state, rejection) + (flag ? ` · ${flag}` : '')}
      className={`relative flex h-full min-w-3 flex-1 shrink-0 flex-col justify-end rounded-sm ${selected ? 'bg-sky-900' : STATE_BG[state]} ${
        current ? 'outline outline-2 outline-sky-400' : ''
      }`}
    >
      {rejection && <span className="absolute inset-x-0 top-0 block h-1.5 rounded-t-sm bg-red-600" data-testid="rejected-mark" />}
      {flag && <span className="absolute right-0 top-2 block h-2 w-2 rounded-full bg-amber-400" data-testid="low-confidence-mark" />}
      <span className="flex flex-1 flex-col justify-end">
        {bars && <span className="block bg-emerald-500" style={{ height: `${bars.trf}%` }} />}
        {bars && <span className="block bg-red-500" style={{ height: `${bars.act}%` }} />}
      </span>
      {marks && marks.length > 0 && <ObjectBands marks={marks} />}
      <span className={`mt-px block h-1.5 ${f.phase ? PHASE_COLOUR[f.phase] : 'bg-transparent'}`} />
    </button>
  );
});

/** One thin band per object, in its colour where it has pixels; a keyframe is a white tick on it. */
function ObjectBands({ marks }: { marks: readonly ObjectMark[] }) {
  return (
    <span className="mt-px flex flex-col gap-px" data-testid="object-bands">
      {marks.map((m) => (
        <span key={m.id} className="relative block h-0.5" style={{ background: m.present ? m.colour : 'transparent' }}>
          {m.keyframe && <span className="absolute left-1/2 top-[-2px] block h-1.5 w-1 -translate-x-1/2 rounded-sm bg-white" data-testid="keyframe-tick" />}
        </span>
      ))}
    </span>
  );
}
