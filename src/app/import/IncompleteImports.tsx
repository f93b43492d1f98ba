/**
 * Clips whose import did not finish (store/importCommit.ts writes large imports in bounded
 * transactions behind an `importing` marker). While this tab is still writing one it shows as
 * saving; otherwise the import was interrupted (a crash, a closed tab) and the clip is shown as
 * incomplete, with what was saved, and can be removed. The editor refuses to open such a clip.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { useDb } from '../../workspace/db';
import { notify, messageOf } from '../../workspace/notices';
import { getClip, listIncompleteImports, removeIncompleteImport, type IncompleteImport } from '../../store/clips';
import { isImportRunningHere } from '../../store/importCommit';
import { clipFrameImages } from '../../store/keys';
import type { Clip } from '../../store/types';
import { storageChanged } from '../StorageMeter';

export function IncompleteImports({ projectId }: { projectId: string }) {
  const db = useDb();
  const incomplete = useLiveQuery(() => listIncompleteImports(db, projectId), [db, projectId]);
  if (!incomplete || incomplete.length === 0) return null;
  const remove = async (clip: Clip) => {
    try {
      await removeIncompleteImport(db, clip.id);
      notify('info', `Removed the incomplete import "${clip.name}".`);
    } catch (err) {
      notify('error', messageOf(err));
    } finally {
      storageChanged();
    }
  };
  return (
    <ul className="mt-4 space-y-2" aria-label="Incomplete imports">
      {incomplete.map((inc) => (
        <IncompleteRow key={inc.clip.id} inc={inc} onRemove={() => void remove(inc.clip)} />
      ))}
    </ul>
  );
}

function IncompleteRow({ inc, onRemove }: { inc: IncompleteImport; onRemove: () => void }) {
  const saving = isImportRunningHere(inc.clip.id);
  const counts = `${inc.framesSaved} of ${inc.framesExpected} frames saved`;
  return (
    <li
      className="flex items-center gap-3 rounded-lg border border-amber-800 bg-amber-950/40 px-3 py-2 text-sm"
      data-testid="incomplete-import"
      data-clip-id={inc.clip.id}
    >
      <span className="min-w-0 flex-1 truncate">
        <span className="font-medium">{inc.clip.name}</span>
        <span className="ml-2 text-amber-300">{saving ? `Saving… (${counts})` : `Incomplete import (${counts})`}</span>
      </span>
      {!saving && (
        <>
          <span className="text-xs text-zinc-400">The import was interrupted; remove it and import the file again.</span>
          <button className="rounded border border-amber-700 px-3 py-1 hover:bg-amber-900" onClick={onRemove}>
            Remove
          </button>
        </>
      )}
    </li>
  );
}

/** The reason the editor cannot open `clipId`, or null when it can (or the clip does not exist). */
export function useIncompleteClip(clipId: string): { clip: Clip; framesSaved: number } | null | undefined {
  const db = useDb();
  return useLiveQuery(
    async () => {
      const clip = await getClip(db, clipId);
      if (!clip?.importing) return null;
      return { clip, framesSaved: await clipFrameImages(db, clip.id).count() };
    },
    [db, clipId],
    undefined,
  );
}

/** What the editor shows instead of an incomplete clip. */
export function IncompleteClipNotice({ clip, framesSaved }: { clip: Clip; framesSaved: number }) {
  const expected = clip.importing?.framesExpected ?? clip.frameCount;
  const saving = isImportRunningHere(clip.id);
  return (
    <div className="p-6" data-testid="incomplete-clip">
      <p className="text-zinc-200">
        {saving
          ? `"${clip.name}" is still being saved (${framesSaved} of ${expected} frames); it opens once its import has finished.`
          : `"${clip.name}" cannot be opened: its import did not finish (${framesSaved} of ${expected} frames saved).`}
      </p>
      {!saving && <p className="mt-1 text-sm text-zinc-400">Remove it on the project page and import the file again.</p>}
      <a href={`#/p/${clip.projectId}`} className="mt-3 inline-block text-sm text-sky-400 hover:underline">
        Back to the project
      </a>
    </div>
  );
}
