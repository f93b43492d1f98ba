/**
 * Messages for the user (errors, warnings, confirmations). Errors stay until dismissed: a failed
 * import or a failed save must never flash by unnoticed.
 *
 * A notice belongs where it was raised: the view (the projects list, one project, one clip; moving
 * between frames of a clip stays in the view) and the local user at that moment. Leaving the view,
 * or becoming someone else in the header, clears the notices that no longer apply — a reviewer's
 * "Frame 7 is rejected" is not the annotator's business, and a project's import result does not
 * follow you into another project. Notices about the whole app (storage, the crash journal, an
 * update in another tab) are raised `appWide` and stay.
 */
import { create } from 'zustand';
import { parseRoute, viewKey } from './router';

export type NoticeLevel = 'info' | 'warn' | 'error';

/** Where a notice applies: a view (viewKey) and the user; a null user is not known yet and matches any. */
export interface NoticeScope {
  view: string;
  user: string | null;
}

export interface Notice {
  id: number;
  level: NoticeLevel;
  text: string;
  /** null: about the whole app, shown wherever the user goes. */
  scope: NoticeScope | null;
}

export interface NoticeOptions {
  /** About the whole app (storage, the journal, the app itself), not the view it was raised in. */
  appWide?: boolean;
}

interface NoticeState {
  notices: Notice[];
  /** Where the user is now. */
  scope: NoticeScope;
  push: (level: NoticeLevel, text: string, options?: NoticeOptions) => number;
  dismiss: (id: number) => void;
  /** The view or the user changed: notices raised elsewhere, or for someone else, go. */
  enter: (next: Partial<NoticeScope>) => void;
}

/** Whether a notice raised in `scope` still applies in `here`. */
export function noticeApplies(scope: NoticeScope | null, here: NoticeScope): boolean {
  if (scope === null) return true;
  if (scope.view !== here.view) return false;
  return scope.user === null || here.user === null || scope.user === here.user;
}

/** The view the page shows now, read from the address (so a notice raised right after navigate() lands in the new view). */
function currentView(): string {
  return typeof window === 'undefined' ? viewKey({ name: 'projects' }) : viewKey(parseRoute(window.location.hash));
}

let nextId = 1;

export const useNotices = create<NoticeState>((set, get) => ({
  notices: [],
  scope: { view: currentView(), user: null },
  push: (level, text, options = {}) => {
    const id = nextId++;
    const scope = options.appWide ? null : { view: currentView(), user: get().scope.user };
    set((s) => ({ notices: [...s.notices.filter((n) => n.text !== text), { id, level, text, scope }] }));
    if (level === 'info') setTimeout(() => useNotices.getState().dismiss(id), 5000);
    return id;
  },
  dismiss: (id) => set((s) => ({ notices: s.notices.filter((n) => n.id !== id) })),
  enter: (next) =>
    set((s) => {
      const scope = { ...s.scope, ...next };
      if (scope.view === s.scope.view && scope.user === s.scope.user) return s;
      // Notices raised before the user was known take the user now known instead of going.
      const adopted = s.scope.user === null ? s.notices.map((n) => (n.scope && n.scope.user === null ? { ...n, scope: { ...n.scope, user: scope.user } } : n)) : s.notices;
      return { scope, notices: adopted.filter((n) => noticeApplies(n.scope, scope)) };
    }),
}));

// Every route change (links, navigate(), back and forward) is a hashchange.
if (typeof window !== 'undefined') {
  window.addEventListener('hashchange', () => useNotices.getState().enter({ view: currentView() }));
}

export const notify = (level: NoticeLevel, text: string, options?: NoticeOptions) => useNotices.getState().push(level, text, options);

export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
