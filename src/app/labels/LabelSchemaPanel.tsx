/**
 * The project's label schema on its page (docs/objects.md "The label schema"): the project's kind,
 * its classes (colour, name, hotkey, macro-class), adding and removing classes, importing an
 * ontology file (CSV or JSON, e.g. EPIC-KITCHENS' noun classes) and downloading the classes as CSV.
 * Every change goes through the pure edits of src/objects and is stored whole by updateProject.
 */
import { useMemo, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { useDb } from '../../workspace/db';
import { notify, messageOf } from '../../workspace/notices';
import { downloadBlob } from '../../workspace/download';
import { updateProject } from '../../store/projects';
import { schemaOf, type LabelClass, type LabelSchema } from '../../objects/labelSchema';
import { mergeOntology, parseOntology } from '../../objects/ontologyImport';
import { addClass, changeClass, classesCsv, removeClass, type ClassChange } from '../../objects/schemaEdit';
import type { Project } from '../../store/types';

const KIND_TEXT = {
  spoc: 'SPOC project: each object carries the two states, actionable and transformed. Classes are optional.',
  objects: 'Objects project: objects carry a class (and its attributes); hands and gloves are classes of their own.',
} as const;

/** Show at most this many rows unfiltered: a 300-class ontology is searched, not scrolled. */
const SHOWN = 60;

export function LabelSchemaPanel({ project }: { project: Project }) {
  const db = useDb();
  const schema = schemaOf(project);
  const [filter, setFilter] = useState('');
  const [newName, setNewName] = useState('');
  const inUse = useLiveQuery(async () => {
    const clipIds = await db.clips.where('projectId').equals(project.id).primaryKeys();
    const counts = new Map<string, number>();
    for (const o of await db.objects.where('clipId').anyOf(clipIds).toArray()) {
      if (o.classId !== undefined && o.deletedAt === undefined) counts.set(o.classId, (counts.get(o.classId) ?? 0) + 1);
    }
    return counts;
  }, [db, project.id]);

  const save = async (next: () => LabelSchema, done?: string) => {
    try {
      await updateProject(db, project.id, { labels: next() });
      if (done) notify('info', done);
      return true;
    } catch (err) {
      notify('error', messageOf(err));
      return false;
    }
  };

  const importFile = async (file: File) => {
    try {
      const imported = parseOntology(await file.text(), file.name);
      const known = new Set(schema.classes.map((c) => c.id));
      const updated = imported.filter((c) => known.has(c.id)).length;
      await save(() => mergeOntology(schema, imported, file.name), `${file.name}: ${imported.length - updated} classes added, ${updated} updated.`);
    } catch (err) {
      notify('error', messageOf(err));
    }
  };

  const parents = useMemo(() => parentChoices(schema), [schema]);
  const needle = filter.trim().toLowerCase();
  const matching = needle ? schema.classes.filter((c) => c.name.toLowerCase().includes(needle) || c.id.toLowerCase().includes(needle)) : schema.classes;

  return (
    <section className="mt-4 rounded-lg border border-zinc-800 bg-zinc-900 p-4" aria-label="Labels">
      <div className="flex flex-wrap items-center gap-2">
        <h2 className="mr-2 font-semibold">Labels</h2>
        <span className="rounded bg-zinc-800 px-2 py-0.5 text-xs" data-testid="project-kind">
          {schema.kind === 'objects' ? 'Objects' : 'SPOC'}
        </span>
        <span className="text-xs text-zinc-500">{KIND_TEXT[schema.kind]}</span>
      </div>
      <div className="mt-3 flex flex-wrap items-center gap-2 text-sm">
        <form
          className="flex gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            if (!newName.trim()) return;
            void save(() => addClass(schema, newName)).then((ok) => ok && setNewName(''));
          }}
        >
          <input aria-label="New class name" placeholder="New class name" className="rounded bg-zinc-950 px-2 py-1" value={newName} onChange={(e) => setNewName(e.target.value)} />
          <button className="rounded bg-zinc-800 px-3 py-1 hover:bg-zinc-700">Add class</button>
        </form>
        <label className="cursor-pointer rounded bg-zinc-800 px-3 py-1 hover:bg-zinc-700">
          Import classes…
          <input
            type="file"
            accept=".csv,.json,.txt,text/csv,application/json"
            aria-label="Import classes"
            className="hidden"
            onChange={(e) => {
              const f = e.target.files?.[0];
              e.target.value = '';
              if (f) void importFile(f);
            }}
          />
        </label>
        {schema.classes.length > 0 && (
          <button className="rounded bg-zinc-800 px-3 py-1 hover:bg-zinc-700" onClick={() => downloadBlob(new Blob([classesCsv(schema)], { type: 'text/csv' }), `${project.name}-classes.csv`)}>
            Download classes (CSV)
          </button>
        )}
        {schema.classes.length > 8 && (
          <input aria-label="Find a class" placeholder="Find a class" className="rounded bg-zinc-950 px-2 py-1" value={filter} onChange={(e) => setFilter(e.target.value)} />
        )}
        <span className="text-xs text-zinc-500" data-testid="class-count">
          {schema.classes.length} {schema.classes.length === 1 ? 'class' : 'classes'}
        </span>
      </div>
      {matching.length > 0 && (
        <table className="mt-3 w-full text-sm" aria-label="Classes">
          <thead className="text-left text-xs text-zinc-500">
            <tr>
              <th className="w-10">Colour</th>
              <th>Name</th>
              <th className="w-16">Key</th>
              <th>Macro-class</th>
              <th className="w-20">Objects</th>
              <th className="w-20" />
            </tr>
          </thead>
          <tbody>
            {matching.slice(0, needle ? matching.length : SHOWN).map((c) => (
              <ClassRow
                // A name changed elsewhere (an import) starts the row's edit box afresh.
                key={`${c.id}\u0000${c.name}`}
                cls={c}
                parents={parents}
                used={inUse?.get(c.id) ?? 0}
                onChange={(change) => void save(() => changeClass(schema, c.id, change))}
                onRemove={() => void save(() => removeClass(schema, c.id, inUse?.get(c.id) ?? 0), `Removed the class "${c.name}".`)}
              />
            ))}
          </tbody>
        </table>
      )}
      {!needle && matching.length > SHOWN && <p className="mt-1 text-xs text-zinc-500">{matching.length - SHOWN} more: find them by name.</p>}
    </section>
  );
}

interface ClassRowProps {
  cls: LabelClass;
  parents: readonly LabelClass[];
  used: number;
  onChange: (change: ClassChange) => void;
  onRemove: () => void;
}

/**
 * The classes offered as macro-classes: all of them in a small schema; in a big ontology only the
 * classes that already are someone's macro-class (a 300-class list would make every row carry 300 options).
 */
function parentChoices(schema: LabelSchema): LabelClass[] {
  if (schema.classes.length <= 50) return schema.classes;
  const used = new Set(schema.classes.map((c) => c.parentId));
  return schema.classes.filter((c) => used.has(c.id));
}

function ClassRow({ cls, parents, used, onChange, onRemove }: ClassRowProps) {
  const [name, setName] = useState(cls.name);
  const commitName = () => {
    if (name.trim() && name.trim() !== cls.name) onChange({ name: name.trim() });
    else setName(cls.name);
  };
  return (
    <tr className="border-t border-zinc-800" data-testid="class-row" data-class-id={cls.id}>
      <td>
        <input type="color" aria-label={`Colour of ${cls.name}`} value={cls.colour} className="h-6 w-8 bg-transparent" onChange={(e) => onChange({ colour: e.target.value })} />
      </td>
      <td>
        <input
          aria-label={`Name of ${cls.name}`}
          className="w-full rounded bg-transparent px-1 py-0.5 hover:bg-zinc-950 focus:bg-zinc-950"
          value={name}
          onChange={(e) => setName(e.target.value)}
          onBlur={commitName}
          onKeyDown={(e) => e.key === 'Enter' && (e.target as HTMLInputElement).blur()}
        />
        {cls.hand && <span className="ml-1 text-xs text-zinc-500">{cls.hand.glove ? 'glove' : 'hand'}</span>}
      </td>
      <td>
        <input
          aria-label={`Key of ${cls.name}`}
          className="w-10 rounded bg-transparent px-1 py-0.5 text-center hover:bg-zinc-950 focus:bg-zinc-950"
          maxLength={1}
          value={cls.hotkey ?? ''}
          onChange={(e) => onChange({ hotkey: e.target.value.toLowerCase() })}
        />
      </td>
      <td>
        <select aria-label={`Macro-class of ${cls.name}`} className="max-w-[12rem] rounded bg-zinc-950 px-1 py-0.5" value={cls.parentId ?? ''} onChange={(e) => onChange({ parentId: e.target.value })}>
          <option value="">—</option>
          {parents
            .filter((c) => c.id !== cls.id)
            .map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
        </select>
      </td>
      <td className="text-zinc-400">{used}</td>
      <td className="text-right">
        <button className="rounded px-2 py-0.5 text-xs text-zinc-400 hover:bg-zinc-800 hover:text-zinc-100" onClick={onRemove} aria-label={`Remove ${cls.name}`}>
          Remove
        </button>
      </td>
    </tr>
  );
}
