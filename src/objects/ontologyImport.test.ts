import { describe, expect, it } from 'vitest';
import { defaultLabelSchema } from './labelSchema';
import { mergeOntology, OntologyError, parseOntology } from './ontologyImport';

/** The shape of EPIC-KITCHENS-100's noun classes (VISOR's ontology): quoted lists with commas in them. */
const EPIC_NOUNS = `id,key,instances,category
0,tap,"['tap', 'tap:water', 'water:tap']",appliances
1,spoon,"['spoon', 'spoon:wooden']",cutlery
2,plate,"['plate', 'plate:dinner']",crockery
3,knife,"['knife', 'knife:big']",cutlery
`;

describe('ontology import', () => {
  it('reads EPIC-KITCHENS noun classes: key is the name, category becomes a macro-class', () => {
    const classes = parseOntology(EPIC_NOUNS, 'EPIC_100_noun_classes.csv');
    expect(classes.slice(0, 4).map((c) => [c.id, c.name, c.parentId])).toEqual([
      ['0', 'tap', 'macro:appliances'],
      ['1', 'spoon', 'macro:cutlery'],
      ['2', 'plate', 'macro:crockery'],
      ['3', 'knife', 'macro:cutlery'],
    ]);
    expect(classes.slice(4).map((c) => [c.id, c.name])).toEqual([
      ['macro:appliances', 'appliances'],
      ['macro:cutlery', 'cutlery'],
      ['macro:crockery', 'crockery'],
    ]);
  });

  it('reads our own CSV layout with parents by id or by name, colours and hotkeys', () => {
    const csv = 'name,id,parent,colour,hotkey\nvegetable,veg,,,\ncarrot,c1,veg,ff0000,C\nonion,o1,vegetable,#00FF00,\n';
    const classes = parseOntology(csv, 'classes.csv');
    expect(classes.map((c) => [c.id, c.parentId, c.colour, c.hotkey])).toEqual([
      ['veg', undefined, expect.stringMatching(/^#[0-9a-f]{6}$/), undefined],
      ['c1', 'veg', '#ff0000', 'c'],
      ['o1', 'veg', '#00ff00', undefined],
    ]);
  });

  it('reads JSON lists of names or objects, and { classes }', () => {
    expect(parseOntology('["pan", "lid"]', 'a.json').map((c) => c.id)).toEqual(['pan', 'lid']);
    const classes = parseOntology(JSON.stringify({ classes: [{ class_id: 7, name: 'pan', supercategory: 'cookware', attributes: [{ id: 'hot', name: 'hot', kind: 'boolean' }] }] }), 'b.json');
    expect(classes[0]).toMatchObject({ id: '7', name: 'pan', parentId: 'macro:cookware', attributes: [{ id: 'hot', kind: 'boolean' }] });
  });

  it('names a macro-class that shares a class name apart', () => {
    const classes = parseOntology('name,category\noven,oven\nhob,oven\n', 'c.csv');
    expect(classes.map((c) => c.name)).toEqual(['oven', 'hob', 'oven (group)']);
  });

  it.each([
    ['', 'e.csv', /e\.csv: the file is empty/],
    ['name\n', 'e.csv', /e\.csv: no classes found/],
    ['id,colour\n1,#ffffff\n', 'e.csv', /e\.csv: no column names the class \(looked for name, key/],
    ['name\ncarrot\ncarrot\n', 'dup.csv', /dup\.csv line 3: the id "carrot" is used twice/],
    ['name,colour\ncarrot,blue\n', 'col.csv', /col\.csv line 2: the colour "blue" is not #rrggbb/],
    ['name,hotkey\na,x\nb,x\n', 'keys.csv', /keys\.csv line 3: hotkey "x" is already the key/],
    ['{"classes": 3}', 'bad.json', /bad\.json: expected a list of classes/],
    ['["a", {"name": ""}]', 'bad.json', /bad\.json class #2: the class has no name/],
    ['{nope', 'broken.json', /broken\.json: not valid JSON/],
  ])('refuses a bad file with its name and place (%#)', (text, file, message) => {
    expect(() => parseOntology(text, file)).toThrow(OntologyError);
    expect(() => parseOntology(text, file)).toThrow(message);
  });

  it('merges into a schema: keeps the hands, updates a class with the same id, refuses a clash', () => {
    const schema = mergeOntology(defaultLabelSchema('objects'), parseOntology(EPIC_NOUNS, 'n.csv'), 'n.csv');
    expect(schema.classes).toHaveLength(4 + 7);
    const again = mergeOntology(schema, parseOntology('id,name\n0,water tap\n', 'm.csv'), 'm.csv');
    expect(again.classes).toHaveLength(11);
    expect(again.classes.find((c) => c.id === '0')?.name).toBe('water tap');
    expect(() => mergeOntology(schema, parseOntology('id,name\nx9,spoon\n', 'clash.csv'), 'clash.csv')).toThrow(/clash\.csv: the classes do not fit the project's schema: .*"spoon" is also the name of class "1"/);
  });
});
