/**
 * When the app asks the browser for persistent storage. Not at page load: a first visit that only
 * looks around has nothing to keep, Firefox would show its prompt to someone who has not saved
 * anything, and Chromium decides from how engaged the site is, which a real write shows better.
 * So: at the first write worth keeping (a project, an import, a demo, a bundle), or at load when
 * the store already holds projects from earlier sessions. Once per page load; the answer is kept so
 * the storage meter can say when the browser refused.
 */
import { requestPersistence } from '../store/quota';

/** Sent after writes that change how much is stored; the storage meter listens. */
export const STORAGE_CHANGED_EVENT = 'spoc:storage-changed';

export type PersistenceAnswer = 'unasked' | 'granted' | 'refused';

let answer: PersistenceAnswer = 'unasked';
let asking: Promise<boolean> | null = null;

/** Asks once per page load; later calls share the first answer. Never throws. */
export function askPersistenceOnce(): Promise<boolean> {
  asking ??= requestPersistence().then((granted) => {
    answer = granted ? 'granted' : 'refused';
    window.dispatchEvent(new Event(STORAGE_CHANGED_EVENT));
    return granted;
  });
  return asking;
}

export function persistenceAnswer(): PersistenceAnswer {
  return answer;
}
