/**
 * The local user (no accounts): a name per browser profile, recorded as the author of every edit,
 * review step and comment.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import type { SpocDb } from '../store/db';
import { getUserName } from '../store/meta';

export const DEFAULT_USER = 'annotator';

/** The name as it is now (the header field can change it while a view is open). */
export function useUserName(db: SpocDb): string {
  return useLiveQuery(() => getUserName(db), [db]) ?? DEFAULT_USER;
}

/** The name to record for an action starting now. */
export async function currentUserName(db: SpocDb): Promise<string> {
  return (await getUserName(db)) ?? DEFAULT_USER;
}
