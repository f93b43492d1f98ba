/**
 * Feeds this process's live sockets from PostgreSQL: LISTEN spoc_sync, whose payloads every push
 * sends at commit (push.ts), so a push through any server process reaches the sockets of all; the
 * rows each payload announces are read and sent on (liveRows.ts). After the listening connection is
 * replaced, payloads sent meanwhile are lost: each project with sockets here is then told its
 * current cursor, and its clients pull what they missed.
 */
import type { Db } from '../db/db';
import type { LiveHub } from './liveHub';
import { LiveRowsFeed } from './liveRows';
import { SYNC_CHANNEL, parseChangedPayload } from './push';
import { projectCursor, pullPage } from './syncStore';

export async function startLiveFeed(db: Db, hub: LiveHub, onError: (err: unknown) => void = () => {}): Promise<() => Promise<void>> {
  const feed = new LiveRowsFeed(hub, (projectId, after, limit) => pullPage(db, projectId, after, limit), undefined, onError);
  const catchUp = () => {
    for (const projectId of hub.projectIds()) {
      projectCursor(db, projectId).then(
        (cursor) => feed.reset(projectId, cursor),
        () => {},
      );
    }
  };
  return db.listen(
    SYNC_CHANNEL,
    (payload) => {
      const change = parseChangedPayload(payload);
      if (change) feed.notified(change.projectId, change.after, change.cursor);
    },
    catchUp,
  );
}
