/**
 * What the editor shows about the open clip besides its pixels, each from one live query (or the
 * rooms' stores), handed to the timeline, the side panel and the rooms through the slot context:
 * frames, stored and live areas, layer sources, the reviewer's rejections, the timeline's flags.
 */
import { useEffect, useMemo, useSyncExternalStore } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import type { SpocDb } from '../../../store/db';
import { listFrames } from '../../../store/frames';
import { layerAreas, listLayerSources, type LayerAreas } from '../../../store/layers';
import { listFrameVerdicts } from '../../../store/frameVerdicts';
import type { LayerSource } from '../../../store/types';
import type { EditorSession } from '../../session/editorSession';
import type { EditorSlots, FrameFlagStore } from '../editorSlots';

const NO_FLAG_MAP: ReadonlyMap<number, string> = new Map();
const NO_FLAGS: FrameFlagStore = { subscribe: () => () => undefined, get: () => NO_FLAG_MAP };
const NO_AREAS: LayerAreas[] = [];
const NO_SOURCES: LayerSource[] = [];

export function useClipFacts(db: SpocDb, clipId: string, session: EditorSession, slots: EditorSlots) {
  const frames = useLiveQuery(() => listFrames(db, clipId), [db, clipId]) ?? [];
  const areas = useLiveQuery(() => layerAreas(db, clipId, 'gt'), [db, clipId]) ?? NO_AREAS;
  // The areas of frames edited here, ahead of the store: one store per session, handed to the
  // timeline and to the rooms (useGtAreas), so the sparkline and the panels show the same numbers.
  const editedAreas = useMemo(() => slots.liveAreas?.(session) ?? null, [slots, session]);
  useEffect(() => editedAreas?.attach(), [editedAreas]);
  const sources = useLiveQuery(() => listLayerSources(db, clipId), [db, clipId]) ?? NO_SOURCES;
  // The reviewer's rejections, shown on the timeline whether or not reviewer mode is on.
  const verdicts = useLiveQuery(() => listFrameVerdicts(db, clipId), [db, clipId]);
  const rejected = useMemo(() => new Map([...(verdicts ?? new Map()).entries()].filter(([, v]) => v.verdict === 'reject')), [verdicts]);
  const flagStore = useMemo(() => slots.timelineFlags?.(session) ?? NO_FLAGS, [slots, session]);
  const flagged = useSyncExternalStore(flagStore.subscribe, flagStore.get);
  return { frames, areas, editedAreas, sources, rejected, flagged };
}
