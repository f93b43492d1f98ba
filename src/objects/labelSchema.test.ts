import { describe, expect, it } from 'vitest';
import { ancestorsOf, checkLabelSchema, defaultLabelSchema, handClasses, LabelSchemaError, schemaOf } from './labelSchema';
import { classColour } from './colours';

const cls = (id: string, extra: Record<string, unknown> = {}) => ({ id, name: `class ${id}`, colour: '#112233', attributes: [], ...extra });

describe('label schema', () => {
  it('gives SPOC projects no classes and objects projects the four VISOR hands', () => {
    expect(defaultLabelSchema('spoc')).toEqual({ kind: 'spoc', classes: [] });
    const hands = defaultLabelSchema('objects').classes;
    expect(hands.map((c) => c.name)).toEqual(['left hand', 'right hand', 'left glove', 'right glove']);
    expect(hands.map((c) => c.hand)).toEqual([
      { side: 'left', glove: false },
      { side: 'right', glove: false },
      { side: 'left', glove: true },
      { side: 'right', glove: true },
    ]);
    expect(checkLabelSchema({ kind: 'objects', classes: handClasses() }).classes).toHaveLength(4);
  });

  it('reads a project written before schemas as a SPOC project', () => {
    expect(schemaOf({})).toEqual({ kind: 'spoc', classes: [] });
  });

  it('keeps a valid schema with parents, hotkeys and every attribute kind', () => {
    const schema = {
      kind: 'objects',
      classes: [
        cls('veg'),
        cls('carrot', { parentId: 'veg', hotkey: 'c', colour: '#AABBCC', attributes: [
          { id: 'peeled', name: 'peeled', kind: 'boolean' },
          { id: 'cut', name: 'cut', kind: 'choice', options: ['whole', 'halved', 'diced'] },
          { id: 'note', name: 'note', kind: 'text' },
        ] }),
      ],
    };
    const checked = checkLabelSchema(schema);
    expect(checked.classes[1].colour).toBe('#aabbcc');
    expect(checked.classes[1].attributes[1].options).toEqual(['whole', 'halved', 'diced']);
    expect(ancestorsOf(checked, 'carrot').map((c) => c.id)).toEqual(['veg']);
  });

  it.each([
    [{ kind: 'visor', classes: [] }, /^kind must be one of spoc, objects/],
    [{ kind: 'objects', classes: [cls('a'), cls('a')] }, /classes\[1\]\.id repeats "a"/],
    [{ kind: 'objects', classes: [cls('a'), { ...cls('b'), name: 'CLASS A' }] }, /classes\[1\]\.name "CLASS A" is also the name of class "a"/],
    [{ kind: 'objects', classes: [cls('a', { hotkey: 'x' }), cls('b', { hotkey: 'x' })] }, /classes\[1\]\.hotkey "x" is already the key of class "a"/],
    [{ kind: 'objects', classes: [cls('a', { hotkey: 'F1' })] }, /hotkey must be one key/],
    [{ kind: 'objects', classes: [cls('a', { parentId: 'zz' })] }, /parentId names no class of the schema \("zz"\)/],
    [{ kind: 'objects', classes: [cls('a', { parentId: 'b' }), cls('b', { parentId: 'a' })] }, /makes a cycle/],
    [{ kind: 'objects', classes: [cls('a', { colour: 'red' })] }, /colour must be #rrggbb, not "red"/],
    [{ kind: 'objects', classes: [cls('a', { attributes: [{ id: 'k', name: 'k', kind: 'choice', options: ['only'] }] })] }, /needs at least two options/],
    [{ kind: 'objects', classes: [cls('a', { attributes: [{ id: 'k', name: 'k', kind: 'text', options: ['x', 'y'] }] })] }, /only a choice attribute has options/],
    [{ kind: 'objects', classes: [cls('a', { attributes: [{ id: 'k', name: 'k', kind: 'text' }, { id: 'k', name: 'l', kind: 'text' }] })] }, /attributes\[1\]\.id repeats "k"/],
    [{ kind: 'objects', classes: [cls('a', { hand: { side: 'up', glove: false } })] }, /hand\.side must be left or right/],
    [{ kind: 'objects', classes: [{ ...cls('a'), name: '  ' }] }, /name must be a non-empty text/],
  ])('refuses %j naming the field', (schema, message) => {
    expect(() => checkLabelSchema(schema)).toThrow(LabelSchemaError);
    expect(() => checkLabelSchema(schema)).toThrow(message);
  });

  it('makes distinct, valid colours', () => {
    const colours = Array.from({ length: 300 }, (_, i) => classColour(i));
    for (const c of colours) expect(c).toMatch(/^#[0-9a-f]{6}$/);
    expect(new Set(colours).size).toBeGreaterThan(290);
  });
});
