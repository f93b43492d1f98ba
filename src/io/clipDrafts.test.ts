import { describe, expect, it } from 'vitest';
import type { ClipImportDraft } from '../store/importCommit';
import { clipDraft, nameDraftsApart, namedFrames, oscChoiceProblem } from './clipDrafts';

const frame = (k: number) => ({ timestampSec: k, image: new Blob([]), mime: 'image/jpeg' });

describe('namedFrames', () => {
  it('names frames after their file stems', () => {
    const out = namedFrames([frame(0), frame(1)], [{ path: 'v1/frame0001.jpg' }, { path: 'v1/frame0002.jpg' }]);
    expect(out.map((f) => f.name)).toEqual(['frame0001', 'frame0002']);
  });

  it('names none when any stem cannot be a name (they would fall back to positions and could collide)', () => {
    const out = namedFrames([frame(0), frame(1)], [{ path: 'v1/frame0001.jpg' }, { path: 'v1/ b.jpg' }]);
    expect(out.map((f) => f.name)).toEqual([undefined, undefined]);
    const dup = namedFrames([frame(0), frame(1)], [{ path: 'a/X.jpg' }, { path: 'a/x.png' }]);
    expect(dup.map((f) => f.name)).toEqual([undefined, undefined]);
  });
});

function videoDraft(fileName: string): ClipImportDraft {
  const name = fileName.replace(/\.[^.]+$/, '');
  return clipDraft({ projectId: 'p', author: 'me' }, { verb: 'grating', noun: 'carrot' }, {
    name,
    width: 4,
    height: 4,
    sampleFps: 1,
    source: { kind: 'video', fileName },
    frames: [frame(0)],
  });
}

describe('names at import', () => {
  it('refuses "other…" with an empty verb name, a verb of two words and an object with "/"', () => {
    expect(oscChoiceProblem({ verb: '', noun: 'potato' })).toBe('The verb is empty; type one word, e.g. "mashing".');
    expect(oscChoiceProblem({ verb: 'mash up', noun: 'potato' })).toMatch(/must be one word/);
    expect(oscChoiceProblem({ verb: 'mashing', noun: 'salt/pepper' })).toMatch(/^The object "salt\/pepper" contains a character not allowed/);
    expect(oscChoiceProblem({ verb: 'mashing', noun: 'sweet potato' })).toBeNull();
  });

  it('names the same video imported twice apart from the project and from each other, saying so', () => {
    const taken = new Set(['demo']);
    const drafts = [videoDraft('demo.webm'), videoDraft('Demo.webm'), videoDraft('other.webm')];
    const remarks = nameDraftsApart(drafts, taken);
    expect(drafts.map((d) => d.clip.name)).toEqual(['demo-2', 'Demo-3', 'other']);
    expect(remarks).toEqual([
      'A clip named "demo" is already in this project, so the clip from "demo.webm" is named "demo-2". If the same file was imported twice by mistake, move one to the trash from its card.',
      'A clip named "Demo" is already in this project, so the clip from "Demo.webm" is named "Demo-3". If the same file was imported twice by mistake, move one to the trash from its card.',
    ]);
    expect(taken).toEqual(new Set(['demo', 'demo-2', 'demo-3', 'other']));
  });

  it('makes a clip name usable as a file name', () => {
    const d = videoDraft('a:b.webm');
    expect(nameDraftsApart([d], new Set())).toEqual(['The clip name "a:b" contains a character not allowed in file names (/ \\ : * ? " < > | or a control character). The clip from "a:b.webm" is named "a-b" instead.']);
    expect(d.clip.name).toBe('a-b');
  });
});
