/**
 * The header's sync corner, with the supervisor that runs the engines: synced · N changes waiting
 * · offline since … · the error. It never blocks anything: painting writes to this browser first,
 * and the engines push when they can (docs/sync.md "The browser client").
 */
import { useEffect } from 'react';
import { useDb } from '../../workspace/db';
import { signedInUser, useAccount } from '../../workspace/account';
import { combinedStatus, startLinkedProjects, stopAllSync, useProjectSync } from '../../workspace/projectSync';
import { messageOf, notify } from '../../workspace/notices';
import type { SyncStatus } from '../../sync';

/** Starts the engines of linked projects when someone signs in; stops them at sign-out. */
function useSyncSupervisor(): void {
  const db = useDb();
  const server = useAccount((s) => s.server);
  const user = useAccount(signedInUser);
  useEffect(() => {
    if (!user) return;
    startLinkedProjects(db, server).catch((err: unknown) => notify('error', `Could not start syncing: ${messageOf(err)}`));
    return () => stopAllSync(db);
  }, [db, server, user]);
}

const time = (ms: number) => new Date(ms).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });

export function syncLabel(status: SyncStatus): string {
  switch (status.state) {
    case 'synced':
      return 'synced';
    case 'pending':
      return `${status.count} change${status.count === 1 ? '' : 's'} waiting`;
    case 'offline':
      return `offline since ${time(status.since)} — your work is kept here and sent on return`;
    case 'error':
      return status.signedOut ? 'signed out — sign in to sync' : `sync stopped: ${status.message}`;
    case 'stopped':
      return 'not syncing';
  }
}

export function SyncIndicator() {
  useSyncSupervisor();
  const statuses = useProjectSync((s) => s.statuses);
  const status = combinedStatus(Object.values(statuses));
  if (!status) return null;
  const colour = status.state === 'synced' ? 'bg-emerald-500' : status.state === 'pending' ? 'bg-amber-400' : status.state === 'offline' ? 'bg-zinc-400' : 'bg-red-500';
  return (
    <span className="flex items-center gap-2 text-xs text-zinc-400" data-testid="sync-status" data-state={status.state} role="status">
      <span className={`inline-block h-2 w-2 rounded-full ${colour}`} />
      {syncLabel(status)}
    </span>
  );
}
