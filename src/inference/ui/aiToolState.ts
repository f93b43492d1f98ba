/**
 * The AI tool instance the editor runs now — SAM when a SAM model is ready, else the weight-free
 * fallback — shared between the glue that creates it (AiAssist.tsx, in the header) and the status
 * strip over the canvas (AiToolStatus.tsx), which live in different editor slots.
 */
import { create } from 'zustand';
import type { FallbackTool } from './fallback/fallbackTool';
import type { SamTool } from './samTool';

export interface AiToolState {
  sam: SamTool | null;
  fallback: FallbackTool | null;
}

export const useAiTool = create<AiToolState>()(() => ({ sam: null, fallback: null }));
