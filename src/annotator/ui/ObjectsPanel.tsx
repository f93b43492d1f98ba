/**
 * The clip's objects in an objects project (docs/objects.md "The object list"): the list, the object
 * the tools paint (click a row; its class's key too), adding an object of a class, renaming and
 * reclassing one, hiding and locking objects, and colouring the canvas by object or by class
 * (objectView.ts gives the editor the colour of every object's map value, annotator/pixelCodec.ts).
 */
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import type { SpocDb } from '../../store/db';
import { createClipObject, listClipObjects, updateClipObject } from '../../store/objects';
import type { Clip, ClipObject } from '../../store/types';
import { schemaOf, type LabelSchema } from '../../objects/labelSchema';
import { notify, messageOf } from '../../workspace/notices';
import type { EditorSession, SessionState } from '../session/editorSession';
import { shownColour, type ObjectView } from './objectView';
import { ObjectFacts } from './contact/ObjectFacts';
import { ContactPicking } from './contact/ContactPicking';

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
  view: ObjectView;
}

export function ObjectsPanel({ db, clip, session, state, author, objects, schema, view }: Props) {
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

  const report = (p: Promise<unknown>) => void p.catch((err: unknown) => notify('error', messageOf(err)));

  return (
    <aside className="flex w-72 shrink-0 flex-col gap-2 overflow-y-auto border-l border-zinc-800 bg-zinc-900 p-2 text-sm" aria-label="Objects">
      <div className="flex items-center justify-between">
        <h2 className="font-semibold">Objects</h2>
        <label className="flex items-center gap-1 text-xs text-zinc-400">
          colour by
          <select aria-label="Colour objects by" className="rounded bg-zinc-950 px-1" value={view.colourBy} onChange={(e) => view.setColourBy(e.target.value === 'class' ? 'class' : 'object')}>
            <option value="object">object</option>
            <option value="class">class</option>
          </select>
        </label>
      </div>
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
            colour={shownColour(o, view.colourBy, schema)}
            schema={schema}
            known={o.classId === undefined || classes.has(o.classId)}
            active={o.id === activeId && state.activeClass !== 0}
            hidden={view.hidden.has(o.id)}
            locked={view.locked.has(o.id)}
            readOnly={state.readOnly}
            onPick={() => session.setClass(session.slotOf(o.id))}
            onRename={(name) => report(updateClipObject(db, o.id, { name }))}
            onReclass={(classId) => report(updateClipObject(db, o.id, { classId }))}
            onToggleHidden={() => view.toggleHidden(o.id)}
            onToggleLocked={() => view.toggleLocked(o.id)}
            facts={<ObjectFacts session={session} frameIndex={state.frameIndex} object={o} schema={schema} names={names} readOnly={state.readOnly} />}
          />
        ))}
      </ul>
    </aside>
  );
}

interface RowProps {
  object: ClipObject;
  colour: string;
  schema: LabelSchema;
  /** False when the object's class is no longer in the schema (kept, shown as unknown). */
  known: boolean;
  active: boolean;
  hidden: boolean;
  locked: boolean;
  readOnly: boolean;
  onPick: () => void;
  onRename: (name: string) => void;
  onReclass: (classId: string | null) => void;
  onToggleHidden: () => void;
  onToggleLocked: () => void;
  /** The object's facts on the shown frame (contact answer, exhaustive mark). */
  facts: ReactNode;
}

function ObjectRow({ object, colour, schema, known, active, hidden, locked, readOnly, onPick, onRename, onReclass, onToggleHidden, onToggleLocked, facts }: RowProps) {
  const [name, setName] = useState(object.name);
  const toggle = 'shrink-0 rounded px-1 text-xs hover:bg-zinc-700 aria-pressed:bg-zinc-700 aria-pressed:text-amber-300';
  return (
    <li
      data-testid="object-row"
      data-object-id={object.id}
      data-active={active ? 'true' : 'false'}
      data-hidden={hidden ? 'true' : 'false'}
      data-locked={locked ? 'true' : 'false'}
      className={`flex flex-col rounded px-1 py-0.5 ${active ? 'bg-sky-900' : 'hover:bg-zinc-800'} ${hidden ? 'opacity-60' : ''}`}
      onClick={onPick}
    >
      <div className="flex flex-wrap items-center gap-1">
        <span className="inline-block h-3 w-3 shrink-0 rounded-sm" style={{ background: colour }} />
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
        <button type="button" className={toggle} aria-pressed={hidden} aria-label={`${hidden ? 'Show' : 'Hide'} ${object.name}`} title="Hidden objects are not drawn and not painted over" onClick={(e) => (e.stopPropagation(), onToggleHidden())}>
          {hidden ? 'show' : 'hide'}
        </button>
        <button type="button" className={toggle} aria-pressed={locked} aria-label={`${locked ? 'Unlock' : 'Lock'} ${object.name}`} title="No tool changes a locked object's pixels" onClick={(e) => (e.stopPropagation(), onToggleLocked())}>
          {locked ? 'locked' : 'lock'}
        </button>
        <select
          aria-label={`Class of ${object.name}`}
          className="w-full rounded bg-zinc-950 px-1 text-xs text-zinc-400"
          value={object.classId ?? ''}
          disabled={readOnly}
          onClick={(e) => e.stopPropagation()}
          onChange={(e) => onReclass(e.target.value === '' ? null : e.target.value)}
        >
          <option value="">no class</option>
          {!known && <option value={object.classId}>unknown class {object.classId}</option>}
          {schema.classes.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </select>
      </div>
      {facts}
    </li>
  );
}
