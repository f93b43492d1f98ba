/**
 * Edits of a label schema as pure functions (the project page's class list calls them and stores
 * the result with updateProject): each returns a new, checked schema or throws LabelSchemaError
 * saying what rule the edit would break. Classes keep their ids for ever: objects name them.
 */
import Papa from 'papaparse';
import { checkLabelSchema, LabelSchemaError, type LabelClass, type LabelSchema } from './labelSchema';
import { classColour } from './colours';

/** Adds a class named `name`; its id is the name made into a slug, numbered if that is taken. */
export function addClass(schema: LabelSchema, name: string, parentId?: string): LabelSchema {
  const trimmed = name.trim();
  nameFree(schema, trimmed);
  const base = `c:${trimmed.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'class'}`;
  const taken = new Set(schema.classes.map((c) => c.id));
  let id = base;
  for (let k = 2; taken.has(id); k++) id = `${base}-${k}`;
  const added: LabelClass = { id, name: trimmed, colour: classColour(schema.classes.length), attributes: [], ...(parentId ? { parentId } : {}) };
  return checkLabelSchema({ ...schema, classes: [...schema.classes, added] });
}

export type ClassChange = Partial<Pick<LabelClass, 'name' | 'colour' | 'hotkey' | 'parentId' | 'attributes'>>;

/** Changes fields of one class; `hotkey: ''` / `parentId: ''` take them away. */
export function changeClass(schema: LabelSchema, id: string, change: ClassChange): LabelSchema {
  if (!schema.classes.some((c) => c.id === id)) throw new LabelSchemaError('classes', `have no class ${JSON.stringify(id)}`);
  if (change.name !== undefined) nameFree(schema, change.name.trim(), id);
  if (change.hotkey) {
    const holder = schema.classes.find((c) => c.hotkey === change.hotkey && c.id !== id);
    if (holder) throw new LabelSchemaError(`The key "${change.hotkey}"`, `is already the key of "${holder.name}"`);
  }
  const classes = schema.classes.map((c) => {
    if (c.id !== id) return c;
    const next: LabelClass = { ...c, ...change };
    if (change.hotkey === '') delete next.hotkey;
    if (change.parentId === '') delete next.parentId;
    return next;
  });
  return checkLabelSchema({ ...schema, classes });
}

/**
 * Removes a class. Refused while objects use it (`inUse`): their class would dangle. Its children
 * move up to its own parent, so the rest of the ontology keeps its shape.
 */
export function removeClass(schema: LabelSchema, id: string, inUse: number): LabelSchema {
  const gone = schema.classes.find((c) => c.id === id);
  if (!gone) throw new LabelSchemaError('classes', `have no class ${JSON.stringify(id)}`);
  if (inUse > 0) throw new LabelSchemaError(`class "${gone.name}"`, `is the class of ${inUse} ${inUse === 1 ? 'object' : 'objects'}; give them another class first`);
  const classes = schema.classes
    .filter((c) => c.id !== id)
    .map((c) => {
      if (c.parentId !== id) return c;
      const { parentId: _p, ...rest } = c;
      return gone.parentId === undefined ? rest : { ...rest, parentId: gone.parentId };
    });
  return checkLabelSchema({ ...schema, classes });
}

/** The edits' own check of a name, saying it in the user's words (the schema check names fields and ids). */
function nameFree(schema: LabelSchema, name: string, except?: string): void {
  const holder = schema.classes.find((c) => c.id !== except && c.name.toLowerCase() === name.toLowerCase());
  if (holder) throw new LabelSchemaError(`The name "${name}"`, `is taken by another class${holder.name === name ? '' : ` ("${holder.name}")`}`);
}

/** The classes as CSV in the layout ontologyImport reads back unchanged (id, name, parent, colour, hotkey). */
export function classesCsv(schema: LabelSchema): string {
  return Papa.unparse({
    fields: ['id', 'name', 'parent', 'colour', 'hotkey'],
    data: schema.classes.map((c) => [c.id, c.name, c.parentId ?? '', c.colour, c.hotkey ?? '']),
  });
}
