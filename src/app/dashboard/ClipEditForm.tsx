/**
 * Edits a clip's name, verb, object, state descriptions and subset from its card. Problems are
 * shown as they are typed (the same rules the store applies: store/clipNames.ts), and a clip stored
 * before the rules shows what is wrong with it, so the names every export writes can be fixed here.
 */
import { useState } from 'react';
import { useDb } from '../../workspace/db';
import { messageOf, notify } from '../../workspace/notices';
import { clipNameProblem, nounProblem, verbProblem } from '../../store/clipNames';
import type { Clip, ClipSubset } from '../../store/types';
import { VERBS } from '../../taxonomy/verbs';
import { editClip } from './clipActions';

const field = 'w-full rounded bg-zinc-950 px-2 py-1 text-sm';

export function ClipEditForm({ clip, onDone }: { clip: Clip; onDone: () => void }) {
  const db = useDb();
  const [name, setName] = useState(clip.name);
  const [verb, setVerb] = useState(clip.osc.verb);
  const [noun, setNoun] = useState(clip.osc.noun);
  const [actionable, setActionable] = useState(clip.osc.actionable);
  const [transformed, setTransformed] = useState(clip.osc.transformed);
  const [subset, setSubset] = useState<ClipSubset>(clip.subset);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const problem = clipNameProblem(name) ?? verbProblem(verb) ?? nounProblem(noun);

  const save = async () => {
    setSaving(true);
    setError(null);
    try {
      await editClip(db, clip.id, { name, osc: { verb, noun, actionable, transformed }, subset });
      notify('info', `Saved "${name.trim()}".`);
      onDone();
    } catch (err) {
      // Kept in the form as well: the person is looking at it, and may need to change a field.
      setError(messageOf(err));
      notify('error', messageOf(err));
    } finally {
      setSaving(false);
    }
  };

  const id = (what: string) => `edit-${clip.id}-${what}`;
  return (
    <form
      className="space-y-1.5 p-3 text-sm"
      aria-label={`Edit clip ${clip.name}`}
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <label htmlFor={id('name')} className="block text-xs text-zinc-400">
        Name
      </label>
      <input id={id('name')} className={field} value={name} onChange={(e) => setName(e.target.value)} />
      <div className="grid grid-cols-2 gap-2">
        <div>
          <label htmlFor={id('verb')} className="block text-xs text-zinc-400">
            Verb
          </label>
          <input id={id('verb')} list={id('verbs')} className={field} placeholder="one word" value={verb} onChange={(e) => setVerb(e.target.value)} />
          <datalist id={id('verbs')}>
            {VERBS.map((v) => (
              <option key={v} value={v} />
            ))}
          </datalist>
        </div>
        <div>
          <label htmlFor={id('noun')} className="block text-xs text-zinc-400">
            Object
          </label>
          <input id={id('noun')} className={field} value={noun} onChange={(e) => setNoun(e.target.value)} />
        </div>
      </div>
      <label htmlFor={id('act')} className="block text-xs text-zinc-400">
        Actionable
      </label>
      <input id={id('act')} className={field} value={actionable} onChange={(e) => setActionable(e.target.value)} />
      <label htmlFor={id('trf')} className="block text-xs text-zinc-400">
        Transformed
      </label>
      <input id={id('trf')} className={field} value={transformed} onChange={(e) => setTransformed(e.target.value)} />
      <label htmlFor={id('subset')} className="block text-xs text-zinc-400">
        Subset
      </label>
      <select id={id('subset')} className={field} value={subset} onChange={(e) => setSubset(e.target.value as ClipSubset)}>
        <option value="seen">seen object</option>
        <option value="novel">novel object</option>
      </select>
      {(error ?? problem) && (
        <p className="text-xs text-red-400" data-testid="clip-edit-problem">
          {error ?? problem}
        </p>
      )}
      <div className="flex justify-end gap-2 pt-1">
        <button type="button" className="rounded border border-zinc-700 px-3 py-1 hover:bg-zinc-800" onClick={onDone}>
          Cancel
        </button>
        <button className="rounded bg-sky-700 px-3 py-1 hover:bg-sky-600 disabled:opacity-50" disabled={saving}>
          Save
        </button>
      </div>
    </form>
  );
}
