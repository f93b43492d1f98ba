/**
 * Who is signed in to the team server this page came from, if any (docs/server.md).
 *
 * Signed in, the account's username is the author of every row this browser writes: the server
 * refuses rows whose `author` / `by` is anyone else (docs/sync.md "Who may push what"), so the
 * header's free-text "you are" name gives way to the account, and comes back on sign-out.
 */
import { create } from 'zustand';
import type { SpocDb } from '../store/db';
import { TeamServer, type Probe, type ServerUser } from './teamServer';
import { userNames } from './user';

export interface AccountState {
  server: TeamServer;
  /** null until the first probe answered. */
  probe: Probe | null;
  refresh(db: SpocDb): Promise<Probe>;
  signIn(db: SpocDb, username: string, password: string): Promise<ServerUser>;
  signOut(): Promise<void>;
}

export const useAccount = create<AccountState>((set, get) => ({
  server: new TeamServer(),
  probe: null,
  async refresh(db) {
    const probe = await get().server.probe();
    if (probe.kind === 'signed-in') await userNames(db).set(probe.user.username);
    set({ probe });
    return probe;
  },
  async signIn(db, username, password) {
    const { user, csrfToken } = await get().server.signIn(username, password);
    // The name is in force before the header shows "signed in": nothing is written under the old one.
    await userNames(db).set(user.username);
    set({ probe: { kind: 'signed-in', user, csrfToken } });
    return user;
  },
  async signOut() {
    await get().server.signOut();
    set({ probe: { kind: 'signed-out' } });
  },
}));

/** The signed-in user, or null (no server, signed out, not probed yet). */
export function signedInUser(state: Pick<AccountState, 'probe'>): ServerUser | null {
  return state.probe?.kind === 'signed-in' ? state.probe.user : null;
}

/** The invite token of a `/invite/<token>` page address (the link a manager hands out), or null. */
export function inviteTokenOf(pathname: string): string | null {
  const match = /^\/invite\/([A-Za-z0-9_-]{16,200})\/?$/.exec(pathname);
  return match ? match[1] : null;
}
