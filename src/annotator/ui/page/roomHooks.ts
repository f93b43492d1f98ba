/**
 * The rooms' hook slots (editorSlots.ts), called on every render of the editor. The slots object
 * never changes while the editor is open, so the order of hooks holds.
 */
import { useMemo } from 'react';
import type { Action } from '../../actions';
import type { MasksRequest } from '../../masksShown';
import type { EditorSlotContext, EditorSlots } from '../editorSlots';

/** The rooms' actions (the `useActions` slot). */
export function useRoomActions(slots: EditorSlots, slot: EditorSlotContext): readonly Action[] {
  const none = useMemo<readonly Action[]>(() => [], []);
  return slots.useActions?.(slot) ?? none;
}

/** The rooms' request for the masks (the `useMasksRequest` slot). */
export function useMasksRequestOf(slots: EditorSlots, slot: EditorSlotContext): MasksRequest | null {
  return slots.useMasksRequest?.(slot) ?? null;
}
