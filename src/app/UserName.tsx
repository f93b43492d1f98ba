/** The local user name (no accounts): recorded as the author of every edit and review step. */
import { useLiveQuery } from 'dexie-react-hooks';
import { useDb } from '../workspace/db';
import { getUserName, setUserName } from '../store/meta';

import { DEFAULT_USER } from '../workspace/user';

export function UserName() {
  const db = useDb();
  const name = useLiveQuery(() => getUserName(db), [db]);
  return (
    <label className="flex items-center gap-2 text-xs text-zinc-400">
      you are
      <input
        aria-label="Your name"
        className="w-32 rounded bg-zinc-900 px-2 py-1 text-zinc-100"
        defaultValue={name ?? DEFAULT_USER}
        key={name ?? ''}
        onBlur={(e) => {
          const v = e.target.value.trim();
          if (v && v !== name) void setUserName(db, v);
        }}
      />
    </label>
  );
}
