/**
 * A project's label schema (docs/objects.md "The label schema"): what kind of project it is, the
 * classes its objects may take (an ontology: a class may name a parent, a macro-class), the
 * attributes each class carries, and the hand classes VISOR annotates. Plain data, checked here,
 * so the store, bundles, importers and a sync server hold exactly the same rules.
 */

/**
 * `spoc`: objects carry the two states (actionable, transformed), today's workflow and figures.
 * `objects`: objects carry a class only (VISOR, DAVIS-style instance annotation).
 */
export const PROJECT_KINDS = ['spoc', 'objects'] as const;
export type ProjectKind = (typeof PROJECT_KINDS)[number];

export const ATTRIBUTE_KINDS = ['boolean', 'choice', 'text'] as const;
export type AttributeKind = (typeof ATTRIBUTE_KINDS)[number];

export interface AttributeDef {
  /** Stable within its class; what object rows key their values by. */
  id: string;
  name: string;
  kind: AttributeKind;
  /** The choices of a `choice` attribute (at least two, distinct). */
  options?: string[];
}

/** VISOR's hand entities; a glove worn on a hand counts as that hand (docs/objects.md "Relations", Gloves). */
export interface HandRole {
  side: 'left' | 'right';
  glove: boolean;
}

export interface LabelClass {
  /**
   * Stable within the project, never reused: objects name their class by it. Imported ontologies
   * keep their own ids ("12" for VISOR's class_id 12); classes made in the app get a fresh one.
   */
  id: string;
  name: string;
  /** `#rrggbb`. */
  colour: string;
  /** One key (a–z or 0–9) that makes this class the active one in the editor. */
  hotkey?: string;
  /** A macro-class: the id of another class of the schema (no cycles). */
  parentId?: string;
  attributes: AttributeDef[];
  hand?: HandRole;
}

export interface LabelSchema {
  kind: ProjectKind;
  classes: LabelClass[];
}

export const MAX_CLASSES = 5000;
export const MAX_NAME_LENGTH = 200;
const HOTKEY = /^[a-z0-9]$/;
const COLOUR = /^#[0-9a-f]{6}$/;

/** The four hand classes every objects project starts with, in VISOR's naming. */
export function handClasses(): LabelClass[] {
  const hands: [string, string, HandRole][] = [
    ['hand:left', 'left hand', { side: 'left', glove: false }],
    ['hand:right', 'right hand', { side: 'right', glove: false }],
    ['glove:left', 'left glove', { side: 'left', glove: true }],
    ['glove:right', 'right glove', { side: 'right', glove: true }],
  ];
  return hands.map(([id, name, hand], i) => ({ id, name, colour: HAND_COLOURS[i], attributes: [], hand }));
}

const HAND_COLOURS = ['#f4a261', '#e76f51', '#e9c46a', '#d4a373'];

/** The schema a new project of `kind` starts with: SPOC projects need no class; objects projects get the hands. */
export function defaultLabelSchema(kind: ProjectKind): LabelSchema {
  return { kind, classes: kind === 'objects' ? handClasses() : [] };
}

/** A project row written before schemas existed is a SPOC project with no classes. */
export function schemaOf(project: { labels?: LabelSchema }): LabelSchema {
  return project.labels ?? defaultLabelSchema('spoc');
}

/** A schema problem: `path` names the field ("classes[3].parentId"), `problem` says what is wrong. */
export class LabelSchemaError extends Error {
  override name = 'LabelSchemaError';
  constructor(
    readonly path: string,
    readonly problem: string,
  ) {
    super(`${path} ${problem}`);
  }
}

/**
 * Checks a schema from anywhere (a bundle, a file, the store) and returns a clean copy; throws
 * LabelSchemaError naming the first problem with its path ("classes[3].parentId").
 */
export function checkLabelSchema(value: unknown): LabelSchema {
  const o = record(value, 'schema');
  const kind = o.kind;
  if (!PROJECT_KINDS.includes(kind as ProjectKind)) fail('kind', `must be one of ${PROJECT_KINDS.join(', ')}, not ${show(kind)}`);
  if (!Array.isArray(o.classes)) fail('classes', 'must be a list');
  if (o.classes.length > MAX_CLASSES) fail('classes', `has ${o.classes.length} classes; at most ${MAX_CLASSES}`);
  const classes = o.classes.map((c, i) => checkClass(c, `classes[${i}]`));
  checkClassSet(classes);
  return { kind: kind as ProjectKind, classes };
}

function checkClass(value: unknown, path: string): LabelClass {
  const o = record(value, path);
  const c: LabelClass = {
    id: text(o.id, `${path}.id`),
    name: text(o.name, `${path}.name`),
    colour: typeof o.colour === 'string' ? o.colour.toLowerCase() : '',
    attributes: [],
  };
  if (!COLOUR.test(c.colour)) fail(`${path}.colour`, `must be #rrggbb, not ${show(o.colour)}`);
  if (o.hotkey !== undefined) {
    if (typeof o.hotkey !== 'string' || !HOTKEY.test(o.hotkey)) fail(`${path}.hotkey`, `must be one key a–z or 0–9, not ${show(o.hotkey)}`);
    c.hotkey = o.hotkey;
  }
  if (o.parentId !== undefined) c.parentId = text(o.parentId, `${path}.parentId`);
  if (o.hand !== undefined) {
    const h = record(o.hand, `${path}.hand`);
    if (h.side !== 'left' && h.side !== 'right') fail(`${path}.hand.side`, `must be left or right, not ${show(h.side)}`);
    if (typeof h.glove !== 'boolean') fail(`${path}.hand.glove`, 'must be true or false');
    c.hand = { side: h.side, glove: h.glove };
  }
  const attributes = o.attributes ?? [];
  if (!Array.isArray(attributes)) fail(`${path}.attributes`, 'must be a list');
  c.attributes = attributes.map((a, i) => checkAttribute(a, `${path}.attributes[${i}]`));
  const ids = new Set<string>();
  for (const [i, a] of c.attributes.entries()) {
    if (ids.has(a.id)) fail(`${path}.attributes[${i}].id`, `repeats ${show(a.id)}`);
    ids.add(a.id);
  }
  return c;
}

function checkAttribute(value: unknown, path: string): AttributeDef {
  const o = record(value, path);
  const a: AttributeDef = { id: text(o.id, `${path}.id`), name: text(o.name, `${path}.name`), kind: 'boolean' };
  if (!ATTRIBUTE_KINDS.includes(o.kind as AttributeKind)) fail(`${path}.kind`, `must be one of ${ATTRIBUTE_KINDS.join(', ')}, not ${show(o.kind)}`);
  a.kind = o.kind as AttributeKind;
  if (a.kind === 'choice') {
    if (!Array.isArray(o.options) || o.options.length < 2) fail(`${path}.options`, 'a choice needs at least two options');
    const options = o.options.map((x, i) => text(x, `${path}.options[${i}]`));
    if (new Set(options).size !== options.length) fail(`${path}.options`, 'repeats an option');
    a.options = options;
  } else if (o.options !== undefined) {
    fail(`${path}.options`, `only a choice attribute has options, not a ${a.kind} one`);
  }
  return a;
}

/** Rules across classes: unique ids, names and hotkeys; parents exist; no parent cycles. */
function checkClassSet(classes: LabelClass[]): void {
  const byId = new Map<string, LabelClass>();
  const names = new Map<string, string>();
  const hotkeys = new Map<string, string>();
  for (const [i, c] of classes.entries()) {
    if (byId.has(c.id)) fail(`classes[${i}].id`, `repeats ${show(c.id)}`);
    byId.set(c.id, c);
    const key = c.name.toLowerCase();
    const other = names.get(key);
    if (other !== undefined) fail(`classes[${i}].name`, `${show(c.name)} is also the name of class ${show(other)}`);
    names.set(key, c.id);
    if (c.hotkey !== undefined) {
      const holder = hotkeys.get(c.hotkey);
      if (holder !== undefined) fail(`classes[${i}].hotkey`, `${show(c.hotkey)} is already the key of class ${show(holder)}`);
      hotkeys.set(c.hotkey, c.id);
    }
  }
  for (const [i, c] of classes.entries()) {
    if (c.parentId === undefined) continue;
    if (!byId.has(c.parentId)) fail(`classes[${i}].parentId`, `names no class of the schema (${show(c.parentId)})`);
    const seen = new Set<string>([c.id]);
    for (let p = byId.get(c.parentId); p; p = p.parentId === undefined ? undefined : byId.get(p.parentId)) {
      if (seen.has(p.id)) fail(`classes[${i}].parentId`, `makes a cycle through ${show(p.id)}`);
      seen.add(p.id);
    }
  }
}

/** A class's chain of macro-classes, nearest first (the schema is checked: no cycles). */
export function ancestorsOf(schema: LabelSchema, classId: string): LabelClass[] {
  const byId = new Map(schema.classes.map((c) => [c.id, c]));
  const out: LabelClass[] = [];
  for (let c = byId.get(classId); c?.parentId !== undefined; ) {
    c = byId.get(c.parentId);
    if (!c) break;
    out.push(c);
  }
  return out;
}

function record(value: unknown, path: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(path, `must be an object, not ${show(value)}`);
  return value as Record<string, unknown>;
}

function text(value: unknown, path: string): string {
  if (typeof value !== 'string' || value.trim() === '') fail(path, `must be a non-empty text, not ${show(value)}`);
  if (value.length > MAX_NAME_LENGTH) fail(path, `is ${value.length} characters long; at most ${MAX_NAME_LENGTH}`);
  return value.trim();
}

function fail(path: string, problem: string): never {
  throw new LabelSchemaError(path, problem);
}

function show(v: unknown): string {
  const s = JSON.stringify(v);
  return s === undefined ? String(v) : s.length > 60 ? `${s.slice(0, 57)}...` : s;
}
