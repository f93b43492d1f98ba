/**
 * Generates the demo project on a click (three 20-frame clips with exact truth, about 2–4 s on a
 * 2-core machine) with its progress in frames, then opens it.
 */
import { useState } from 'react';
import { useDb } from '../../workspace/db';
import { navigate } from '../../workspace/router';
import { notify, messageOf } from '../../workspace/notices';
import { storageChanged } from '../StorageMeter';
import { currentUserName } from '../../workspace/user';
import { openDemoProject } from './openDemoProject';

export function OpenDemoButton({ subtle = false }: { subtle?: boolean }) {
  const db = useDb();
  const [progress, setProgress] = useState<[number, number] | null>(null);
  const open = async () => {
    setProgress([0, 1]);
    try {
      const author = await currentUserName(db);
      const project = await openDemoProject(db, author, (d, t) => setProgress([d, t]));
      navigate({ name: 'project', projectId: project.id });
    } catch (err) {
      notify('error', `The demo project could not be created; nothing was saved. ${messageOf(err)}`);
    } finally {
      setProgress(null);
      storageChanged();
    }
  };
  return (
    <button
      className={subtle ? 'rounded border border-zinc-700 px-3 py-1.5 text-sm hover:bg-zinc-800' : 'rounded bg-emerald-700 px-4 py-2 hover:bg-emerald-600'}
      disabled={progress !== null}
      onClick={() => void open()}
    >
      {progress ? `Generating demo… ${progress[0]}/${progress[1]} frames` : 'Open demo project'}
    </button>
  );
}
