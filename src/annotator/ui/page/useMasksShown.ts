/**
 * Whether the gt masks show: derived from the user's toggle (held here, its one writer) and what the
 * rooms' views ask (the useMasksRequest slot). docs/architecture.md, "One owner per UI fact".
 * Two hooks, because the toggle is one of the editor's commands and the request comes from the slot
 * context those commands are part of.
 */
import { useCallback, useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { holdRequest, inForce, masksShown, toggledChoice, type HeldRequest, type MasksChoice, type MasksRequest, type MasksRequestInForce } from '../../masksShown';
import type { EditorSlotContext, EditorSlots } from '../editorSlots';
import { useMasksRequestOf } from './roomHooks';

export interface MasksToggle {
  /** The user's last press of the mask toggle (null: none yet). */
  choice: MasksChoice | null;
  /** The toggle (H): the user's choice, under the request in force when pressed. */
  toggle: () => void;
  /** The request in force and what shows, as of the last commit (for the toggle and the key handler). */
  latestRef: RefObject<{ request: MasksRequestInForce | null; visible: boolean }>;
}

/** The user's mask toggle, the only writer of the choice. */
export function useMasksToggle(): MasksToggle {
  const [choice, setChoice] = useState<MasksChoice | null>(null);
  const latestRef = useRef<{ request: MasksRequestInForce | null; visible: boolean }>({ request: null, visible: true });
  const toggle = useCallback(() => setChoice((c) => toggledChoice(c, latestRef.current.request)), []);
  return { choice, toggle, latestRef };
}

/** Whether the masks show now, from the toggle and the rooms' request. */
export function useMasksShown({ choice, latestRef }: MasksToggle, slots: EditorSlots, slot: EditorSlotContext): boolean {
  const request = useMasksRequestOf(slots, slot);
  const held = useHeldRequest(request);
  const requestInForce = useMemo(() => inForce(held, request), [held, request]);
  const visible = masksShown(choice, requestInForce);
  useEffect(() => {
    latestRef.current = { request: requestInForce, visible };
  });
  return visible;
}

/**
 * The request numbered each time its key changes, so a choice made under one view never carries to
 * the next (nor back to an earlier one). Adjusted while rendering, as React advises for state that
 * follows a prop, so the first render of a new view already reads the new number.
 */
function useHeldRequest(request: MasksRequest | null): HeldRequest {
  const [held, setHeld] = useState<HeldRequest>(() => holdRequest({ key: null, serial: 0 }, request));
  const next = holdRequest(held, request);
  if (next !== held) setHeld(next);
  return next;
}
