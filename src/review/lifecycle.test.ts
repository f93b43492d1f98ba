import { describe, expect, it } from 'vitest';
import { CLIP_STATUSES, type ClipStatus } from '../store/types';
import { ACTION_SPECS, CLIP_ACTIONS, availableActions, openChangeRequest, transition } from './lifecycle';

describe('clip lifecycle', () => {
  it('plays the happy path and the changes-requested loop', () => {
    let s: ClipStatus = 'todo';
    const step = (a: (typeof CLIP_ACTIONS)[number], note?: string) => {
      const r = transition(s, a, note);
      if (!r.ok) throw new Error(r.error);
      s = r.to;
      return r;
    };
    step('start');
    expect(s).toBe('in_progress');
    step('submit');
    step('start_review');
    expect(s).toBe('in_review');
    expect(step('request_changes', '  fix frame 3  ').note).toBe('fix frame 3');
    expect(s).toBe('changes_requested');
    step('submit');
    step('start_review');
    step('approve');
    expect(s).toBe('approved');
  });

  it('rejects steps from the wrong state', () => {
    expect(transition('todo', 'approve')).toEqual({ ok: false, error: 'Cannot "Approve" a clip that is to do.' });
    expect(transition('in_progress', 'start_review').ok).toBe(false);
    expect(transition('approved', 'submit').ok).toBe(false);
    expect(transition('submitted', 'approve').ok).toBe(false);
    expect(transition('in_review', 'bogus' as never)).toEqual({ ok: false, error: 'Unknown review action "bogus".' });
  });

  it('requires a note to request changes, and bounds notes', () => {
    expect(transition('in_review', 'request_changes', '  ')).toEqual({ ok: false, error: 'Say what should change (the note is empty).' });
    expect(transition('in_review', 'approve', 'x'.repeat(4001)).ok).toBe(false);
    expect(transition('in_review', 'approve')).toEqual({ ok: true, to: 'approved' });
    // An override is only as good as its reason.
    expect(transition('in_review', 'approve_override', ' ')).toEqual({ ok: false, error: 'Say why the clip is approved without a full review (the reason is empty).' });
    expect(transition('in_review', 'approve_override', ' one-frame clip ')).toEqual({ ok: true, to: 'approved', note: 'one-frame clip' });
  });

  it('offers exactly the valid actions from each status, and every status is reachable', () => {
    for (const s of CLIP_STATUSES) {
      for (const a of CLIP_ACTIONS) {
        const valid = transition(s, a, 'note').ok;
        expect(availableActions(s).includes(a)).toBe(valid);
      }
    }
    const reachable = new Set<ClipStatus>(['todo']);
    for (let i = 0; i < 6; i++) for (const s of [...reachable]) for (const a of availableActions(s)) reachable.add(ACTION_SPECS[a].to);
    expect([...reachable].sort()).toEqual([...CLIP_STATUSES].sort());
    expect(availableActions('in_review')).toEqual(['approve', 'approve_override', 'request_changes']);
    expect(availableActions('approved')).toEqual(['reopen']);
  });

  it('finds the change request in force', () => {
    const ev = [
      { action: 'request_changes', note: 'a', by: 'rev', at: 1 },
      { action: 'submit', by: 'ann', at: 2 },
      { action: 'request_changes', note: 'b', by: 'rev', at: 3 },
    ];
    expect(openChangeRequest('changes_requested', ev)?.note).toBe('b');
    expect(openChangeRequest('in_review', ev)).toBeUndefined();
  });
});
