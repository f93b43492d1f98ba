/**
 * Messages for the user (errors, warnings, confirmations). Errors stay until dismissed: a failed
 * import or a failed save must never flash by unnoticed.
 */
import { create } from 'zustand';

export type NoticeLevel = 'info' | 'warn' | 'error';

export interface Notice {
  id: number;
  level: NoticeLevel;
  text: string;
}

interface NoticeState {
  notices: Notice[];
  push: (level: NoticeLevel, text: string) => number;
  dismiss: (id: number) => void;
}

let nextId = 1;

export const useNotices = create<NoticeState>((set) => ({
  notices: [],
  push: (level, text) => {
    const id = nextId++;
    set((s) => ({ notices: [...s.notices.filter((n) => n.text !== text), { id, level, text }] }));
    if (level === 'info') setTimeout(() => useNotices.getState().dismiss(id), 5000);
    return id;
  },
  dismiss: (id) => set((s) => ({ notices: s.notices.filter((n) => n.id !== id) })),
}));

export const notify = (level: NoticeLevel, text: string) => useNotices.getState().push(level, text);

export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
