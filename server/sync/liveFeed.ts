/**
 * Feeds this process's live sockets from PostgreSQL: LISTEN spoc_sync, whose payloads every push
 * sends at commit (push.ts), so a push through any server process reaches the sockets of all.
 * After the listening connection is replaced, payloads sent meanwhile are lost: each project with
 * sockets here is then told its current cursor, and its clients pull what they missed.
 */
import type { Db } from '../db/db';
import type { LiveHub } from './liveHub';
import { SYNC_CHANNEL, parseChangedPayload } from './push';
import { projectCursor } from './syncStore';

export async function startLiveFeed(db: Db, hub: LiveHub): Promise<() => Promise<void>> {
  const catchUp = () => {
    for (const projectId of hub.projectIds()) {
      projectCursor(db, projectId).then(
        (cursor) => hub.changed(projectId, cursor),
        () => {},
      );
    }
  };
  return db.listen(
    SYNC_CHANNEL,
    (payload) => {
      const change = parseChangedPayload(payload);
      if (change) hub.changed(change.projectId, change.cursor);
    },
    catchUp,
  );
}
