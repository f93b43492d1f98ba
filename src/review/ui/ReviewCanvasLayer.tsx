/**
 * The review overlays on the editor canvas: comment pins of the current frame (drawn into the
 * canvas view's `reviewPins` group, in image pixels) and, while placing a comment, the room tool
 * that turns the next click on the frame into the comment's point.
 */
import { useEffect, useMemo } from 'react';
import Konva from 'konva';
import { useLiveQuery } from 'dexie-react-hooks';
import type { SpocDb } from '../../store/db';
import type { Clip } from '../../store/types';
import { listComments } from '../../store/comments';
import type { CanvasHandle } from '../../annotator/ui/CanvasHost';
import type { EditorSession } from '../../annotator/session/editorSession';
import type { RoomTool } from '../../annotator/tools/roomTool';
import { useRoomTool } from '../../annotator/ui/useRoomTool';
import { useReviewUi } from './reviewUiState';
import { getLayer } from '../../store/layers';
import { notify, messageOf } from '../../workspace/notices';
import { layerMap, paintOverlay } from './overlayImage';
import { usePublishRunners, usePublishScope } from '../../annotator/ui/roomActions';
import { COMMENT_ACTION_IDS } from './reviewActions';

interface Props {
  db: SpocDb;
  clip: Clip;
  session: EditorSession;
  frameIndex: number;
  canvas: React.RefObject<CanvasHandle | null>;
  /** The view's zoom in percent: pins keep their screen size, so they are redrawn when it changes. */
  zoom?: number;
}

export function ReviewCanvasLayer({ db, clip, session, frameIndex, canvas, zoom }: Props) {
  const comments = useLiveQuery(() => listComments(db, clip.id), [db, clip.id]);
  const placing = useReviewUi((s) => s.placing);
  const selected = useReviewUi((s) => s.selected);
  const flagFocus = useReviewUi((s) => s.flagFocus);

  useEffect(() => {
    const view = canvas.current?.canvasView();
    if (!view) return;
    const group = view.reviewPins;
    group.destroyChildren();
    const s = view.view.scale;
    const roots = (comments ?? []).filter((c) => !c.parentId && c.frameIndex === frameIndex);
    roots.forEach((c, i) => {
      const colour = c.resolved ? '#a1a1aa' : c.id === selected ? '#facc15' : '#38bdf8';
      group.add(new Konva.Circle({ x: c.x + 0.5, y: c.y + 0.5, radius: 7 / s, fill: colour, stroke: '#000', strokeWidth: 1.5 / s }));
      group.add(new Konva.Text({ x: c.x + 0.5 - 3 / s, y: c.y + 0.5 - 5 / s, text: String(i + 1), fontSize: 10 / s, fill: '#000' }));
    });
    if (flagFocus && flagFocus.frameIndex === frameIndex) {
      const b = flagFocus.box;
      group.add(new Konva.Rect({ x: b.x - 2 / s, y: b.y - 2 / s, width: b.w + 4 / s, height: b.h + 4 / s, stroke: '#facc15', strokeWidth: 2 / s, dash: [6 / s, 4 / s] }));
    }
    view.stage.container().dataset.pins = roots.map((c) => `${c.x},${c.y}`).join(';');
    group.getLayer()?.batchDraw();
  }, [canvas, comments, frameIndex, selected, flagFocus, zoom]);

  // Overlay modes: the stored gt and prediction layers of this frame (live: a saved edit redraws).
  const overlay = useReviewUi((s) => s.overlay);
  const predSource = useReviewUi((s) => s.predSource);
  const active = overlay !== 'gt' && predSource !== null;
  const layers = useLiveQuery(async () => {
    if (!active) return null;
    const [gt, pred] = await Promise.all([getLayer(db, clip.id, 'gt', frameIndex), getLayer(db, clip.id, predSource, frameIndex)]);
    return { frameIndex, source: predSource, gt: gt ?? null, pred: pred ?? null };
  }, [db, clip.id, frameIndex, active, predSource]);

  // Whether the gt masks show in each mode is declared, not set here: reviewMasks.ts.

  useEffect(() => {
    const view = canvas.current?.canvasView();
    if (!view) return;
    const node = view.reviewImage;
    if (!layers || !active) {
      node.visible(false);
      node.getLayer()?.batchDraw();
      useReviewUi.getState().set({ errors: null });
      return;
    }
    try {
      const size = { width: clip.width, height: clip.height };
      const gt = layerMap(layers.gt, size);
      const pred = layers.pred ? layerMap(layers.pred, size) : null;
      const c = document.createElement('canvas');
      c.width = clip.width;
      c.height = clip.height;
      const ctx = c.getContext('2d')!;
      const img = ctx.createImageData(clip.width, clip.height);
      const counts = paintOverlay(overlay, gt, pred, img);
      ctx.putImageData(img, 0, 0);
      node.image(c);
      node.visible(true);
      node.getLayer()?.batchDraw();
      view.stage.container().dataset.overlay = overlay;
      useReviewUi.getState().set({ errors: counts ? { frameIndex: layers.frameIndex, source: layers.source, counts } : null });
    } catch (err) {
      notify('error', `Could not draw the ${overlay} overlay: ${messageOf(err)}`);
    }
  }, [canvas, layers, active, overlay, predSource, clip.width, clip.height]);

  // Escape stops placing a comment: an action of the 'placing-comment' mode (reviewActions.ts).
  usePublishScope('placing-comment', placing);
  usePublishRunners({ [COMMENT_ACTION_IDS.cancelPlacing]: { disabled: placing ? null : 'no comment is being placed', run: () => useReviewUi.getState().set({ placing: false }) } });

  // While placing, the canvas is the placing tool's (docs/architecture.md, "Room tools"): the paint
  // tool gets nothing, and a click on the frame is the comment's point. A comment is review data, not
  // masks, so it may be placed on a read-only clip too.
  const { width, height } = clip;
  const placeTool = useMemo<RoomTool | null>(
    () =>
      placing
        ? {
            scope: 'placing-comment',
            edits: false,
            cursor: 'crosshair',
            hint: 'Click where the comment belongs (Esc to cancel)',
            onPointerDown: (p) => {
              if (p.button !== 0) return;
              const x = Math.floor(p.x);
              const y = Math.floor(p.y);
              if (x < 0 || y < 0 || x >= width || y >= height) return; // outside the frame: keep waiting
              useReviewUi.getState().set({ placing: false, pending: { frameIndex: session.snapshot.frameIndex, x, y } });
            },
            onPointerMove: () => undefined,
            onPointerUp: () => undefined,
          }
        : null,
    [placing, session, width, height],
  );
  useRoomTool(session, placeTool);
  return null;
}
