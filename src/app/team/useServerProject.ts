/**
 * Whether a local project is also on the team server the page came from (a shared project keeps
 * its id there), and the signed-in user's role in it. null while unknown, signed out or not shared.
 */
import { useEffect, useState } from 'react';
import { signedInUser, useAccount } from '../../workspace/account';
import type { ServerProject } from '../../workspace/teamServer';

export function useServerProject(projectId: string, refreshKey = 0): ServerProject | null {
  const server = useAccount((s) => s.server);
  const user = useAccount(signedInUser);
  // Kept with the question it answers, so a stale answer (another user, project) is never shown.
  const [answer, setAnswer] = useState<{ key: string; project: ServerProject | null } | null>(null);
  const key = `${user?.id ?? ''} ${projectId} ${refreshKey}`;
  useEffect(() => {
    if (!user) return;
    let live = true;
    server.projects().then(
      (list) => live && setAnswer({ key, project: list.find((p) => p.id === projectId) ?? null }),
      () => live && setAnswer({ key, project: null }),
    );
    return () => {
      live = false;
    };
  }, [server, user, projectId, key]);
  return user && answer?.key === key ? answer.project : null;
}
