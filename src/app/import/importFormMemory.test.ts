import { describe, expect, it } from 'vitest';
import { defaultImportForm, importFormKey, loadImportForm, saveImportForm } from './importFormMemory';

function memoryStorage(): Pick<Storage, 'getItem' | 'setItem'> & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return { data, getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v) };
}

describe('import form memory', () => {
  it('gives back what was chosen for the project, and nothing of another project', () => {
    const storage = memoryStorage();
    const dog = { verb: 'washing', noun: 'dog', actionable: 'dirty fur', transformed: 'clean fur', fps: 5 };
    saveImportForm(storage, 'p1', dog);
    expect(loadImportForm(storage, 'p1', 1)).toEqual(dog);
    expect(loadImportForm(storage, 'p2', 2)).toEqual(defaultImportForm(2));
  });

  it('starts with an empty object, not a carrot nobody chose', () => {
    expect(loadImportForm(memoryStorage(), 'p', 1)).toEqual({ verb: 'grating', noun: '', actionable: '', transformed: '', fps: 1 });
  });

  it('falls back field by field on malformed or refused storage', () => {
    const storage = memoryStorage();
    storage.data.set(importFormKey('p'), JSON.stringify({ verb: 'peeling', noun: 7, fps: 1e9 }));
    expect(loadImportForm(storage, 'p', 1)).toEqual({ verb: 'peeling', noun: '', actionable: '', transformed: '', fps: 1 });
    storage.data.set(importFormKey('p'), '{not json');
    expect(loadImportForm(storage, 'p', 3)).toEqual(defaultImportForm(3));
    const refusing = { getItem: () => { throw new Error('denied'); }, setItem: () => { throw new Error('quota'); } };
    expect(loadImportForm(refusing, 'p', 1)).toEqual(defaultImportForm(1));
    expect(() => saveImportForm(refusing, 'p', defaultImportForm(1))).not.toThrow();
    expect(loadImportForm(null, 'p', 1)).toEqual(defaultImportForm(1));
  });
});
