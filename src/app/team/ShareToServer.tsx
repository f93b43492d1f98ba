/**
 * "Share to server": uploads a local project to the team server this page came from and keeps it in
 * sync; the sharer becomes its manager. Shown only to a signed-in user, on a project that does not
 * sync yet. What a shared project's team then sees is the same project, row for row.
 */
import { useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { useDb } from '../../workspace/db';
import { signedInUser, useAccount } from '../../workspace/account';
import { shareToServer } from '../../workspace/projectSync';
import { messageOf, notify } from '../../workspace/notices';
import { readLink } from '../../sync';
import type { Project } from '../../store/types';
import { syncLabel } from './SyncIndicator';

export function ShareToServer({ project }: { project: Project }) {
  const db = useDb();
  const server = useAccount((s) => s.server);
  const user = useAccount(signedInUser);
  const link = useLiveQuery(() => readLink(db, project.id), [db, project.id], null);
  const [busy, setBusy] = useState(false);
  if (!user || link === null || link !== undefined) return null;
  const share = async () => {
    setBusy(true);
    try {
      const status = await shareToServer(db, server, project.id, project.name);
      notify(status.state === 'synced' ? 'info' : 'warn', `Shared "${project.name}" to the server: ${syncLabel(status)}. Add people under Team.`);
    } catch (err) {
      notify('error', `Could not share "${project.name}": ${messageOf(err)}`);
    } finally {
      setBusy(false);
    }
  };
  return (
    <button
      type="button"
      disabled={busy}
      className="rounded border border-sky-700 px-2 py-0.5 text-xs text-sky-300 hover:bg-sky-950 disabled:opacity-50"
      title="Upload this project to the team server and keep it in sync; you become its manager"
      onClick={() => void share()}
    >
      {busy ? 'Sharing…' : 'Share to server'}
    </button>
  );
}
