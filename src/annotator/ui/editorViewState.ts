/** View settings of the editor (not pixels): kept per browser so they survive reloads. */
import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import type { MaskStyle } from '../canvas/maskPixels';

export interface EditorViewState {
  opacity: number;
  style: MaskStyle;
  masksVisible: boolean;
  onion: boolean;
  set: (patch: Partial<Omit<EditorViewState, 'set'>>) => void;
}

export const useEditorView = create<EditorViewState>()(
  persist(
    (set) => ({
      opacity: 0.5,
      style: 'fill',
      masksVisible: true,
      onion: false,
      set: (patch) => set(patch),
    }),
    { name: 'spoc-editor-view', partialize: ({ opacity, style, onion }) => ({ opacity, style, onion }) },
  ),
);
