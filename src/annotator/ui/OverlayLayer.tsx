/**
 * Renders the rooms' canvas overlays (canvasOverlays.ts) as a react-konva tree into the canvas
 * view's overlay layer, in z order. The frame and mask layers stay imperative (CanvasView): pixels
 * never pass through React. The tree lives in react-konva's own renderer, so React context is
 * bridged across as react-konva's Stage does (its-fine). docs/architecture.md, "Canvas overlays".
 */
import { memo, useCallback, useLayoutEffect, useMemo, useRef, useSyncExternalStore, type ReactNode } from 'react';
import { Group, KonvaRenderer, useContextBridge } from 'react-konva';
import { FiberProvider } from 'its-fine';
import type { CanvasView } from '../canvas/canvasView';
import type { CanvasOverlay } from './canvasOverlays';
import type { EditorSlotContext } from './editorSlots';
import { useStageData } from './useStageData';

interface Props {
  view: CanvasView;
  /** Bottom to top (orderOverlays). */
  overlays: readonly CanvasOverlay[];
  context: EditorSlotContext;
}

/** react-reconciler's ConcurrentRoot (react-konva's Stage makes the same kind of root). */
const CONCURRENT_ROOT = 1;
const reportError = (error: unknown) => console.error(error);

export function OverlayLayer(props: Props) {
  return (
    <FiberProvider>
      <OverlayRoot {...props} />
    </FiberProvider>
  );
}

function OverlayRoot({ view, overlays, context }: Props) {
  const Bridge = useContextBridge();
  const root = useRef<ReturnType<typeof KonvaRenderer.createContainer> | null>(null);
  const scale = useSyncExternalStore(
    useCallback((fn: () => void) => view.onTransform(fn), [view]),
    () => view.view.scale,
  );
  // Memoized once per overlay: a render of the editor re-renders only the overlays whose props changed.
  const shown = useMemo(() => overlays.map((o) => ({ ...o, Component: memo(o.Component) })), [overlays]);
  const stage = view.stage.container();

  useLayoutEffect(() => {
    const container = KonvaRenderer.createContainer(view.overlayLayer, CONCURRENT_ROOT, null, false, null, 'overlays', reportError, reportError, reportError, () => undefined, null);
    root.current = container;
    return () => {
      // Synchronously, before CanvasHost destroys the stage.
      KonvaRenderer.flushSyncFromReconciler(() => KonvaRenderer.updateContainer(null, container, null, null));
      root.current = null;
    };
  }, [view]);

  useLayoutEffect(() => {
    const tree: ReactNode = (
      <Bridge>
        {shown.map(({ id, Component }) => (
          <Group key={id} name={id}>
            <Component {...context} scale={scale} stage={stage} />
          </Group>
        ))}
      </Bridge>
    );
    KonvaRenderer.updateContainer(tree, root.current, null, null);
  });

  // For tests: the overlays bottom to top, as drawn.
  useStageData(stage, 'data-overlays', shown.map((o) => o.id).join(' '));
  return null;
}
