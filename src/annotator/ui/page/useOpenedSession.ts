/**
 * Opens the editor session of a clip and keeps it open: takes the clip's edit lock (else the session
 * is read-only), watches for another tab's changes to the clip's gt (and reads the clip again when
 * one comes), reopens the session read-only or editable when the clip's review status changes, and
 * closes it (writing what it had queued) when the editor goes.
 */
import { useEffect, useRef, useState } from 'react';
import { useDb } from '../../../workspace/db';
import { notify, messageOf } from '../../../workspace/notices';
import { authorNow, userNames } from '../../../workspace/user';
import { pendingEditsPort } from '../../../workspace/journal';
import type { Clip } from '../../../store/types';
import { EditorSession } from '../../session/editorSession';
import { codecFor } from '../../pixelCodec';
import { FrameImageCache } from '../../session/frameImages';
import { acquireClipLock } from '../../session/clipLock';
import { externalChangeNotice, watchExternalGtChanges, type ExternalGtChange } from '../../session/externalChanges';

export interface OpenedSession {
  session: EditorSession;
  images: FrameImageCache;
  /** The user name in force at the moment of asking (the header field can change it any time). */
  author: () => string;
  /** Bumped when the session is reopened after an outside change: the view starts afresh. */
  generation: number;
}

/** The open session (null while it opens) of `clip`, first shown at `frame`. */
export function useOpenedSession(clip: Clip, frame: number): OpenedSession | null {
  const db = useDb();
  const [opened, setOpened] = useState<OpenedSession | null>(null);
  // The session is created from the clip as it was when the editor opened (only its id and size matter).
  const first = useRef({ clip, frame });
  // An approved clip is read-only until someone reopens it (a review step). The status can change
  // while the clip is open (approved here or in another tab, reopened): the session is then replaced
  // by one opened in the new mode.
  const approved = clip.status === 'approved';
  const approvedRef = useRef(approved);
  const statusChanged = useRef<(() => void) | null>(null);
  useEffect(() => {
    if (approvedRef.current === approved) return;
    approvedRef.current = approved;
    statusChanged.current?.();
  }, [approved]);

  useEffect(() => {
    let alive = true;
    let session: EditorSession | null = null;
    let images: FrameImageCache | null = null;
    const author = authorNow(db);
    let lockGranted = false;
    let generation = 0;
    let release = () => undefined as void;
    let stopWatching = () => undefined as void;
    // Reopens run one after another, and closing waits for the one under way.
    let reopening: Promise<void> = Promise.resolve();
    const { clip: c, frame: k0 } = first.current;

    // Another tab wrote this clip's gt although this tab holds its lock: drop everything cached here
    // and read the clip again, rather than write a stale copy over that change.
    const reopen = (change: ExternalGtChange) => {
      reopening = reopening
        .then(async () => {
          const current = session;
          if (!alive || !current || !images) return;
          notify('warn', externalChangeNotice(c.name, change));
          await current.reloadFromStore();
          if (!alive) return;
          setOpened({ session: current, images, author, generation: ++generation });
        })
        .catch((err: unknown) => {
          notify('error', `Could not reload "${c.name}" after a change in another tab: ${messageOf(err)}. Reload the page.`);
        });
    };

    const readOnly = () => !lockGranted || approvedRef.current;
    // An objects project's clips paint objects (annotator/pixelCodec.ts); each session numbers them afresh.
    const codecOf = async () => codecFor(await db.projects.get(c.projectId));
    // Approved or reopened: a fresh session on the same frame, read-only or not. Closing the old
    // one still writes the edits it had queued.
    statusChanged.current = () => {
      reopening = reopening
        .then(async () => {
          const old = session;
          if (!alive || !old || !images) return;
          session = null;
          await old.close();
          const next = await EditorSession.open(db, c, author, old.snapshot.frameIndex, { readOnly: readOnly(), pending: pendingEditsPort(), codec: await codecOf() });
          if (!alive) return void next.close();
          session = next;
          setOpened({ session: next, images, author, generation: ++generation });
        })
        .catch((err: unknown) => {
          notify('error', `Could not reopen "${c.name}" after its review status changed: ${messageOf(err)}. Reload the page.`);
        });
    };

    // The first frame's picture is read while the session opens, not after: for a clip pulled from
    // the team server that is a download (store/frames.ts getFrameImage), the longest step of a first
    // open (docs/sync.md "Measured"). The view asks the cache for it again and gets the same promise.
    const firstImages = new FrameImageCache(db, c.id);
    images = firstImages;
    void firstImages.get(k0).catch(() => null);

    void (async () => {
      try {
        const lock = await acquireClipLock(c.id);
        release = lock.release;
        // Unmounted while the lock was being granted (a quick remount): give it back at once.
        if (!alive) return lock.release();
        lockGranted = lock.granted;
        // The name the first edit is credited to, if it comes before the header has loaded it.
        await userNames(db).ready();
        if (lock.granted) {
          // Watching starts before the session reads anything, so no outside change is missed.
          const watch = watchExternalGtChanges(db, c.id, reopen);
          stopWatching = watch.stop;
          await watch.ready;
        }
        session = await EditorSession.open(db, c, author, k0, { readOnly: readOnly(), pending: pendingEditsPort(), codec: await codecOf() });
        if (!alive) {
          void session.close().finally(() => lock.release());
          return;
        }
        if (!lock.granted) notify('warn', `"${c.name}" is open for editing in another tab; this tab is read-only.`);
        setOpened({ session, images: firstImages, author, generation });
      } catch (err) {
        notify('error', `Could not open the clip: ${messageOf(err)}`);
      }
    })();
    return () => {
      alive = false;
      statusChanged.current = null;
      stopWatching();
      images?.destroy();
      void reopening.then(() => session?.close()).finally(() => release());
    };
  }, [db]);

  return opened;
}
