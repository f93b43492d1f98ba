/**
 * The suggestion on show ("Suggest states"), as a label map: written by the button (SuggestStates.tsx,
 * in the tool bar), drawn by LabelPreviewOverlay over the canvas, which live in different editor slots.
 */
import { create } from 'zustand';
import type { LabelMap } from '../../../masks/labelMap';

export const useSuggestionPreview = create<{ labels: LabelMap | null }>()(() => ({ labels: null }));
