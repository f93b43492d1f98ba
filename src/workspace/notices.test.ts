import { beforeEach, describe, expect, it } from 'vitest';
import { noticeApplies, notify, useNotices } from './notices';

const texts = () => useNotices.getState().notices.map((n) => n.text);

describe('notices are scoped to the view and the user', () => {
  beforeEach(() => {
    useNotices.setState({ notices: [], scope: { view: 'projects', user: null } });
  });

  it("clears the reviewer's notice when the annotator takes over, keeping app-wide ones", () => {
    useNotices.getState().enter({ user: 'rita' });
    notify('error', 'Frame 7 is rejected: accept it (after the fix) or request changes instead of approving.');
    notify('warn', 'Storage is nearly full.', { appWide: true });
    useNotices.getState().enter({ user: 'ann' });
    expect(texts()).toEqual(['Storage is nearly full.']);
  });

  it('clears notices of the view left, not of frames within it', () => {
    notify('error', 'Import failed, nothing was saved.');
    useNotices.getState().enter({ view: 'projects' });
    expect(texts()).toEqual(['Import failed, nothing was saved.']);
    useNotices.getState().enter({ view: 'project:p1' });
    expect(texts()).toEqual([]);
  });

  it('keeps a notice raised before the user was known, for the user then known', () => {
    notify('error', 'Could not open the clip.');
    useNotices.getState().enter({ user: 'ann' });
    expect(texts()).toEqual(['Could not open the clip.']);
    expect(useNotices.getState().notices[0].scope).toEqual({ view: 'projects', user: 'ann' });
    useNotices.getState().enter({ user: 'bob' });
    expect(texts()).toEqual([]);
  });

  it('judges one notice against where the user is', () => {
    expect(noticeApplies(null, { view: 'clip:a', user: 'x' })).toBe(true);
    expect(noticeApplies({ view: 'clip:a', user: 'x' }, { view: 'clip:a', user: 'x' })).toBe(true);
    expect(noticeApplies({ view: 'clip:a', user: 'x' }, { view: 'clip:b', user: 'x' })).toBe(false);
    expect(noticeApplies({ view: 'clip:a', user: 'x' }, { view: 'clip:a', user: 'y' })).toBe(false);
    expect(noticeApplies({ view: 'clip:a', user: null }, { view: 'clip:a', user: 'y' })).toBe(true);
  });
});
