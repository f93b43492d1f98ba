/**
 * The editor refuses a clip in the trash (or in a trashed project): it is hidden everywhere else,
 * and edits to it would be invisible until a restore. Restoring is one click away here.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { useDb } from '../../workspace/db';
import { messageOf, notify } from '../../workspace/notices';
import { getClip } from '../../store/clips';
import { getProject } from '../../store/projects';
import type { Clip } from '../../store/types';
import { restoreClipFromTrash } from './clipActions';

export interface TrashedClip {
  clip: Clip;
  /** The clip itself is in the trash (else its project is). */
  clipTrashed: boolean;
}

/** Why the editor cannot open `clipId` because of the trash, null when it can, undefined while reading. */
export function useTrashedClip(clipId: string): TrashedClip | null | undefined {
  const db = useDb();
  return useLiveQuery(
    async () => {
      const clip = await getClip(db, clipId);
      if (!clip) return null;
      if (clip.deletedAt !== undefined) return { clip, clipTrashed: true };
      const project = await getProject(db, clip.projectId);
      return project?.deletedAt !== undefined ? { clip, clipTrashed: false } : null;
    },
    [db, clipId],
    undefined,
  );
}

export function TrashedClipNotice({ clip, clipTrashed }: TrashedClip) {
  const db = useDb();
  const restore = async () => {
    try {
      await restoreClipFromTrash(db, clip.id);
    } catch (err) {
      notify('error', messageOf(err));
    }
  };
  return (
    <div className="p-6" data-testid="trashed-clip-notice">
      <p className="text-zinc-200">
        {clipTrashed ? `"${clip.name}" is in the trash, so it cannot be edited.` : `"${clip.name}" belongs to a project in the trash, so it cannot be edited.`}
      </p>
      <div className="mt-3 flex gap-3 text-sm">
        {clipTrashed && (
          <button className="rounded bg-sky-700 px-3 py-1 hover:bg-sky-600" onClick={() => void restore()}>
            Restore and open
          </button>
        )}
        <a href={`#/p/${clip.projectId}`} className="self-center text-sky-400 hover:underline">
          Back to the project
        </a>
      </div>
    </div>
  );
}
