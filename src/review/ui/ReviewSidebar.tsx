/**
 * The editor's review side panel: the change request in force, comments pinned to frames (threads
 * with replies and a resolve toggle; picking one jumps to its frame), and the clip's history.
 */
import { useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import type { SpocDb } from '../../store/db';
import type { Clip, ClipComment } from '../../store/types';
import { addComment, commentThreads, listComments, replyToComment, setCommentResolved, type CommentThread } from '../../store/comments';
import { listClipEvents } from '../../store/clipEvents';
import { notify, messageOf } from '../../workspace/notices';
import { ACTION_SPECS, STATUS_LABELS, openChangeRequest, type ClipAction } from '../lifecycle';
import { useReviewUi } from './reviewUiState';
import { useUserName } from '../../workspace/user';
import { FlagsPanel } from './FlagsPanel';
import { PredictionsPanel } from './PredictionsPanel';
import { COLLAPSED_STRIP, PANEL_WIDTH } from '../../annotator/ui/panelLayout';

interface Props {
  db: SpocDb;
  clip: Clip;
  frameIndex: number;
  onPick: (frameIndex: number) => void;
  children?: React.ReactNode;
}

const UNDER_REVIEW: readonly Clip['status'][] = ['submitted', 'in_review', 'changes_requested'];

const when = (at: number) => new Date(at).toLocaleString();

export function ReviewSidebar({ db, clip, frameIndex, onPick, children }: Props) {
  const user = useUserName(db);
  const comments = useLiveQuery(() => listComments(db, clip.id), [db, clip.id]) ?? [];
  const events = useLiveQuery(() => listClipEvents(db, clip.id), [db, clip.id]) ?? [];
  const placing = useReviewUi((s) => s.placing);
  const pending = useReviewUi((s) => s.pending);
  const [text, setText] = useState('');
  const [onlyOpen, setOnlyOpen] = useState(false);
  const request = openChangeRequest(clip.status, events);
  const threads = commentThreads(comments).filter((t) => !onlyOpen || !t.root.resolved);
  const guard = (p: Promise<unknown>) => p.catch((err: unknown) => notify('error', messageOf(err)));
  const panel = useReviewUi((s) => s.panel);
  const open = panel ?? (UNDER_REVIEW.includes(clip.status) || comments.length > 0 || placing || pending !== null);

  if (!open) {
    return (
      <button
        className={COLLAPSED_STRIP}
        onClick={() => useReviewUi.getState().set({ panel: true })}
        aria-label="Show review panel"
        data-testid="review-panel-open"
      >
        review ▸{comments.length > 0 ? ` (${comments.filter((c) => !c.parentId && !c.resolved).length})` : ''}
      </button>
    );
  }
  return (
    <aside className={`flex ${PANEL_WIDTH.review} shrink-0 flex-col gap-4 overflow-y-auto overflow-x-hidden border-l border-zinc-800 bg-zinc-900 p-3 text-sm`} aria-label="Review" data-testid="review-panel">
      <button className="self-end text-xs text-zinc-500 hover:text-zinc-300" aria-label="Hide review panel" onClick={() => useReviewUi.getState().set({ panel: false })}>
        hide ◂
      </button>
      {request && (
        <div className="rounded border border-amber-700 bg-amber-950 p-2 text-xs" data-testid="change-request">
          <b>{request.by}</b> requested changes: <span data-testid="change-request-note">{request.note}</span>
        </div>
      )}
      <section aria-label="Comments">
        <div className="flex items-center gap-2">
          <h3 className="font-semibold">Comments</h3>
          <span className="flex-1" />
          <label className="flex items-center gap-1 text-xs text-zinc-400">
            <input type="checkbox" checked={onlyOpen} onChange={(e) => setOnlyOpen(e.target.checked)} /> open only
          </label>
        </div>
        {pending ? (
          <form
            className="mt-2 flex flex-col gap-1 rounded bg-zinc-800 p-2"
            onSubmit={(e) => {
              e.preventDefault();
              void guard(
                addComment(db, { clipId: clip.id, ...pending, author: user, text }).then(() => {
                  setText('');
                  useReviewUi.getState().set({ pending: null });
                }),
              );
            }}
          >
            <label className="text-xs text-zinc-400" htmlFor="comment-text">
              Comment on frame {pending.frameIndex + 1} at ({pending.x}, {pending.y})
            </label>
            <textarea id="comment-text" autoFocus rows={3} className="rounded bg-zinc-950 p-2" value={text} onChange={(e) => setText(e.target.value)} />
            <div className="flex gap-2">
              <button disabled={!text.trim()} className="rounded bg-sky-700 px-2 py-1 text-xs hover:bg-sky-600 disabled:opacity-50">
                Post comment
              </button>
              <button type="button" className="text-xs underline" onClick={() => useReviewUi.getState().set({ pending: null })}>
                cancel
              </button>
            </div>
          </form>
        ) : (
          <button
            className={`mt-2 w-full rounded px-2 py-1 text-xs ${placing ? 'bg-sky-700' : 'bg-zinc-800 hover:bg-zinc-700'}`}
            aria-pressed={placing}
            onClick={() => useReviewUi.getState().set({ placing: !placing })}
          >
            {placing ? 'Click the frame where the comment belongs… (cancel)' : 'Add comment'}
          </button>
        )}
        <ul className="mt-2 flex flex-col gap-2">
          {threads.map((t, i) => (
            <Thread key={t.root.id} thread={t} number={i + 1} current={t.root.frameIndex === frameIndex} user={user} db={db} onPick={onPick} guard={guard} />
          ))}
          {threads.length === 0 && <li className="text-xs text-zinc-500">No comments yet.</li>}
        </ul>
      </section>
      <FlagsPanel db={db} clip={clip} user={user} onPick={onPick} />
      <PredictionsPanel db={db} clip={clip} user={user} frameIndex={frameIndex} onPick={onPick} />
      {children}
      <section aria-label="History">
        <h3 className="font-semibold">History</h3>
        <ol className="mt-1 flex flex-col gap-1 text-xs" data-testid="history">
          {events.map((e) => (
            <li key={e.seq} data-testid="history-event" data-action={e.action} data-by={e.by}>
              <span className="text-zinc-300">{e.by}</span>{' '}
              {ACTION_SPECS[e.action as ClipAction]?.label.replace('…', '').toLowerCase() ?? e.action} → {STATUS_LABELS[e.to]}
              <span className="text-zinc-500"> · {when(e.at)}</span>
              {e.note && <div className="text-zinc-400">“{e.note}”</div>}
            </li>
          ))}
          {events.length === 0 && <li className="text-zinc-500">Not submitted yet.</li>}
        </ol>
      </section>
    </aside>
  );
}

function Thread({
  thread,
  number,
  current,
  user,
  db,
  onPick,
  guard,
}: {
  thread: CommentThread;
  number: number;
  current: boolean;
  user: string;
  db: SpocDb;
  onPick: (frameIndex: number) => void;
  guard: (p: Promise<unknown>) => void;
}) {
  const [reply, setReply] = useState('');
  const { root, replies } = thread;
  const selected = useReviewUi((s) => s.selected === root.id);
  return (
    <li
      data-testid="comment"
      data-frame={root.frameIndex}
      data-x={root.x}
      data-y={root.y}
      data-resolved={root.resolved}
      className={`rounded p-2 text-xs ${selected ? 'bg-zinc-700' : current ? 'bg-zinc-800' : 'bg-zinc-950'} ${root.resolved ? 'opacity-60' : ''}`}
    >
      <button
        className="w-full text-left"
        onClick={() => {
          useReviewUi.getState().set({ selected: root.id });
          onPick(root.frameIndex);
        }}
      >
        <span className="text-zinc-500">
          #{number} · frame {root.frameIndex + 1} ({root.x}, {root.y})
        </span>
        <Line c={root} />
      </button>
      {replies.map((r) => (
        <div key={r.id} className="ml-3 mt-1 border-l border-zinc-700 pl-2">
          <Line c={r} />
        </div>
      ))}
      <form
        className="mt-1 flex gap-1"
        onSubmit={(e) => {
          e.preventDefault();
          guard(replyToComment(db, root.id, { author: user, text: reply }).then(() => setReply('')));
        }}
      >
        <input aria-label="Reply" placeholder="reply…" className="min-w-0 flex-1 rounded bg-zinc-900 px-1" value={reply} onChange={(e) => setReply(e.target.value)} />
        <button type="button" className="underline" onClick={() => guard(setCommentResolved(db, root.id, !root.resolved))}>
          {root.resolved ? 'reopen' : 'resolve'}
        </button>
      </form>
    </li>
  );
}

function Line({ c }: { c: ClipComment }) {
  return (
    <div>
      <b>{c.author}</b>: <span data-testid="comment-text">{c.text}</span>
    </div>
  );
}
