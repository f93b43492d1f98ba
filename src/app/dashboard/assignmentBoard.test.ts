import { describe, expect, it } from 'vitest';
import type { Clip, ClipStatus } from '../../store/types';
import { assignmentBoard, assignmentSummary, boardColumns, UNASSIGNED } from './assignmentBoard';

const clip = (id: string, status: ClipStatus, assignee?: string): Clip => ({ id, status, ...(assignee === undefined ? {} : { assignee }) }) as Clip;

describe('assignmentBoard', () => {
  const clips = [clip('a', 'todo'), clip('b', 'in_progress', 'ann'), clip('c', 'submitted', 'ann'), clip('d', 'approved', 'bo'), clip('e', 'todo', '  ')];

  it('counts each person by status, unassigned first, then by name; blank assignees are nobody', () => {
    const rows = assignmentBoard(clips);
    expect(rows.map((r) => r.person)).toEqual([UNASSIGNED, 'ann', 'bo']);
    expect(rows[0]).toMatchObject({ total: 2, counts: { todo: 2 } });
    expect(rows[1]).toMatchObject({ total: 2, counts: { in_progress: 1, submitted: 1, todo: 0 } });
    expect(rows[2].counts.approved).toBe(1);
  });

  it('lists idle members with zeros, and no unassigned row when every clip has someone', () => {
    const rows = assignmentBoard([clip('b', 'in_progress', 'ann')], ['cy', 'ann', ' ']);
    expect(rows.map((r) => [r.person, r.total])).toEqual([
      ['ann', 1],
      ['cy', 0],
    ]);
  });

  it('shows only the columns some clip is in, in lifecycle order', () => {
    expect(boardColumns(assignmentBoard(clips))).toEqual(['todo', 'in_progress', 'submitted', 'approved']);
  });
});

describe('assignmentSummary', () => {
  it('counts only the clips that change hands', () => {
    expect(assignmentSummary([clip('a', 'todo', 'ann'), clip('b', 'todo')], 'ann')).toEqual({ changes: 1, text: 'Give 1 clip of the 2 clips shown to ann.' });
    expect(assignmentSummary([clip('a', 'todo', 'ann')], ' ann ').changes).toBe(0);
    expect(assignmentSummary([clip('a', 'todo', 'ann'), clip('b', 'todo', 'bo')], '')).toEqual({ changes: 2, text: 'Unassign 2 clips of the 2 clips shown.' });
    expect(assignmentSummary([], 'ann').text).toMatch(/No clips are shown/);
  });
});
