/**
 * The clip's objects in an objects project (docs/objects.md "In the editor"): the list, the object
 * the tools paint (click a row; its class's key too), adding an object of a class, and renaming
 * one. Each object is drawn in its own colour on the canvas: `objectColours` gives the editor the
 * colour of every object's map value (annotator/pixelCodec.ts).
 */
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import type { SpocDb } from '../../store/db';
import { createClipObject, listClipObjects, updateClipObject } from '../../store/objects';
import type { Clip, ClipObject } from '../../store/types';
import { schemaOf, type LabelSchema } from '../../objects/labelSchema';
import { classColour } from '../../objects/colours';
import { notify, messageOf } from '../../workspace/notices';
import type { EditorSession, SessionState } from '../session/editorSession';
import { UNASSIGNED } from '../pixelCodec';
import { ObjectFacts } from './contact/ObjectFacts';
import { ContactPicking } from './contact/ContactPicking';

/** Annotated pixels no object owns (masks made before the clip had objects). */
const UNASSIGNED_COLOUR = '#a1a1aa';

/** Each object's colour: distinct per object, so two objects of one class stay apart. */
export function objectColour(o: Pick<ClipObject, 'number'>): string {
  return classColour(o.number - 1);
}

/** The canvas colours of an objects session: each object's slot, and the unassigned pixels. */
export function objectColours(session: EditorSession, objects: readonly ClipObject[]): Record<number, string> {
  const out: Record<number, string> = { [UNASSIGNED]: UNASSIGNED_COLOUR };
  for (const o of objects) out[session.slotOf(o.id)] = objectColour(o);
  return out;
}

/** The clip's objects (removed ones left out) and the project's schema, live. */
export function useClipObjects(db: SpocDb, clip: Clip): { objects: ClipObject[]; schema: LabelSchema } | null {
  return (
    useLiveQuery(async () => {
      const [objects, project] = await Promise.all([listClipObjects(db, clip.id), db.projects.get(clip.projectId)]);
      return { objects, schema: schemaOf(project ?? {}) };
    }, [db, clip.id, clip.projectId]) ?? null
  );
}

interface Props {
  db: SpocDb;
  clip: Clip;
  session: EditorSession;
  state: SessionState;
  author: () => string;
  objects: readonly ClipObject[];
  schema: LabelSchema;
}

export function ObjectsPanel({ db, clip, session, state, author, objects, schema }: Props) {
  const [classId, setClassId] = useState('');
  const classes = useMemo(() => new Map(schema.classes.map((c) => [c.id, c])), [schema]);
  const names = useMemo(() => new Map(objects.map((o) => [o.id, o.name])), [objects]);
  const activeId = session.objectOf(state.activeClass);

  // The first object is the one painted until someone picks another.
  useEffect(() => {
    if (activeId === undefined && state.activeClass !== 0 && objects.length > 0) session.setClass(session.slotOf(objects[0].id));
  }, [activeId, objects, session, state.activeClass]);

  const add = async () => {
    try {
      const o = await createClipObject(db, { clipId: clip.id, by: author(), ...(classId ? { classId } : {}) });
      session.setClass(session.slotOf(o.id));
    } catch (err) {
      notify('error', messageOf(err));
    }
  };

  return (
    <aside className="flex w-60 shrink-0 flex-col gap-2 overflow-y-auto border-l border-zinc-800 bg-zinc-900 p-2 text-sm" aria-label="Objects">
      <h2 className="font-semibold">Objects</h2>
      <ContactPicking session={session} objects={objects} schema={schema} readOnly={state.readOnly} />
      <form
        className="flex gap-1"
        onSubmit={(e) => {
          e.preventDefault();
          void add();
        }}
      >
        <select aria-label="Class of the new object" className="min-w-0 flex-1 rounded bg-zinc-950 px-1 py-1" value={classId} onChange={(e) => setClassId(e.target.value)}>
          <option value="">no class</option>
          {schema.classes.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </select>
        <button className="rounded bg-zinc-800 px-2 py-1 hover:bg-zinc-700 disabled:opacity-50" disabled={state.readOnly}>
          Add object
        </button>
      </form>
      {objects.length === 0 && <p className="text-xs text-zinc-500">No objects yet: add one, then paint it.</p>}
      <ul className="flex flex-col gap-0.5" data-testid="object-list">
        {objects.map((o) => (
          <ObjectRow
            key={`${o.id}\u0000${o.name}`}
            object={o}
            className={o.classId === undefined ? undefined : classes.get(o.classId)?.name}
            active={o.id === activeId && state.activeClass !== 0}
            onPick={() => session.setClass(session.slotOf(o.id))}
            onRename={(name) => void updateClipObject(db, o.id, { name }).catch((err: unknown) => notify('error', messageOf(err)))}
            facts={<ObjectFacts session={session} frameIndex={state.frameIndex} object={o} schema={schema} names={names} readOnly={state.readOnly} />}
          />
        ))}
      </ul>
    </aside>
  );
}

interface RowProps {
  object: ClipObject;
  className: string | undefined;
  active: boolean;
  onPick: () => void;
  onRename: (name: string) => void;
  /** The object's facts on the shown frame (contact answer, exhaustive mark). */
  facts: ReactNode;
}

function ObjectRow({ object, className, active, onPick, onRename, facts }: RowProps) {
  const [name, setName] = useState(object.name);
  return (
    <li
      data-testid="object-row"
      data-object-id={object.id}
      data-active={active ? 'true' : 'false'}
      className={`flex flex-col rounded px-1 py-0.5 ${active ? 'bg-sky-900' : 'hover:bg-zinc-800'}`}
      onClick={onPick}
    >
      <div className="flex items-center gap-2">
        <span className="inline-block h-3 w-3 shrink-0 rounded-sm" style={{ background: objectColour(object) }} />
        <input
          aria-label={`Name of ${object.name}`}
          className="min-w-0 flex-1 rounded bg-transparent px-1 focus:bg-zinc-950"
          value={name}
          onChange={(e) => setName(e.target.value)}
          onBlur={() => (name.trim() && name.trim() !== object.name ? onRename(name.trim()) : setName(object.name))}
          onKeyDown={(e) => {
            e.stopPropagation(); // typing a name is not a shortcut
            if (e.key === 'Enter') (e.target as HTMLInputElement).blur();
          }}
        />
        {className && <span className="shrink-0 text-xs text-zinc-500">{className}</span>}
      </div>
      {facts}
    </li>
  );
}
