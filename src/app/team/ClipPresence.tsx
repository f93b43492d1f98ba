/**
 * Who else has this clip open, on a project synced with the team server: the editor tells the
 * server (live socket) which clip it shows, and shows the others the server names.
 */
import { useEffect, useSyncExternalStore } from 'react';
import { useProjectSync } from '../../workspace/projectSync';
import { useUserName } from '../../workspace/user';
import type { SpocDb } from '../../store/db';
import type { Clip } from '../../store/types';

const NOBODY: readonly string[] = [];
const noPresence = () => () => undefined;

export function ClipPresence({ db, clip }: { db: SpocDb; clip: Clip }) {
  const engine = useProjectSync((s) => s.engines[clip.projectId] ?? null);
  const me = useUserName(db);
  useEffect(() => {
    if (!engine) return;
    engine.setOpenClip(clip.id);
    return () => engine.setOpenClip(null);
  }, [engine, clip.id]);
  const here = useSyncExternalStore(engine ? engine.subscribePresence : noPresence, () => engine?.presence[clip.id] ?? NOBODY);
  const others = [...new Set(here)].filter((name) => name !== me);
  if (others.length === 0) return null;
  return (
    <span className="rounded bg-violet-900/60 px-2 py-0.5 text-xs text-violet-200" data-testid="clip-presence" title="They have this clip open now">
      also here: {others.join(', ')}
    </span>
  );
}
