/**
 * The header's "you are" field: the local user name (no accounts), recorded as the author of every
 * edit and review step from the moment it is saved. Saved on Enter and on leaving the field; Escape
 * puts back the name in force. Signed in to a team server, the account's name is the author
 * (workspace/account.ts) and this field gives way to the account corner.
 */
import { useDb } from '../workspace/db';
import { userNames, useUserName } from '../workspace/user';
import { notify, messageOf } from '../workspace/notices';
import { signedInUser, useAccount } from '../workspace/account';

export function UserName() {
  const db = useDb();
  const name = useUserName(db);
  const account = useAccount(signedInUser);
  const save = (value: string) => {
    void userNames(db)
      .set(value)
      .catch((err: unknown) => notify('error', `Could not save your name: ${messageOf(err)}`));
  };
  if (account) return null;
  return (
    <label className="flex items-center gap-2 text-xs text-zinc-400">
      you are
      <input
        aria-label="Your name"
        className="w-32 rounded bg-zinc-900 px-2 py-1 text-zinc-100"
        defaultValue={name}
        // A rename from elsewhere (another tab) replaces what the field shows.
        key={name}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            // Saved now, not on blur: a reload right after Enter keeps the name.
            save(e.currentTarget.value);
            e.currentTarget.blur();
          } else if (e.key === 'Escape') {
            e.currentTarget.value = name;
            e.currentTarget.blur();
          }
        }}
        onBlur={(e) => save(e.currentTarget.value)}
      />
    </label>
  );
}
