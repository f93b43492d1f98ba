/**
 * The assignment board, pure: who has which clips in which state. One row per person (the clips'
 * assignees and, with a team server, every member who can annotate), one for clips nobody has;
 * one column per lifecycle status, in lifecycle order. The dashboard's filters pick clips from a
 * cell, and a bulk assignment gives the shown clips to one person.
 */
import { CLIP_STATUSES, type Clip, type ClipStatus } from '../../store/types';

/** The row of clips without an assignee. */
export const UNASSIGNED = '';

export interface BoardRow {
  /** The assignee, or UNASSIGNED. */
  person: string;
  counts: Record<ClipStatus, number>;
  total: number;
}

const zeroCounts = (): Record<ClipStatus, number> => Object.fromEntries(CLIP_STATUSES.map((s) => [s, 0])) as Record<ClipStatus, number>;

/**
 * Rows for every person with clips and every name in `people` (members without clips yet show
 * with zeros, so they can be seen to be idle), sorted by name; the unassigned row comes first when
 * any clip has nobody.
 */
export function assignmentBoard(clips: readonly Clip[], people: readonly string[] = []): BoardRow[] {
  const rows = new Map<string, BoardRow>();
  const rowOf = (person: string) => {
    let row = rows.get(person);
    if (!row) rows.set(person, (row = { person, counts: zeroCounts(), total: 0 }));
    return row;
  };
  for (const name of people) if (name.trim()) rowOf(name.trim());
  for (const clip of clips) {
    const row = rowOf(clip.assignee?.trim() || UNASSIGNED);
    row.counts[clip.status]++;
    row.total++;
  }
  return [...rows.values()].sort((a, b) => (a.person === UNASSIGNED ? -1 : b.person === UNASSIGNED ? 1 : a.person.localeCompare(b.person)));
}

/** Statuses any row holds a clip in: the board's columns (empty columns would only take room). */
export function boardColumns(rows: readonly BoardRow[]): ClipStatus[] {
  return CLIP_STATUSES.filter((s) => rows.some((r) => r.counts[s] > 0));
}

/** What a bulk assignment will do, said before it is done. */
export function assignmentSummary(clips: readonly Clip[], person: string): { changes: number; text: string } {
  const who = person.trim();
  const changes = clips.filter((c) => (c.assignee?.trim() || UNASSIGNED) !== who).length;
  const n = (k: number) => `${k} clip${k === 1 ? '' : 's'}`;
  if (clips.length === 0) return { changes, text: 'No clips are shown: change the filters to pick clips.' };
  if (changes === 0) return { changes, text: who ? `The ${n(clips.length)} shown are already ${who}'s.` : `None of the ${n(clips.length)} shown has an assignee.` };
  return { changes, text: who ? `Give ${n(changes)} of the ${n(clips.length)} shown to ${who}.` : `Unassign ${n(changes)} of the ${n(clips.length)} shown.` };
}
