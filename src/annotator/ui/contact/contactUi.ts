/**
 * The "Set contact" input mode (docs/objects.md "Relations in the editor"): on while a hand's
 * contact is being picked on the canvas; `subjectId` is the hand once clicked (or chosen from its
 * row in the object list). Escape, or a contact set, ends it.
 */
import { create } from 'zustand';

interface ContactUi {
  picking: boolean;
  /** The hand whose contact is being set, once chosen. */
  subjectId: string | null;
  start(subjectId?: string): void;
  chooseHand(subjectId: string): void;
  stop(): void;
}

export const useContactUi = create<ContactUi>()((set) => ({
  picking: false,
  subjectId: null,
  start: (subjectId) => set({ picking: true, subjectId: subjectId ?? null }),
  chooseHand: (subjectId) => set({ subjectId }),
  stop: () => set({ picking: false, subjectId: null }),
}));
