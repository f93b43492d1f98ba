/** Which metric panels are open: kept per browser, like the editor's view settings. */
import { create } from 'zustand';
import { persist } from 'zustand/middleware';

export interface PanelViewState {
  dock: boolean;
  progress: boolean;
  compare: boolean;
  /** Progress curves of gt and the other sources on one chart. */
  progressCompare: boolean;
  /** The project page's evaluation table. */
  project: boolean;
  set: (patch: Partial<Omit<PanelViewState, 'set'>>) => void;
}

export const usePanelView = create<PanelViewState>()(
  persist(
    (set) => ({ dock: true, progress: true, compare: true, progressCompare: true, project: false, set: (patch) => set(patch) }),
    {
      name: 'spoc-metric-panels',
      partialize: ({ dock, progress, compare, progressCompare, project }) => ({ dock, progress, compare, progressCompare, project }),
    },
  ),
);
