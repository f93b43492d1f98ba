/**
 * Who works on a shared project, with which role (docs/server.md "Roles"): everyone sees the list;
 * managers add people by username, change roles, remove people and make invite links. The server
 * decides (a project keeps at least one manager, only managers manage): its refusals are shown as
 * it words them.
 */
import { useEffect, useState } from 'react';
import { useAccount } from '../../workspace/account';
import { messageOf, notify } from '../../workspace/notices';
import type { ServerMember, ServerProject, ServerRole } from '../../workspace/teamServer';

const ROLES: ServerRole[] = ['manager', 'annotator', 'reviewer'];
const select = 'rounded bg-zinc-900 px-2 py-1 text-sm';

export function MembersPanel({ project, onMembers }: { project: ServerProject; onMembers?: (m: ServerMember[]) => void }) {
  const server = useAccount((s) => s.server);
  const [members, setMembers] = useState<ServerMember[] | null>(null);
  const [username, setUsername] = useState('');
  const [role, setRole] = useState<ServerRole>('annotator');
  const [invite, setInvite] = useState<string | null>(null);
  const manager = project.role === 'manager';

  const [version, setVersion] = useState(0);
  useEffect(() => {
    let live = true;
    server.members(project.id).then(
      (list) => {
        if (!live) return;
        setMembers(list);
        onMembers?.(list);
      },
      (err: unknown) => notify('error', `Could not list the members: ${messageOf(err)}`),
    );
    return () => {
      live = false;
    };
  }, [server, project.id, onMembers, version]);

  const act = async (what: string, run: () => Promise<unknown>) => {
    try {
      await run();
      setVersion((v) => v + 1);
    } catch (err) {
      notify('error', `Could not ${what}: ${messageOf(err)}`);
    }
  };

  return (
    <details className="mt-6 rounded border border-zinc-800 p-3" data-testid="members-panel">
      <summary className="cursor-pointer text-sm font-semibold">
        Team · you are {project.role} · {members ? `${members.length} member${members.length === 1 ? '' : 's'}` : '…'}
      </summary>
      <ul className="mt-3 flex flex-col gap-1 text-sm">
        {members?.map((m) => (
          <li key={m.userId} className="flex items-center gap-3" data-testid="member-row" data-username={m.username}>
            <span className="w-40">{m.username}</span>
            {manager ? (
              <select aria-label={`Role of ${m.username}`} className={select} value={m.role} onChange={(e) => void act('change the role', () => server.setRole(project.id, m.userId, e.target.value as ServerRole))}>
                {ROLES.map((r) => (
                  <option key={r}>{r}</option>
                ))}
              </select>
            ) : (
              <span className="text-zinc-400">{m.role}</span>
            )}
            {manager && (
              <button type="button" className="text-xs text-zinc-400 hover:text-zinc-100" onClick={() => void act('remove the member', () => server.removeMember(project.id, m.userId))}>
                Remove
              </button>
            )}
          </li>
        ))}
      </ul>
      {manager && (
        <form
          className="mt-3 flex flex-wrap items-center gap-2 text-sm"
          onSubmit={(e) => {
            e.preventDefault();
            void act('add the member', async () => {
              await server.addMember(project.id, username.trim(), role);
              setUsername('');
            });
          }}
        >
          <input aria-label="Username to add" placeholder="username" required className="w-40 rounded bg-zinc-900 px-2 py-1" value={username} onChange={(e) => setUsername(e.target.value)} />
          <select aria-label="Role to give" className={select} value={role} onChange={(e) => setRole(e.target.value as ServerRole)}>
            {ROLES.map((r) => (
              <option key={r}>{r}</option>
            ))}
          </select>
          <button type="submit" className="rounded bg-sky-700 px-3 py-1 hover:bg-sky-600">
            Add member
          </button>
          <button
            type="button"
            className="rounded border border-zinc-700 px-3 py-1 hover:bg-zinc-800"
            onClick={() =>
              void server.createInvite(project.id, role).then(
                (made) => setInvite(`${window.location.origin}${made.path}`),
                (err: unknown) => notify('error', `Could not make an invite link: ${messageOf(err)}`),
              )
            }
          >
            Invite link for a {role}
          </button>
        </form>
      )}
      {invite && (
        <p className="mt-2 text-xs text-zinc-400">
          Send this link (it works once, for 7 days):{' '}
          <input aria-label="Invite link" readOnly className="w-[32rem] rounded bg-zinc-900 px-2 py-1 text-zinc-100" value={invite} onFocus={(e) => e.currentTarget.select()} />
        </p>
      )}
    </details>
  );
}
