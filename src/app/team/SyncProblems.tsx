/**
 * What sync could not do, on a shared project's page: rows the server refused (kept here, never
 * lost, never resent), pulled rows this browser could not store, and the frames two people edited
 * without seeing each other (both strokes are kept; a reviewer should look).
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { useDb } from '../../workspace/db';
import { readLink } from '../../sync';
import { hrefOf } from '../../workspace/router';

interface ConcurrentEdit {
  clipId?: string;
  source?: string;
  frameIndex?: number;
  users?: string[];
}

export function SyncProblems({ projectId, clipNames }: { projectId: string; clipNames: ReadonlyMap<string, string> }) {
  const db = useDb();
  const link = useLiveQuery(() => readLink(db, projectId), [db, projectId]);
  if (!link) return null;
  const concurrent = Object.entries(link.concurrentEdits).map(([id, row]) => ({ id, ...(row as ConcurrentEdit) }));
  if (link.refusals.length === 0 && link.problems.length === 0 && concurrent.length === 0) return null;
  return (
    <section className="mt-4 rounded border border-amber-800 bg-amber-950/30 p-3 text-sm" data-testid="sync-problems">
      {concurrent.length > 0 && (
        <>
          <h3 className="font-semibold">Edited by two people at once ({concurrent.length})</h3>
          <ul className="mt-1 list-disc pl-5 text-zinc-300">
            {concurrent.map((c) => (
              <li key={c.id} data-testid="concurrent-edit">
                <a className="text-sky-400 hover:underline" href={hrefOf({ name: 'clip', clipId: c.clipId ?? '', frame: c.frameIndex ?? 0 })}>
                  {clipNames.get(c.clipId ?? '') ?? c.clipId}, frame {(c.frameIndex ?? 0) + 1}
                </a>{' '}
                by {(c.users ?? []).join(' and ')}: both strokes are kept; check the frame.
              </li>
            ))}
          </ul>
        </>
      )}
      {link.refusals.length > 0 && (
        <>
          <h3 className="mt-2 font-semibold">Refused by the server ({link.refusals.length}): kept in this browser, not sent again</h3>
          <ul className="mt-1 list-disc pl-5 text-zinc-300">
            {link.refusals.slice(-20).map((r) => (
              <li key={`${r.kind} ${r.id}`} data-testid="sync-refusal">
                {r.kind}: {r.error}
              </li>
            ))}
          </ul>
        </>
      )}
      {link.problems.length > 0 && (
        <>
          <h3 className="mt-2 font-semibold">Changes from the server this browser could not store ({link.problems.length})</h3>
          <ul className="mt-1 list-disc pl-5 text-zinc-300">
            {link.problems.slice(-20).map((p) => (
              <li key={`${p.kind} ${p.id}`}>
                {p.kind} {p.id}: {p.error}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
