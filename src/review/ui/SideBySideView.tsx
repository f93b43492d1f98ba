/**
 * Side-by-side view over the editor canvas: source A (gt unless chosen otherwise) on the left and
 * source B (a prediction or a second annotation) on the right, of the frame the editor shows. Zoom
 * and pan are linked: one transform (annotator/canvas/viewTransform.ts math) drives both panes —
 * wheel zooms at the cursor, a drag pans, "fit" and "1:1" reset. Masks use the editor's colours and
 * opacity and fill / outline style; "disputed pixels" paints where A and B disagree instead. The editor's keys keep working
 * (arrows step frames; the view follows). Each pane publishes data-view="scale x y", data-source,
 * data-frame and the state pixels it drew (data-act, data-trf) for tests.
 */
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import type { SpocDb } from '../../store/db';
import type { Clip, LayerSource } from '../../store/types';
import type { LabelMap } from '../../masks/labelMap';
import { getLayer } from '../../store/layers';
import type { FrameImageCache } from '../../annotator/session/frameImages';
import { fitTransform, zoomAround, type ViewTransform } from '../../annotator/canvas/viewTransform';
import { maskBoxPixels } from '../../annotator/canvas/maskPixels';
import { useEditorView } from '../../annotator/ui/editorViewState';
import { useCompareUi, useCompared, type CompareChoice } from './compareUiState';
import { layerMap } from './overlayImage';
import { DISPUTE_COLOURS, DISPUTE, disputeMap, paintDisputes, type DisputeCounts } from '../agreement/resolve';

interface Props {
  db: SpocDb;
  clip: Clip;
  frameIndex: number;
  images: FrameImageCache;
  /** The clip's layer sources, live (the editor's slot context). */
  sources: readonly LayerSource[];
}

/** A button that opens or closes the side-by-side view (for the review panel). */
export function SideBySideToggle({ clipId }: { clipId: string }) {
  const on = useCompareUi((s) => s.sideBySide && s.clipId === clipId);
  return (
    <button
      className={`rounded px-2 py-0.5 text-xs ${on ? 'bg-sky-700' : 'bg-zinc-800 hover:bg-zinc-700'}`}
      aria-pressed={on}
      data-testid="side-by-side-toggle"
      onClick={() => useCompareUi.getState().choose(clipId, { sideBySide: !on })}
    >
      Side by side
    </button>
  );
}

function countStates(map: LabelMap | null): { act: number; trf: number } {
  let act = 0;
  let trf = 0;
  if (!map) return { act, trf };
  for (const v of map.data) {
    if (v === 1) act++;
    else if (v === 2) trf++;
  }
  return { act, trf };
}

function rgb(c: readonly number[]): string {
  return `rgb(${c[0]} ${c[1]} ${c[2]})`;
}

export function SideBySideView({ db, clip, frameIndex, images, sources }: Props) {
  // The view belongs to the clip it was opened on: another clip opens on its own canvas (the same
  // clip reopened after a status change keeps it).
  const on = useCompareUi((s) => s.sideBySide && s.clipId === clip.id);
  if (!on) return null;
  return <SideBySide db={db} clip={clip} frameIndex={frameIndex} images={images} sources={sources} />;
}

function SideBySide({ db, clip, frameIndex, images, sources }: Props) {
  const { a, b, options, disputes } = useCompared(clip.id, sources);
  const choose = (patch: Partial<CompareChoice>) => useCompareUi.getState().choose(clip.id, patch);
  const opacity = useEditorView((s) => s.opacity);
  const style = useEditorView((s) => s.style);
  const size = useMemo(() => ({ width: clip.width, height: clip.height }), [clip.width, clip.height]);

  // Masks of both sides, live: a saved edit or a pick redraws.
  const layers = useLiveQuery(async () => {
    const [la, lb] = await Promise.all([getLayer(db, clip.id, a, frameIndex), b ? getLayer(db, clip.id, b, frameIndex) : undefined]);
    return { frameIndex, a, b, la: la ?? null, lb: lb ?? null };
  }, [db, clip.id, frameIndex, a, b]);
  const maps = useMemo(() => {
    if (!layers) return null;
    return { frameIndex: layers.frameIndex, a: layerMap(layers.la, size), b: layers.b && layers.lb ? layerMap(layers.lb, size) : null };
  }, [layers, size]);

  const [bitmap, setBitmap] = useState<{ index: number; image: ImageBitmap | null } | null>(null);
  useEffect(() => {
    let live = true;
    images.get(frameIndex).then(
      (image) => live && setBitmap({ index: frameIndex, image }),
      () => live && setBitmap({ index: frameIndex, image: null }),
    );
    return () => {
      live = false;
    };
  }, [images, frameIndex]);

  // The two overlays as image-sized canvases, and what they hold.
  const overlays = useMemo(() => {
    if (!maps) return null;
    const make = () => {
      const c = document.createElement('canvas');
      c.width = size.width;
      c.height = size.height;
      return c;
    };
    const left = make();
    const right = make();
    let counts: DisputeCounts | null = null;
    if (disputes && maps.b) {
      const dm = disputeMap(maps.a, maps.b);
      counts = dm.counts;
      const ctx = left.getContext('2d')!;
      const img = ctx.createImageData(size.width, size.height);
      paintDisputes(dm, img);
      ctx.putImageData(img, 0, 0);
      right.getContext('2d')!.putImageData(img, 0, 0);
    } else {
      for (const [canvas, map] of [[left, maps.a], [right, maps.b]] as const) {
        if (!map) continue;
        const ctx = canvas.getContext('2d')!;
        const img = ctx.createImageData(size.width, size.height);
        maskBoxPixels(map, { x: 0, y: 0, w: size.width, h: size.height }, style, img.data);
        ctx.putImageData(img, 0, 0);
      }
    }
    // Masks are drawn at the editor's opacity, disputes opaque (their colours carry their own alpha).
    return { left, right, counts, alpha: counts ? 1 : opacity, stateA: countStates(maps.a), stateB: countStates(maps.b) };
  }, [maps, disputes, opacity, style, size]);

  // One transform for both panes; fitted once the panes have a size.
  const [view, setView] = useState<ViewTransform | null>(null);
  const paneSize = useRef({ w: 0, h: 0 });
  const leftPane = useRef<HTMLCanvasElement>(null);
  const rightPane = useRef<HTMLCanvasElement>(null);
  const fit = useCallback(() => {
    const { w, h } = paneSize.current;
    if (w > 0 && h > 0) setView(fitTransform(size.width, size.height, w, h));
  }, [size]);
  const [, setResized] = useState(0);
  useLayoutEffect(() => {
    const el = leftPane.current!;
    const ro = new ResizeObserver(() => {
      const r = el.getBoundingClientRect();
      const changed = r.width !== paneSize.current.w || r.height !== paneSize.current.h;
      paneSize.current = { w: r.width, h: r.height };
      // Panels opened or closed beside the canvas (or the window resized): fit both panes again,
      // as the editor's canvas does, rather than leave the frame off-centre or cut.
      if (changed) fit();
      setResized((n) => n + 1);
    });
    ro.observe(el);
    return () => ro.disconnect();
  }, [fit]);

  // Draw both panes whenever anything they show changes.
  useLayoutEffect(() => {
    if (!view) return;
    const dpr = window.devicePixelRatio || 1;
    const image = bitmap && bitmap.index === frameIndex ? bitmap.image : null;
    for (const [pane, overlay] of [
      [leftPane.current, overlays?.left],
      [rightPane.current, overlays?.right],
    ] as const) {
      if (!pane) continue;
      const w = Math.max(1, Math.round(paneSize.current.w * dpr));
      const h = Math.max(1, Math.round(paneSize.current.h * dpr));
      if (pane.width !== w) pane.width = w;
      if (pane.height !== h) pane.height = h;
      const ctx = pane.getContext('2d')!;
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      ctx.fillStyle = '#09090b';
      ctx.fillRect(0, 0, w, h);
      ctx.setTransform(view.scale * dpr, 0, 0, view.scale * dpr, view.x * dpr, view.y * dpr);
      ctx.imageSmoothingEnabled = false;
      // An evicted picture is closed by the cache (width 0): draw the placeholder instead.
      if (image && image.width > 0) ctx.drawImage(image, 0, 0);
      else {
        ctx.fillStyle = '#18181b';
        ctx.fillRect(0, 0, size.width, size.height);
      }
      if (overlay) {
        ctx.globalAlpha = overlays?.alpha ?? 1;
        ctx.drawImage(overlay, 0, 0);
        ctx.globalAlpha = 1;
      }
    }
  });

  // Wheel zoom at the cursor (non-passive, so the page does not scroll) and drag to pan.
  useEffect(() => {
    const panes = [leftPane.current!, rightPane.current!];
    const onWheel = (e: WheelEvent) => {
      e.preventDefault();
      const r = (e.currentTarget as HTMLElement).getBoundingClientRect();
      const factor = Math.exp(-e.deltaY * 0.0015);
      setView((t) => (t ? zoomAround(t, factor, e.clientX - r.left, e.clientY - r.top) : t));
    };
    for (const p of panes) p.addEventListener('wheel', onWheel, { passive: false });
    return () => {
      for (const p of panes) p.removeEventListener('wheel', onWheel);
    };
  }, []);
  const drag = useRef<{ id: number; x: number; y: number } | null>(null);
  const paneHandlers = {
    onPointerDown: (e: React.PointerEvent<HTMLCanvasElement>) => {
      e.currentTarget.setPointerCapture(e.pointerId);
      drag.current = { id: e.pointerId, x: e.clientX, y: e.clientY };
    },
    onPointerMove: (e: React.PointerEvent<HTMLCanvasElement>) => {
      const d = drag.current;
      if (!d || d.id !== e.pointerId) return;
      const dx = e.clientX - d.x;
      const dy = e.clientY - d.y;
      drag.current = { id: d.id, x: e.clientX, y: e.clientY };
      setView((t) => (t ? { scale: t.scale, x: t.x + dx, y: t.y + dy } : t));
    },
    onPointerUp: () => (drag.current = null),
    onPointerCancel: () => (drag.current = null),
  };

  const viewAttr = view ? `${view.scale} ${view.x} ${view.y}` : '';
  const ready = maps !== null && maps.frameIndex === frameIndex;
  const pane = (side: 'left' | 'right', source: LayerSource | null, counts: { act: number; trf: number } | undefined) => (
    <div className="relative min-w-0 flex-1 border-zinc-800 first:border-r">
      <canvas
        ref={side === 'left' ? leftPane : rightPane}
        className="absolute inset-0 h-full w-full cursor-grab touch-none active:cursor-grabbing"
        data-testid={`side-by-side-${side}`}
        data-source={source ?? ''}
        data-frame={ready ? frameIndex : ''}
        data-view={viewAttr}
        data-act={ready && counts ? counts.act : ''}
        data-trf={ready && counts ? counts.trf : ''}
        {...paneHandlers}
      />
      <span className="pointer-events-none absolute left-2 top-1 rounded bg-zinc-900/80 px-1 text-xs text-zinc-200">
        {side === 'left' ? 'A' : 'B'} · {source ?? 'no other source'}
      </span>
    </div>
  );

  return (
    <div className="absolute inset-0 z-20 flex flex-col bg-zinc-950" data-testid="side-by-side" aria-label="Side-by-side view">
      <div className="flex flex-wrap items-center gap-2 border-b border-zinc-800 px-2 py-1 text-xs">
        <span className="font-medium">Side by side · frame {frameIndex + 1}</span>
        <label className="flex items-center gap-1">
          A
          <select aria-label="Left source" className="rounded bg-zinc-900 px-1" value={a} onChange={(e) => choose({ a: e.target.value as LayerSource })}>
            {['gt', ...sources.filter((s) => s !== 'gt').sort()].map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
        <label className="flex items-center gap-1">
          B
          <select aria-label="Right source" className="rounded bg-zinc-900 px-1" value={b ?? ''} onChange={(e) => choose({ b: e.target.value as LayerSource })}>
            {options.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
        <label className="flex items-center gap-1" title="Paint the pixels where A and B disagree, on both sides">
          <input type="checkbox" checked={disputes} onChange={(e) => choose({ disputes: e.target.checked })} /> disputed pixels
        </label>
        <span className="flex-1" />
        <button className="rounded bg-zinc-800 px-2 py-0.5 hover:bg-zinc-700" onClick={fit}>
          Fit
        </button>
        <button
          className="rounded bg-zinc-800 px-2 py-0.5 hover:bg-zinc-700"
          onClick={() => {
            const { w, h } = paneSize.current;
            setView({ scale: 1, x: Math.round((w - size.width) / 2), y: Math.round((h - size.height) / 2) });
          }}
        >
          1:1
        </button>
        <button className="rounded bg-zinc-800 px-2 py-0.5 hover:bg-zinc-700" aria-label="Close side-by-side view" onClick={() => choose({ sideBySide: false })}>
          ✕
        </button>
      </div>
      <div className="flex min-h-0 flex-1">
        {pane('left', a, overlays?.stateA)}
        {pane('right', b, overlays?.stateB)}
      </div>
      {disputes && overlays?.counts && (
        <div className="flex gap-3 border-t border-zinc-800 px-2 py-1 text-xs tabular-nums" data-testid="side-by-side-disputes" data-counts={`${overlays.counts.onlyA},${overlays.counts.onlyB},${overlays.counts.swap}`}>
          <span>
            <span style={{ color: rgb(DISPUTE_COLOURS[DISPUTE.onlyA]) }}>■</span> only A {overlays.counts.onlyA}
          </span>
          <span>
            <span style={{ color: rgb(DISPUTE_COLOURS[DISPUTE.onlyB]) }}>■</span> only B {overlays.counts.onlyB}
          </span>
          <span>
            <span style={{ color: rgb(DISPUTE_COLOURS[DISPUTE.swap]) }}>■</span> actionable ↔ transformed {overlays.counts.swap}
          </span>
          <span className="text-zinc-500">px (A = {a}, B = {b})</span>
        </div>
      )}
    </div>
  );
}
