/**
 * Hosts the Konva view and turns DOM pointer, wheel and key-held state into session calls in image
 * coordinates. React renders the pixel layers once per clip; everything after that is imperative.
 * The overlays (`renderOverlays`, OverlayLayer.tsx) are react-konva, drawn into the view's overlay layer.
 */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { CanvasView } from '../canvas/canvasView';
import type { EditorSession } from '../session/editorSession';
import type { FrameImageCache } from '../session/frameImages';
import { useEditorView } from './editorViewState';
import { recordPerf } from './perfProbe';
import { frameLightFilter } from '../canvas/frameLight';
import { toolPreviewOf } from './overlays/toolPreviewStore';

export interface CanvasHandle {
  fit(): void;
  actualSize(): void;
  zoomPercent(): number;
  /** The Konva view (its stage element, zoom and pan). Overlays draw through the canvasOverlays slot, not into it. */
  canvasView(): CanvasView;
}

interface Props {
  session: EditorSession;
  images: FrameImageCache;
  spaceHeldRef: React.RefObject<boolean>;
  handleRef: React.RefObject<CanvasHandle | null>;
  onZoom: (percent: number) => void;
  /** Whether the gt masks show (the editor derives it: masksShown.ts). */
  masksVisible: boolean;
  /** In an objects project, the colour of each object's map value (ObjectsPanel); null shows the states. */
  valueColours?: Readonly<Record<number, string>> | null;
  /** The react-konva overlays, rendered once the view exists (OverlayLayer). */
  renderOverlays: (view: CanvasView) => ReactNode;
}

export function CanvasHost({ session, images, spaceHeldRef, handleRef, onZoom, masksVisible, valueColours = null, renderOverlays }: Props) {
  const container = useRef<HTMLDivElement>(null);
  const [shownView, setShownView] = useState<CanvasView | null>(null);

  useEffect(() => {
    const el = container.current!;
    const { clip } = session;
    const view = new CanvasView(el, clip.width, clip.height);
    view.onPaint = (ms) => recordPerf('mask repaint', ms);
    handleRef.current = {
      fit: () => {
        view.fit();
        onZoom(view.view.scale * 100);
      },
      actualSize: () => {
        view.actualSize();
        onZoom(100);
      },
      zoomPercent: () => view.view.scale * 100,
      canvasView: () => view,
    };
    onZoom(view.view.scale * 100);
    setShownView(view);
    const toolPreview = toolPreviewOf(session);

    let shown = -1;
    const showFrame = async () => {
      const k = session.snapshot.frameIndex;
      const map = session.map;
      shown = k;
      const opts = useEditorView.getState();
      const previous = opts.onion && k > 0 ? await session.loadMap(k - 1) : null;
      const bitmap = await images.get(k).catch(() => null);
      if (shown !== k) return;
      // The session's content box (computed once at the switch, widened by strokes since), when the map is still its own.
      if (session.map === map) view.setFrame(bitmap, map, previous, session.shownContent);
      else view.setFrame(bitmap, map, previous);
      el.dataset.frame = String(k);
      // For tests and benches: whether the frame's picture was drawn (none: not stored, not fetchable).
      el.dataset.image = bitmap ? 'shown' : 'none';
      images.prefetch(k, clip.frameCount);
    };
    void showFrame();
    const offFrame = session.onFrame(() => void showFrame());
    const offInvalidate = session.onInvalidate((box) => view.invalidate(box));
    let panning: { x: number; y: number } | null = null;
    // A room tool (placing a comment) shows its cursor and hint over the canvas while it has the input.
    let restCursor = '';
    const drawPreview = () => toolPreview.set(session.toolPreview, session.snapshot.activeClass);
    const showRoomTool = () => {
      const tool = session.roomTool;
      restCursor = tool?.cursor ?? '';
      if (!panning) el.style.cursor = restCursor;
      el.title = tool?.hint ?? '';
      drawPreview(); // no brush outline under a room tool
    };
    showRoomTool();
    let lastRoomTool = session.snapshot.roomTool;
    const offState = session.onState((st) => {
      if (st.roomTool === lastRoomTool) return;
      lastRoomTool = st.roomTool;
      showRoomTool();
    });

    const applyView = () => {
      const v = useEditorView.getState();
      view.setOptions({ opacity: v.opacity, style: v.style, onion: v.onion, colours: v.colours });
      view.setImageFilter(frameLightFilter(v.brightness, v.contrast));
    };
    applyView();
    const offView = useEditorView.subscribe((next, prev) => {
      applyView();
      if (next.onion !== prev.onion) void showFrame();
    });

    const ro = new ResizeObserver(() => {
      view.resize(el.clientWidth, el.clientHeight);
      onZoom(view.view.scale * 100);
    });
    ro.observe(el);

    // ---- pointer input -------------------------------------------------------------------
    const local = (e: PointerEvent | WheelEvent) => {
      const r = el.getBoundingClientRect();
      return { sx: e.clientX - r.left, sy: e.clientY - r.top };
    };
    const input = (e: PointerEvent) => {
      const { sx, sy } = local(e);
      const p = view.toImage(sx, sy);
      return { x: p.x, y: p.y, button: e.button, shift: e.shiftKey, alt: e.altKey, clickCount: e.detail };
    };

    const onDown = (e: PointerEvent) => {
      el.focus();
      if (e.button === 1 || spaceHeldRef.current) {
        panning = { x: e.clientX, y: e.clientY };
        el.setPointerCapture(e.pointerId);
        el.style.cursor = 'grabbing';
        e.preventDefault();
        return;
      }
      if (e.button !== 0 && e.button !== 2) return;
      el.setPointerCapture(e.pointerId);
      session.setHitRadius(6 / view.view.scale);
      session.pointerDown(input(e));
      drawPreview();
      e.preventDefault();
    };
    const onMove = (e: PointerEvent) => {
      if (panning) {
        view.panBy(e.clientX - panning.x, e.clientY - panning.y);
        panning = { x: e.clientX, y: e.clientY };
        return;
      }
      const t0 = performance.now();
      // Coalesced events keep fast strokes smooth when the browser batches moves per frame.
      const events = typeof e.getCoalescedEvents === 'function' ? e.getCoalescedEvents() : [];
      for (const ce of events.length > 0 ? events : [e]) session.pointerMove(input(ce));
      drawPreview();
      recordPerf('pointermove', performance.now() - t0);
    };
    const onUp = (e: PointerEvent) => {
      if (panning) {
        panning = null;
        el.style.cursor = restCursor;
        return;
      }
      const t0 = performance.now();
      session.pointerUp(input(e));
      drawPreview();
      recordPerf('pointerup (commit)', performance.now() - t0);
    };
    const onCancel = () => {
      panning = null;
      session.cancelGesture();
      drawPreview();
    };
    const onLeave = () => toolPreview.set(null, 0);
    const onWheel = (e: WheelEvent) => {
      e.preventDefault();
      const { sx, sy } = local(e);
      view.zoomAt(Math.exp(-e.deltaY * 0.0015), sx, sy);
      onZoom(view.view.scale * 100);
      drawPreview();
    };
    const noMenu = (e: Event) => e.preventDefault();
    el.addEventListener('pointerdown', onDown);
    el.addEventListener('pointermove', onMove);
    el.addEventListener('pointerup', onUp);
    el.addEventListener('pointercancel', onCancel);
    el.addEventListener('pointerleave', onLeave);
    el.addEventListener('wheel', onWheel, { passive: false });
    el.addEventListener('contextmenu', noMenu);

    return () => {
      offFrame();
      offInvalidate();
      offState();
      offView();
      ro.disconnect();
      el.removeEventListener('pointerdown', onDown);
      el.removeEventListener('pointermove', onMove);
      el.removeEventListener('pointerup', onUp);
      el.removeEventListener('pointercancel', onCancel);
      el.removeEventListener('pointerleave', onLeave);
      el.removeEventListener('wheel', onWheel);
      el.removeEventListener('contextmenu', noMenu);
      handleRef.current = null;
      toolPreview.set(null, 0);
      setShownView(null);
      view.destroy();
    };
  }, [session, images, spaceHeldRef, handleRef, onZoom]);

  // After the view is made (the effect above, run first), and whenever the derived value changes.
  useEffect(() => {
    handleRef.current?.canvasView().setOptions({ masksVisible });
    // For tests: what the view was told, next to data-frame.
    container.current!.dataset.masks = masksVisible ? 'shown' : 'hidden';
  }, [masksVisible, session, images, spaceHeldRef, handleRef, onZoom]);

  useEffect(() => {
    handleRef.current?.canvasView().setOptions({ valueColours });
  }, [valueColours, session, handleRef]);

  return (
    <>
      <div ref={container} tabIndex={-1} data-testid="editor-canvas" className="h-full w-full touch-none overflow-hidden bg-black outline-none" />
      {shownView && renderOverlays(shownView)}
    </>
  );
}
