/**
 * Whether the editor shows the clip's source video (watch mode, app/editor/WatchPanel.tsx) and the
 * play / pause requests its actions send. Not kept across reloads: a clip opens on its frames.
 */
import { create } from 'zustand';

export interface WatchMode {
  open: boolean;
  /** Bumped by each play / pause request; the panel toggles playback when it changes. */
  playRequests: number;
  toggle(): void;
  close(): void;
  playPause(): void;
}

export const useWatchMode = create<WatchMode>()((set) => ({
  open: false,
  playRequests: 0,
  toggle: () => set((s) => ({ open: !s.open })),
  close: () => set({ open: false }),
  playPause: () => set((s) => ({ open: true, playRequests: s.playRequests + 1 })),
}));
