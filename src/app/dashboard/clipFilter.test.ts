import { describe, expect, it } from 'vitest';
import { filterClips, NO_FILTER, peopleOf } from './clipFilter';
import type { Clip } from '../../store/types';

const clip = (name: string, verb: string, noun: string, status: Clip['status'], subset: Clip['subset']): Clip => ({
  id: name,
  projectId: 'p',
  name,
  createdAt: 0,
  updatedAt: 0,
  width: 10,
  height: 10,
  frameCount: 3,
  sampleFps: 1,
  source: { kind: 'images', fileName: `${name}.zip` },
  osc: { verb, noun, actionable: `whole ${noun}`, transformed: `${verb} ${noun}` },
  subset,
  status,
});

const clips = [
  clip('v1', 'grating', 'carrot', 'todo', 'seen'),
  clip('v2', 'peeling', 'kiwi', 'approved', 'novel'),
  clip('v3', 'grating', 'coconut', 'in_progress', 'novel'),
];

describe('clip filter', () => {
  it('passes everything without a filter', () => {
    expect(filterClips(clips, NO_FILTER)).toHaveLength(3);
  });
  it('filters by verb, status and subset together', () => {
    expect(filterClips(clips, { ...NO_FILTER, verb: 'grating' }).map((c) => c.id)).toEqual(['v1', 'v3']);
    expect(filterClips(clips, { ...NO_FILTER, verb: 'grating', subset: 'novel' }).map((c) => c.id)).toEqual(['v3']);
    expect(filterClips(clips, { ...NO_FILTER, status: 'approved' }).map((c) => c.id)).toEqual(['v2']);
  });
  it('searches every word in names and descriptions, case-insensitively', () => {
    expect(filterClips(clips, { ...NO_FILTER, text: 'WHOLE carrot' }).map((c) => c.id)).toEqual(['v1']);
    expect(filterClips(clips, { ...NO_FILTER, text: 'kiwi grating' })).toEqual([]);
  });
  it('filters by person: the assignee or the last review actor', () => {
    const withPeople = [{ ...clips[0], assignee: 'ann' }, clips[1], { ...clips[2], assignee: 'bob' }];
    const last = new Map([
      ['v1', 'rev'],
      ['v2', 'rev'],
    ]);
    expect(peopleOf(withPeople, last)).toEqual(['ann', 'bob', 'rev']);
    expect(filterClips(withPeople, { ...NO_FILTER, person: 'rev' }, last).map((c) => c.id)).toEqual(['v1', 'v2']);
    expect(filterClips(withPeople, { ...NO_FILTER, person: 'ann' }, last).map((c) => c.id)).toEqual(['v1']);
    expect(filterClips(withPeople, { ...NO_FILTER, person: 'bob', status: 'todo' }, last)).toEqual([]);
    // Without review history, only assignees count.
    expect(filterClips(withPeople, { ...NO_FILTER, person: 'rev' })).toEqual([]);
    // '' is "nobody assigned", whoever reviewed it last.
    expect(filterClips(withPeople, { ...NO_FILTER, person: '' }, last).map((c) => c.id)).toEqual(['v2']);
  });
});
