import { useLiveQuery } from 'dexie-react-hooks';
import { DEFAULT_USER } from '../../app/UserName';
import type { SpocDb } from '../../store/db';
import { getUserName } from '../../store/meta';

/** The local user name as it is now (the header field can change it while the editor is open). */
export function useUserName(db: SpocDb): string {
  return useLiveQuery(() => getUserName(db), [db]) ?? DEFAULT_USER;
}
