/** The server project as the CLI reads it: clips in the team's trash are left out, as the app's exports leave them out. */
import { describe, expect, it } from 'vitest';
import type { PulledChange } from '../../src/sync/protocol';
import { serverClips } from './serverProject';

const clip = (id: string, name: string, over: Record<string, unknown> = {}): PulledChange => ({
  kind: 'clip',
  id,
  cursor: '1',
  by: 'mgr',
  row: { id, name, width: 4, height: 3, frameCount: 2, sampleFps: 1, ...over },
});
const frame = (clipId: string, index: number): PulledChange => ({ kind: 'frame', id: `${clipId}/${index}`, cursor: '2', by: 'mgr', row: { clipId, index, timestampSec: index } });

describe('serverClips', () => {
  it('leaves out the clips a manager moved to the trash, with their rows', () => {
    const rows = [clip('c1', 'kept'), clip('c2', 'trashed', { deletedAt: 1234 }), frame('c1', 0), frame('c2', 0)];
    const clips = serverClips(rows);
    expect(clips.map((c) => c.clip.name)).toEqual(['kept']);
    expect(clips[0].frames.map((f) => f.index)).toEqual([0, 1]);
  });
});
