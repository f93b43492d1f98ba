/**
 * The gt areas of every frame as the editor knows them (frameAreas.ts), for the timeline and the
 * rooms' panels alike: the stored rows and the slot context's store of frames edited here.
 */
import { useMemo, useSyncExternalStore } from 'react';
import type { LayerAreas } from '../../store/layers';
import { withEditedAreas, type EditedArea } from '../frameAreas';
import type { EditedAreasStore } from './editorSlots';

const NONE: ReadonlyMap<number, EditedArea> = new Map();
const noSubscription = () => () => undefined;
const noEdits = () => NONE;

export function useGtAreas(stored: readonly LayerAreas[], edited: EditedAreasStore | null): LayerAreas[] {
  const subscribe = edited ? edited.subscribe : noSubscription;
  const getEdited = useMemo(() => (edited ? () => edited.getSnapshot().edited : noEdits), [edited]);
  const map = useSyncExternalStore(subscribe, getEdited);
  return useMemo(() => withEditedAreas(stored, map), [stored, map]);
}
