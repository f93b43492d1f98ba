/**
 * A clip's objects (schema v9, table `objects`, docs/objects.md): make, rename, reclass and remove
 * them. Their pixels are the layers' business (Layer.objects, written by the editor's edits);
 * these rows are the objects' identity. Removing keeps the row (`deletedAt`) so its id goes on
 * naming it in the history, in relations and in text attached later.
 */
import type { SpocDb } from './db';
import { notFound, StoreError } from './errors';
import { newId } from './ids';
import { clipObjectRows } from './keys';
import { RecordCheck, checkClipObject } from './records';
import { schemaOf } from '../objects/labelSchema';
import type { ClipObject } from './types';

export interface NewClipObject {
  clipId: string;
  /** Who makes it (the signed-in user, or the name in force). */
  by: string;
  classId?: string;
  /** Defaults to the class's name (or "object") and the object's number: "carrot 2". */
  name?: string;
  attributes?: Record<string, boolean | string>;
  /** Kept when given (an importer's, or another machine's, object). */
  id?: string;
  at?: number;
}

export interface ClipObjectPatch {
  name?: string;
  /** `null` takes the class away. */
  classId?: string | null;
  attributes?: Record<string, boolean | string>;
}

/** The clip's objects by number; removed ones only when asked. */
export async function listClipObjects(db: SpocDb, clipId: string, withRemoved = false): Promise<ClipObject[]> {
  const rows = await clipObjectRows(db, clipId).toArray();
  return rows.filter((o) => withRemoved || o.deletedAt === undefined).sort((a, b) => a.number - b.number || (a.id < b.id ? -1 : 1));
}

export async function createClipObject(db: SpocDb, input: NewClipObject): Promise<ClipObject> {
  return db.transaction('rw', [db.projects, db.clips, db.objects], async () => {
    const clip = await db.clips.get(input.clipId);
    if (!clip) throw notFound('Clip');
    const schema = schemaOf((await db.projects.get(clip.projectId)) ?? {});
    const cls = input.classId === undefined ? undefined : schema.classes.find((c) => c.id === input.classId);
    if (input.classId !== undefined && !cls) throw new StoreError('invalid', `The project has no class ${JSON.stringify(input.classId)}.`);
    const numbers = (await clipObjectRows(db, clip.id).toArray()).map((o) => o.number);
    const number = numbers.length === 0 ? 1 : Math.max(...numbers) + 1;
    const at = input.at ?? Date.now();
    const row = checkClipObject(
      new RecordCheck('The object'),
      {
        id: input.id ?? newId(),
        clipId: clip.id,
        number,
        name: input.name?.trim() || `${cls?.name ?? 'object'} ${number}`,
        ...(input.classId === undefined ? {} : { classId: input.classId }),
        ...(input.attributes === undefined ? {} : { attributes: input.attributes }),
        createdAt: at,
        createdBy: input.by.trim(),
        updatedAt: at,
      },
      '',
      clip,
      'input',
    );
    if (cls) checkAttributes(row, cls.attributes);
    if (await db.objects.get(row.id)) throw new StoreError('invalid', `An object with id ${row.id} exists already.`);
    await db.objects.add(row);
    return row;
  });
}

export async function updateClipObject(db: SpocDb, id: string, patch: ClipObjectPatch, at = Date.now()): Promise<ClipObject> {
  return db.transaction('rw', [db.projects, db.clips, db.objects], async () => {
    const current = await db.objects.get(id);
    if (!current) throw notFound('Object');
    const clip = await db.clips.get(current.clipId);
    if (!clip) throw notFound('Clip');
    const schema = schemaOf((await db.projects.get(clip.projectId)) ?? {});
    const { classId: _old, attributes: kept, ...rest } = current;
    const classId = patch.classId === null ? undefined : (patch.classId ?? current.classId);
    const cls = classId === undefined ? undefined : schema.classes.find((c) => c.id === classId);
    if (classId !== undefined && !cls && patch.classId !== undefined) throw new StoreError('invalid', `The project has no class ${JSON.stringify(classId)}.`);
    // A new class keeps only the values that fit its own attributes (the others meant the old class).
    const attributes = patch.attributes ?? (classId === current.classId ? kept : fittingValues(kept, cls?.attributes ?? []));
    const next = checkClipObject(
      new RecordCheck('The object'),
      {
        ...rest,
        ...(classId === undefined ? {} : { classId }),
        name: patch.name === undefined ? current.name : patch.name.trim(),
        ...(attributes === undefined || Object.keys(attributes).length === 0 ? {} : { attributes }),
        updatedAt: at,
      },
      '',
      clip,
      'input',
    );
    if (cls && patch.attributes !== undefined) checkAttributes(next, cls.attributes);
    await db.objects.put(next);
    return next;
  });
}

/** Marks an object removed (its row stays for the history); `restore` brings it back. */
export async function removeClipObject(db: SpocDb, id: string, at = Date.now(), restore = false): Promise<ClipObject> {
  return db.transaction('rw', db.objects, async () => {
    const current = await db.objects.get(id);
    if (!current) throw notFound('Object');
    const { deletedAt: _gone, ...rest } = current;
    const next: ClipObject = restore ? { ...rest, updatedAt: at } : { ...current, deletedAt: at, updatedAt: at };
    await db.objects.put(next);
    return next;
  });
}

type AttributeDef = { id: string; name: string; kind: string; options?: string[] };

function fits(def: AttributeDef, value: boolean | string): boolean {
  return def.kind === 'boolean' ? typeof value === 'boolean' : typeof value === 'string' && (def.kind === 'text' || (def.options ?? []).includes(value));
}

/** The values of `values` that name an attribute of `defs` and fit its kind. */
function fittingValues(values: Record<string, boolean | string> | undefined, defs: readonly AttributeDef[]): Record<string, boolean | string> | undefined {
  if (values === undefined) return undefined;
  return Object.fromEntries(Object.entries(values).filter(([key, value]) => defs.some((d) => d.id === key && fits(d, value))));
}

/** Values must name the class's attributes and fit their kinds. */
function checkAttributes(row: ClipObject, defs: readonly AttributeDef[]): void {
  for (const [key, value] of Object.entries(row.attributes ?? {})) {
    const def = defs.find((d) => d.id === key);
    if (!def) throw new StoreError('invalid', `The object's class has no attribute ${JSON.stringify(key)}.`);
    if (!fits(def, value)) throw new StoreError('invalid', `The value ${JSON.stringify(value)} does not fit the ${def.kind} attribute "${def.name}"${def.options ? ` (one of ${def.options.join(', ')})` : ''}.`);
  }
}
