import { Suspense, useEffect } from 'react';
import { useNotices } from '../workspace/notices';
import { useDb } from '../workspace/db';
import { useUserName } from '../workspace/user';

const STYLE = {
  info: 'border-sky-700 bg-sky-950',
  warn: 'border-amber-600 bg-amber-950',
  error: 'border-red-600 bg-red-950',
} as const;

export function Notices() {
  const { notices, dismiss } = useNotices();
  return (
    <>
      <Suspense fallback={null}>
        <FollowUser />
      </Suspense>
      {notices.length > 0 && (
        <div className="fixed bottom-4 right-4 z-50 flex w-[28rem] flex-col gap-2" aria-live="polite">
          {notices.map((n) => (
            <div key={n.id} role={n.level === 'error' ? 'alert' : 'status'} data-level={n.level} className={`flex items-start gap-3 rounded border px-3 py-2 text-sm ${STYLE[n.level]}`}>
              <p className="flex-1 whitespace-pre-wrap break-words">{n.text}</p>
              <button className="text-zinc-400 hover:text-white" aria-label="Dismiss" onClick={() => dismiss(n.id)}>
                ×
              </button>
            </div>
          ))}
        </div>
      )}
    </>
  );
}

/** Tells the notices who the local user is, so becoming someone else clears what was theirs. */
function FollowUser() {
  const db = useDb();
  const user = useUserName(db);
  useEffect(() => useNotices.getState().enter({ user }), [user]);
  return null;
}
