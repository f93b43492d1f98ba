import { describe, expect, it } from 'vitest';
import { defaultLabelSchema, type LabelSchema } from './labelSchema';
import { parseOntology } from './ontologyImport';
import { addClass, changeClass, classesCsv, removeClass } from './schemaEdit';

describe('schema edits', () => {
  it('adds classes with slug ids, numbered when taken', () => {
    let s = addClass(defaultLabelSchema('objects'), 'Chopping board');
    s = addClass(s, 'chopping  board!'.replace('!', ''), 'c:chopping-board');
    expect(s.classes.slice(4).map((c) => [c.id, c.name, c.parentId])).toEqual([
      ['c:chopping-board', 'Chopping board', undefined],
      ['c:chopping-board-2', 'chopping  board', 'c:chopping-board'],
    ]);
    expect(() => addClass(s, 'LEFT HAND')).toThrow('The name "LEFT HAND" is taken by another class ("left hand")');
  });

  it('changes and clears fields, and refuses what breaks a rule', () => {
    let s = addClass(defaultLabelSchema('objects'), 'pan');
    s = changeClass(s, 'c:pan', { hotkey: 'p', colour: '#ABCDEF', parentId: 'hand:left' });
    expect(s.classes[4]).toMatchObject({ hotkey: 'p', colour: '#abcdef', parentId: 'hand:left' });
    s = changeClass(s, 'c:pan', { hotkey: '', parentId: '' });
    expect(s.classes[4].hotkey).toBeUndefined();
    expect(s.classes[4].parentId).toBeUndefined();
    expect(() => changeClass(s, 'c:pan', { parentId: 'c:pan' })).toThrow(/cycle/);
    expect(() => changeClass(s, 'nope', { name: 'x' })).toThrow(/have no class "nope"/);
    s = changeClass(s, 'hand:left', { hotkey: 'l' });
    expect(() => changeClass(s, 'c:pan', { hotkey: 'l' })).toThrow('The key "l" is already the key of "left hand"');
    expect(() => changeClass(s, 'c:pan', { name: 'right hand' })).toThrow('The name "right hand" is taken by another class');
  });

  it('removes an unused class and moves its children up to its parent', () => {
    const s: LabelSchema = {
      kind: 'objects',
      classes: [
        { id: 'food', name: 'food', colour: '#000001', attributes: [] },
        { id: 'veg', name: 'veg', colour: '#000002', attributes: [], parentId: 'food' },
        { id: 'carrot', name: 'carrot', colour: '#000003', attributes: [], parentId: 'veg' },
      ],
    };
    expect(removeClass(s, 'veg', 0).classes.map((c) => [c.id, c.parentId])).toEqual([['food', undefined], ['carrot', 'food']]);
    expect(() => removeClass(s, 'carrot', 3)).toThrow(/class "carrot" is the class of 3 objects; give them another class first/);
  });

  it('writes CSV that the ontology import reads back to the same classes', () => {
    const s = changeClass(addClass(addClass(defaultLabelSchema('objects'), 'board, wooden'), 'pan "big"', 'c:board-wooden'), 'c:pan-big', { hotkey: '7' });
    const back = parseOntology(classesCsv(s), 'classes.csv');
    expect(back.map(({ id, name, parentId, colour, hotkey }) => ({ id, name, parentId, colour, hotkey }))).toEqual(
      s.classes.map(({ id, name, parentId, colour, hotkey }) => ({ id, name, parentId, colour, hotkey })),
    );
  });
});
