/**
 * The header's account corner when the page is served by a team server: "Sign in", or who is
 * signed in and "Sign out". Without a server (the app served on its own) it shows nothing and the
 * app stays local-only. An invite link (`/invite/<token>`) is accepted once the user is signed in.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { useDb } from '../../workspace/db';
import { inviteTokenOf, signedInUser, useAccount } from '../../workspace/account';
import { messageOf, notify } from '../../workspace/notices';

function useInviteAcceptance(signedIn: boolean): void {
  const server = useAccount((s) => s.server);
  useEffect(() => {
    const token = inviteTokenOf(window.location.pathname);
    if (!token || !signedIn) return;
    void server
      .acceptInvite(token)
      .then(
        ({ role }) => notify('info', `You joined a team project as ${role}. It is listed under "On the server".`),
        (err: unknown) => notify('error', `The invite link did not work: ${messageOf(err)}`),
      )
      .finally(() => window.history.replaceState(null, '', '/#/'));
  }, [server, signedIn]);
}

function SignInForm({ onDone }: { onDone: () => void }) {
  const db = useDb();
  const signIn = useAccount((s) => s.signIn);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    setBusy(true);
    setError('');
    signIn(db, String(data.get('username') ?? ''), String(data.get('password') ?? ''))
      .then(onDone, (err: unknown) => setError(messageOf(err)))
      .finally(() => setBusy(false));
  };
  return (
    <form aria-label="Sign in" onSubmit={submit} className="absolute right-0 top-9 z-50 flex w-64 flex-col gap-2 rounded border border-zinc-700 bg-zinc-900 p-3 text-xs shadow-lg">
      <label className="flex flex-col gap-1">
        Username
        <input name="username" autoComplete="username" required autoFocus className="rounded bg-zinc-800 px-2 py-1 text-zinc-100" />
      </label>
      <label className="flex flex-col gap-1">
        Password
        <input name="password" type="password" autoComplete="current-password" required className="rounded bg-zinc-800 px-2 py-1 text-zinc-100" />
      </label>
      {error && (
        <p role="alert" className="text-red-400">
          {error}
        </p>
      )}
      <button type="submit" disabled={busy} className="rounded bg-sky-700 px-2 py-1 text-white disabled:opacity-50">
        {busy ? 'Signing in…' : 'Sign in'}
      </button>
    </form>
  );
}

export function AccountMenu() {
  const db = useDb();
  const { probe, refresh, signOut } = useAccount();
  const [open, setOpen] = useState(false);
  const user = signedInUser({ probe });
  useEffect(() => {
    void refresh(db).catch(() => undefined);
  }, [db, refresh]);
  useInviteAcceptance(user !== null);
  if (!probe || probe.kind === 'none') return null;
  if (user) {
    return (
      <span className="flex items-center gap-2 text-xs text-zinc-400">
        signed in as <strong className="text-zinc-100">{user.username}</strong>
        <button
          type="button"
          className="rounded px-2 py-1 hover:bg-zinc-800"
          onClick={() => void signOut().catch((err: unknown) => notify('error', `Could not sign out: ${messageOf(err)}`))}
        >
          Sign out
        </button>
      </span>
    );
  }
  return (
    <span className="relative">
      <button type="button" className="rounded bg-sky-800 px-2 py-1 text-xs text-white hover:bg-sky-700" onClick={() => setOpen((o) => !o)}>
        Sign in
      </button>
      {open && <SignInForm onDone={() => setOpen(false)} />}
    </span>
  );
}
