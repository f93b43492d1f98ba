import type { SpocDb } from './db';
import { StoreError, notFound } from './errors';
import { clipCommentRows } from './keys';
import { RecordCheck, checkComment } from './records';
import type { Clip, ClipComment } from './types';
import { newId } from './ids';

/*
 * Comments pinned to a point of a frame (schema v4, table `comments`). A thread is a root comment
 * (with the point) and its replies (`parentId` = the root, same frame and point). Resolving is a
 * flag on the root.
 */

export interface NewComment {
  clipId: string;
  frameIndex: number;
  x: number;
  y: number;
  author: string;
  text: string;
  at?: number;
  id?: string;
}

/** Adds a root comment at a point of a frame (frame pixels, inside the frame). */
export async function addComment(db: SpocDb, input: NewComment): Promise<ClipComment> {
  return db.transaction('rw', [db.clips, db.comments], async () => {
    const clip = await db.clips.get(input.clipId);
    if (!clip) throw notFound('Clip');
    const { frameIndex, x, y } = input;
    // The point as given (the pointer, before rounding to a pixel) must lie inside the frame.
    if (!Number.isFinite(x) || !Number.isFinite(y) || x < 0 || y < 0 || x >= clip.width || y >= clip.height) {
      throw new StoreError('invalid', `The point (${x}, ${y}) is not inside the ${clip.width}x${clip.height} frame.`);
    }
    const row = commentRow(clip, {
      id: input.id ?? newId(),
      clipId: clip.id,
      frameIndex,
      x: Math.round(x),
      y: Math.round(y),
      author: trimmed(input.author),
      at: input.at ?? Date.now(),
      text: trimmed(input.text),
      resolved: false,
    });
    await db.comments.add(row);
    return row;
  });
}

/** Replies to a thread (to its root, whatever comment of the thread `parentId` names). */
export async function replyToComment(
  db: SpocDb,
  parentId: string,
  input: { author: string; text: string; at?: number; id?: string },
): Promise<ClipComment> {
  return db.transaction('rw', [db.clips, db.comments], async () => {
    let root = await db.comments.get(parentId);
    if (root?.parentId) root = await db.comments.get(root.parentId);
    if (!root) throw notFound('Comment');
    const clip = await db.clips.get(root.clipId);
    if (!clip) throw notFound('Clip');
    const row = commentRow(clip, {
      id: input.id ?? newId(),
      clipId: root.clipId,
      frameIndex: root.frameIndex,
      x: root.x,
      y: root.y,
      author: trimmed(input.author),
      at: input.at ?? Date.now(),
      text: trimmed(input.text),
      parentId: root.id,
      resolved: false,
    });
    await db.comments.add(row);
    return row;
  });
}

/** Marks a thread resolved (or open again). */
export async function setCommentResolved(db: SpocDb, id: string, resolved: boolean): Promise<void> {
  await db.transaction('rw', db.comments, async () => {
    const c = await db.comments.get(id);
    if (!c) throw notFound('Comment');
    await db.comments.update(c.parentId ?? c.id, { resolved });
  });
}

/** Every comment of a clip, by frame then time (roots and replies together). */
export async function listComments(db: SpocDb, clipId: string): Promise<ClipComment[]> {
  const rows = await clipCommentRows(db, clipId).toArray();
  return rows.sort((a, b) => a.frameIndex - b.frameIndex || a.at - b.at || a.id.localeCompare(b.id));
}

export interface CommentThread {
  root: ClipComment;
  replies: ClipComment[];
}

/** Groups comments into threads (roots by frame and time; replies by time). Orphan replies are dropped. */
export function commentThreads(comments: readonly ClipComment[]): CommentThread[] {
  const roots = comments.filter((c) => !c.parentId);
  const byRoot = new Map(roots.map((r) => [r.id, [] as ClipComment[]]));
  for (const c of comments) if (c.parentId) byRoot.get(c.parentId)?.push(c);
  return roots
    .sort((a, b) => a.frameIndex - b.frameIndex || a.at - b.at)
    .map((root) => ({ root, replies: byRoot.get(root.id)!.sort((a, b) => a.at - b.at) }));
}

/** The row checked as the store keeps it (records/review.ts): text and author trimmed, point on a pixel. */
function commentRow(clip: Clip, row: Record<string, unknown>): ClipComment {
  return checkComment(new RecordCheck('The comment'), row, '', clip, 'input');
}

function trimmed(text: unknown): unknown {
  return typeof text === 'string' ? text.trim() : text;
}
