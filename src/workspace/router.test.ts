import { describe, expect, it } from 'vitest';
import { hrefOf, parseRoute } from './router';

describe('routes', () => {
  it('round-trips every route', () => {
    for (const r of [
      { name: 'projects' },
      { name: 'project', projectId: 'a b/c' },
      { name: 'clip', clipId: 'x-1', frame: 12 },
    ] as const) {
      expect(parseRoute(hrefOf(r))).toEqual(r);
    }
  });

  it('falls back to the project list and frame 0 on junk', () => {
    expect(parseRoute('#/nowhere')).toEqual({ name: 'projects' });
    expect(parseRoute('')).toEqual({ name: 'projects' });
    expect(parseRoute('#/c/abc/-4')).toEqual({ name: 'clip', clipId: 'abc', frame: 0 });
  });
});
