/** View settings of the editor (not pixels): kept per browser so they survive reloads. */
import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import type { MaskStyle } from '../canvas/maskPixels';
import { DEFAULT_STATE_COLOURS, validColour, type StateColours } from '../canvas/stateColours';
import { validLight } from '../canvas/frameLight';

export interface EditorViewState {
  opacity: number;
  style: MaskStyle;
  onion: boolean;
  /** Colour of each state on the canvas (#rrggbb): whatever stands out on this clip's frames. */
  colours: StateColours;
  /** The last brush diameter chosen, restored when a clip opens (the session starts at 16). */
  brushSize: number | null;
  /** Frame picture brightness and contrast (1 = as decoded), for dark frames; the masks are not changed (frameLight.ts). */
  brightness: number;
  contrast: number;
  /** The frame panel (phase, ignore, guidelines) beside the canvas is open; collapsed, the canvas takes its width. */
  framePanel: boolean;
  set: (patch: Partial<Omit<EditorViewState, 'set'>>) => void;
}

export const useEditorView = create<EditorViewState>()(
  persist(
    (set) => ({
      opacity: 0.5,
      style: 'fill',
      onion: false,
      colours: DEFAULT_STATE_COLOURS,
      brushSize: null,
      brightness: 1,
      contrast: 1,
      framePanel: true,
      set: (patch) => set(patch),
    }),
    {
      name: 'spoc-editor-view',
      partialize: ({ opacity, style, onion, colours, brushSize, brightness, contrast, framePanel }) => ({ opacity, style, onion, colours, brushSize, brightness, contrast, framePanel }),
      // A hand-edited or older entry must not break the canvas: keep only values that make sense.
      merge: (stored, current) => {
        const s = (stored ?? {}) as Partial<EditorViewState>;
        const c = (s.colours ?? {}) as Partial<Record<1 | 2, unknown>>;
        return {
          ...current,
          ...(typeof s.opacity === 'number' && s.opacity >= 0 && s.opacity <= 1 ? { opacity: s.opacity } : {}),
          ...(s.style === 'fill' || s.style === 'outline' ? { style: s.style } : {}),
          ...(typeof s.onion === 'boolean' ? { onion: s.onion } : {}),
          ...(typeof s.framePanel === 'boolean' ? { framePanel: s.framePanel } : {}),
          colours: { 1: validColour(c[1]) ?? DEFAULT_STATE_COLOURS[1], 2: validColour(c[2]) ?? DEFAULT_STATE_COLOURS[2] },
          brushSize: typeof s.brushSize === 'number' && Number.isFinite(s.brushSize) && s.brushSize >= 1 ? Math.round(s.brushSize) : null,
          brightness: validLight(s.brightness),
          contrast: validLight(s.contrast),
        };
      },
    },
  ),
);
