/**
 * Class lists from files (docs/objects.md "Ontologies"): a CSV with a header, or JSON (a list of
 * classes, or `{ "classes": [...] }`). Column and field names are matched loosely so that the
 * lists people already have read as they are — EPIC-KITCHENS' noun classes (`id,key,instances,
 * category`, VISOR's ontology: `key` is the name, `category` the macro-class), or our own export
 * (`id,name,parent,colour,hotkey`). A macro-class named by a parent column that is not itself a
 * class of the list becomes one (id `macro:<name>`), so the hierarchy survives.
 */
import Papa from 'papaparse';
import { checkLabelSchema, LabelSchemaError, type AttributeDef, type LabelClass, type LabelSchema } from './labelSchema';
import { classColour } from './colours';

/** A problem in an ontology file, naming the file and where. */
export class OntologyError extends Error {
  override name = 'OntologyError';
}

/** Accepted names of each column / field, compared without case, spaces, dashes or underscores. */
const FIELDS = {
  id: ['id', 'classid', 'nounclass', 'nounid'],
  name: ['name', 'key', 'class', 'classname', 'label', 'noun'],
  parent: ['parent', 'parentid', 'category', 'macro', 'macroclass', 'supercategory', 'group'],
  colour: ['colour', 'color', 'rgb'],
  hotkey: ['hotkey', 'shortcut'],
} as const;
type Field = keyof typeof FIELDS;

interface RawClass {
  where: string;
  id?: string;
  name: string;
  parent?: string;
  colour?: string;
  hotkey?: string;
  attributes?: unknown;
}

/** The classes of an ontology file's text. Throws OntologyError naming `fileName` and the line or item. */
export function parseOntology(text: string, fileName: string): LabelClass[] {
  const body = text.replace(/^\uFEFF/, '');
  const first = body.trimStart()[0];
  if (first === undefined) throw new OntologyError(`${fileName}: the file is empty`);
  const raw = first === '[' || first === '{' ? readJson(body, fileName) : readCsv(body, fileName);
  if (raw.length === 0) throw new OntologyError(`${fileName}: no classes found`);
  return toClasses(raw, fileName);
}

/** The schema with the file's classes added: a class with an id already there is updated in place. */
export function mergeOntology(schema: LabelSchema, imported: readonly LabelClass[], fileName: string): LabelSchema {
  const byId = new Map(schema.classes.map((c) => [c.id, c]));
  const classes = schema.classes.map((c) => ({ ...c }));
  const index = new Map(classes.map((c, i) => [c.id, i]));
  for (const c of imported) {
    const old = byId.get(c.id);
    if (old) {
      classes[index.get(c.id)!] = { ...c, attributes: c.attributes.length > 0 ? c.attributes : old.attributes, ...(old.hand ? { hand: old.hand } : {}) };
    } else {
      index.set(c.id, classes.length);
      classes.push(c);
    }
  }
  try {
    return checkLabelSchema({ kind: schema.kind, classes });
  } catch (err) {
    if (err instanceof LabelSchemaError) throw new OntologyError(`${fileName}: the classes do not fit the project's schema: ${err.message}`);
    throw err;
  }
}

function readCsv(text: string, fileName: string): RawClass[] {
  const parsed = Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: 'greedy' });
  const bad = parsed.errors.find((e) => e.type !== 'Delimiter');
  if (bad) throw new OntologyError(`${fileName} line ${(bad.row ?? 0) + 2}: ${bad.message}`);
  const columns = columnsOf(parsed.meta.fields ?? []);
  if (columns.name === undefined) {
    throw new OntologyError(`${fileName}: no column names the class (looked for ${FIELDS.name.join(', ')}; found ${(parsed.meta.fields ?? []).join(', ') || 'no header'})`);
  }
  return parsed.data.map((row, i) => {
    const get = (f: Field): string | undefined => {
      const col = columns[f];
      const v = col === undefined ? undefined : row[col]?.trim();
      return v === '' ? undefined : v;
    };
    return { where: `${fileName} line ${i + 2}`, id: get('id'), name: get('name') ?? '', parent: get('parent'), colour: get('colour'), hotkey: get('hotkey') };
  });
}

function readJson(text: string, fileName: string): RawClass[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new OntologyError(`${fileName}: not valid JSON (${err instanceof Error ? err.message : String(err)})`);
  }
  const list = Array.isArray(value) ? value : (value as { classes?: unknown }).classes;
  if (!Array.isArray(list)) throw new OntologyError(`${fileName}: expected a list of classes, or an object with a "classes" list`);
  return list.map((item, i) => {
    const where = `${fileName} class #${i + 1}`;
    if (typeof item === 'string') return { where, name: item };
    if (typeof item !== 'object' || item === null) throw new OntologyError(`${where}: expected an object or a name, not ${JSON.stringify(item)}`);
    const o = item as Record<string, unknown>;
    const columns = columnsOf(Object.keys(o));
    const get = (f: Field): string | undefined => {
      const key = columns[f];
      const v = key === undefined ? undefined : o[key];
      return v === undefined || v === null || v === '' ? undefined : String(v).trim();
    };
    return { where, id: get('id'), name: get('name') ?? '', parent: get('parent'), colour: get('colour'), hotkey: get('hotkey'), attributes: o.attributes };
  });
}

function columnsOf(names: readonly string[]): Partial<Record<Field, string>> {
  const out: Partial<Record<Field, string>> = {};
  const squash = (s: string) => s.toLowerCase().replace(/[\s_-]/g, '');
  for (const f of Object.keys(FIELDS) as Field[]) {
    const found = names.find((n) => (FIELDS[f] as readonly string[]).includes(squash(n)));
    if (found !== undefined) out[f] = found;
  }
  return out;
}

function toClasses(raw: RawClass[], fileName: string): LabelClass[] {
  const classes: LabelClass[] = [];
  const idOfName = new Map<string, string>();
  const ids = new Set<string>();
  for (const r of raw) {
    if (r.name === '') throw new OntologyError(`${r.where}: the class has no name`);
    const id = r.id ?? r.name;
    if (ids.has(id)) throw new OntologyError(`${r.where}: the id ${JSON.stringify(id)} is used twice`);
    ids.add(id);
    idOfName.set(r.name.toLowerCase(), id);
  }
  // Parents: another class's id, else its name, else a macro-class of its own made here.
  const macros = new Map<string, LabelClass>();
  for (const r of raw) {
    const c: LabelClass = { id: r.id ?? r.name, name: r.name, colour: colourOf(r, classes.length), attributes: attributesOf(r) };
    if (r.hotkey !== undefined) c.hotkey = r.hotkey.toLowerCase();
    if (r.parent !== undefined) {
      // A category that is the class's own name ("oven" in category "oven") is a macro-class of that name.
      const parentId = ids.has(r.parent) ? r.parent : idOfName.get(r.parent.toLowerCase());
      if (parentId !== undefined && parentId !== c.id) {
        c.parentId = parentId;
      } else {
        const macroId = `macro:${r.parent}`;
        if (!macros.has(macroId)) macros.set(macroId, { id: macroId, name: r.parent, colour: '#888888', attributes: [] });
        c.parentId = macroId;
      }
    }
    classes.push(c);
  }
  const all = [...classes, ...[...macros.values()].map((m, i) => ({ ...m, colour: classColour(classes.length + i) }))];
  // Macro-class names may collide with a class's name (a category "oven" beside a class "oven").
  const names = new Set(classes.map((c) => c.name.toLowerCase()));
  for (const m of all.slice(classes.length)) if (names.has(m.name.toLowerCase())) m.name = `${m.name} (group)`;
  try {
    return checkLabelSchema({ kind: 'objects', classes: all }).classes;
  } catch (err) {
    if (err instanceof LabelSchemaError) throw new OntologyError(located(err.message, raw, fileName));
    throw err;
  }
}

/** "classes[2].hotkey is ..." → "keys.csv line 4: hotkey is ...". */
function located(message: string, raw: RawClass[], fileName: string): string {
  const m = /^classes\[(\d+)\]\.?(.*)$/s.exec(message);
  if (!m) return `${fileName}: ${message}`;
  const i = Number(m[1]);
  return `${raw[i]?.where ?? `${fileName} macro-class #${i - raw.length + 1}`}: ${m[2]}`;
}

function colourOf(r: RawClass, i: number): string {
  if (r.colour === undefined) return classColour(i);
  const hex = r.colour.startsWith('#') ? r.colour : `#${r.colour}`;
  if (/^#[0-9a-fA-F]{6}$/.test(hex)) return hex.toLowerCase();
  throw new OntologyError(`${r.where}: the colour ${JSON.stringify(r.colour)} is not #rrggbb`);
}

function attributesOf(r: RawClass): AttributeDef[] {
  if (r.attributes === undefined) return [];
  if (!Array.isArray(r.attributes)) throw new OntologyError(`${r.where}: "attributes" must be a list`);
  return r.attributes as AttributeDef[];
}
