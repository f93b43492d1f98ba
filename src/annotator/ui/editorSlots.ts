/**
 * How other rooms plug into the editor without the annotator importing them: the editor hands each
 * slot what it knows about the open clip, and the app decides what goes where
 * (src/app/editor/EditorPage.tsx). The same inversion as tldraw's `components` overrides.
 */
import type { ComponentType, RefObject } from 'react';
import type { SpocDb } from '../../store/db';
import type { LayerAreas } from '../../store/layers';
import type { Clip, Frame, LayerSource } from '../../store/types';
import type { EditorSession } from '../session/editorSession';
import type { FrameImageCache } from '../session/frameImages';
import type { CanvasHandle } from './CanvasHost';
import type { Action } from '../actions';
import type { MasksRequest } from '../masksShown';
import type { EditedArea } from '../frameAreas';
import type { CanvasOverlay } from './canvasOverlays';

export interface EditorSlotContext {
  db: SpocDb;
  clip: Clip;
  session: EditorSession;
  images: FrameImageCache;
  canvas: RefObject<CanvasHandle | null>;
  /** The frame shown now (0-based). */
  frameIndex: number;
  frames: readonly Frame[];
  /** Stored gt areas per frame; `useGtAreas(areas, editedAreas)` gives them as the timeline shows them. */
  areas: readonly LayerAreas[];
  /** The frames edited in this tab and their areas as painted (the `liveAreas` slot's store), or null. */
  editedAreas: EditedAreasStore | null;
  /** The clip's layer sources (gt, proposal, pred:…, ann:…), live: one query for every panel. */
  sources: readonly LayerSource[];
  /** Canvas zoom in percent. */
  zoom: number;
  goToFrame: (k: number) => void;
}

/** A component rendered with the slot context as its props. */
export type EditorSlot = ComponentType<EditorSlotContext>;

export interface EditorSlots {
  /** The clip header, between the title and the save status. */
  header?: EditorSlot;
  /** Actions in the tool bar, after the edit actions (AI assists). */
  tools?: EditorSlot;
  /** Absolutely positioned over the canvas (panels, status strips); drawings on the frame go in `canvasOverlays`. */
  canvasOverlay?: EditorSlot;
  /**
   * react-konva overlays drawn on the frame in image coordinates (pins, previews, outlines), each
   * with a declared z (canvasOverlays.ts; the table in docs/architecture.md, "Canvas overlays").
   */
  canvasOverlays?: readonly CanvasOverlay[];
  /** Right-hand docks, left of the side panel. */
  beforeSidePanel?: EditorSlot;
  /** Right-hand docks, right of the side panel. */
  afterSidePanel?: EditorSlot;
  /**
   * A hook (called on every render of the editor) returning the actions the rooms add to the
   * editor's one action table: listed in the palette and the shortcut sheet, run by their keys.
   * Return the same objects from render to render (see roomActions.ts).
   */
  useActions?: (ctx: EditorSlotContext) => readonly Action[];
  /**
   * A hook (called on every render of the editor) returning what the rooms' views ask of the gt
   * masks (shown or hidden), or null. The editor alone decides what shows, from this and the
   * user's toggle (masksShown.ts); nobody else writes it.
   */
  useMasksRequest?: (ctx: EditorSlotContext) => MasksRequest | null;
  /**
   * The store of the areas of frames edited in this tab, one per session (the same object for the
   * same session), attached by the editor. The timeline and the rooms read it through the context.
   */
  liveAreas?: (session: EditorSession) => EditedAreasStore & { attach(): () => void };
  /** Frames the timeline marks for checking (e.g. low-confidence propagations), as an external store per session. */
  timelineFlags?: (session: EditorSession) => FrameFlagStore;
}

export interface FrameFlagStore {
  subscribe(fn: () => void): () => void;
  /** The same map object until something changed (React's useSyncExternalStore). */
  get(): ReadonlyMap<number, string>;
}

/** Areas of the frames edited in this tab, ahead of the store (an external store, as React's useSyncExternalStore reads it). */
export interface EditedAreasStore {
  subscribe(fn: () => void): () => void;
  getSnapshot(): { readonly edited: ReadonlyMap<number, EditedArea> };
}
