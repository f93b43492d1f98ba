import { describe, expect, it } from 'vitest';
import { clipNameProblem, nounProblem, oscNameProblem, safeNoun, safeSegment, safeVerb, uniqueName, verbProblem } from './clipNames';

describe('clip naming rules', () => {
  it('accepts one-word verbs and file-safe objects', () => {
    expect(oscNameProblem({ verb: 'grating', noun: 'sweet potato' })).toBeNull();
    expect(oscNameProblem({ verb: 'pre-cut', noun: 'carrot' })).toBeNull();
    expect(clipNameProblem('demo-grating-seed7')).toBeNull();
  });

  it('says in plain words what is wrong with a verb, an object or a clip name', () => {
    expect(verbProblem('  ')).toBe('The verb is empty; type one word, e.g. "mashing".');
    expect(verbProblem('cut_up')).toMatch(/^The verb "cut_up" must be one word \(no spaces or underscores\)/);
    expect(verbProblem('a/b')).toMatch(/^The verb "a\/b" contains a character not allowed in file names/);
    expect(nounProblem('')).toMatch(/^The object is empty/);
    expect(nounProblem('salt/pepper')).toMatch(/^The object "salt\/pepper" contains a character not allowed in file names .*<verb>_<noun>\.$/);
    expect(clipNameProblem('..')).toBe('The clip name ".." is "." or "..".');
    expect(clipNameProblem('x'.repeat(201))).toMatch(/is 201 characters long \(at most 200\)/);
  });

  it('rewrites unusable names for export, with a fallback when nothing is left', () => {
    expect(safeVerb('')).toBe('unknown');
    expect(safeVerb(' cut up_fine ')).toBe('cut-up-fine');
    expect(safeNoun('salt/pepper')).toBe('salt-pepper');
    expect(safeNoun('   ')).toBe('object');
    expect(safeSegment('a:b*?c.', 'clip')).toBe('a-b-c');
    expect(safeSegment('//', 'clip')).toBe('clip');
    expect(safeSegment('..', 'clip')).toBe('clip');
    expect(safeSegment('y'.repeat(300), 'clip')).toHaveLength(200);
  });

  it('makes names unique with -2, -3, ... ignoring case, deterministically', () => {
    const taken = new Set(['demo', 'demo-2']);
    expect(uniqueName('other', taken)).toBe('other');
    expect(uniqueName('Demo', taken)).toBe('Demo-3');
    expect(uniqueName('Demo', taken)).toBe('Demo-3');
    const long = 'z'.repeat(200);
    expect(uniqueName(long, new Set([long]))).toBe(`${'z'.repeat(198)}-2`);
  });
});
