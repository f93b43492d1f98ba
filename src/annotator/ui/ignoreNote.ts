/**
 * The note of an ignored frame. The guideline reasons explain themselves; "other" does not, so it
 * needs a few words of why (a reviewer reading "Ignored: Other" learns nothing). Pure, for the
 * ignore form and its tests.
 */
import type { IgnoreReason } from '../../store/types';

export const MAX_IGNORE_NOTE = 500;

/** Why the note cannot go with this reason, or null when it can. */
export function ignoreNoteProblem(reason: IgnoreReason, note: string): string | null {
  const text = note.trim();
  if (reason === 'other' && text.length === 0) return 'Say why the frame is ignored: "Other" needs a few words.';
  if (text.length > MAX_IGNORE_NOTE) return `Keep the note under ${MAX_IGNORE_NOTE} characters (it has ${text.length}).`;
  return null;
}
