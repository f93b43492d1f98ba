/**
 * The projects page's "On the server" list: the team projects the signed-in user belongs to that
 * this browser does not hold yet, each with "Open" (a local copy is pulled — rows now, frame
 * pictures when first shown — and kept in sync; everything then works offline too).
 */
import { useEffect, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { useDb } from '../../workspace/db';
import { signedInUser, useAccount } from '../../workspace/account';
import { openFromServer } from '../../workspace/projectSync';
import { messageOf, notify } from '../../workspace/notices';
import { navigate } from '../../workspace/router';
import { listLinks } from '../../sync';
import type { ServerProject } from '../../workspace/teamServer';

export function ServerProjects() {
  const db = useDb();
  const server = useAccount((s) => s.server);
  const user = useAccount(signedInUser);
  const links = useLiveQuery(() => listLinks(db), [db]);
  const [projects, setProjects] = useState<{ user: string; list: ServerProject[] } | null>(null);
  const [opening, setOpening] = useState<string | null>(null);
  useEffect(() => {
    if (!user) return;
    let live = true;
    server.projects().then(
      (list) => live && setProjects({ user: user.id, list }),
      (err: unknown) => notify('error', `Could not list the server's projects: ${messageOf(err)}`),
    );
    return () => {
      live = false;
    };
  }, [server, user]);
  if (!user || !links || projects?.user !== user.id) return null;
  const here = new Set(links.filter((l) => l.server === location.origin).map((l) => l.serverProjectId));
  const absent = projects.list.filter((p) => !here.has(p.id));
  const open = async (p: ServerProject) => {
    setOpening(p.id);
    try {
      const projectId = await openFromServer(db, server, p.id, p.name);
      navigate({ name: 'project', projectId });
    } catch (err) {
      notify('error', `Could not open "${p.name}": ${messageOf(err)}`);
    } finally {
      setOpening(null);
    }
  };
  return (
    <section className="mt-8" data-testid="server-projects">
      <h2 className="text-lg font-semibold">On the server</h2>
      {absent.length === 0 ? (
        <p className="mt-2 text-sm text-zinc-500">Every team project you belong to is open in this browser.</p>
      ) : (
        <ul className="mt-3 divide-y divide-zinc-800 rounded border border-zinc-800">
          {absent.map((p) => (
            <li key={p.id} className="flex items-center justify-between px-4 py-3" data-testid="server-project-row">
              <span>
                {p.name} <span className="text-xs text-zinc-500">· you are {p.role}</span>
              </span>
              <button type="button" disabled={opening !== null} className="rounded bg-sky-700 px-3 py-1 text-sm hover:bg-sky-600 disabled:opacity-50" onClick={() => void open(p)}>
                {opening === p.id ? 'Opening…' : 'Open'}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
