import { CLIP_STATUSES, type Clip } from '../../store/types';
import { STATUS_LABEL, peopleOf, type ClipFilter } from './clipFilter';

interface Props {
  clips: readonly Clip[];
  filter: ClipFilter;
  onChange: (f: ClipFilter) => void;
  /** Last review actor per clip id (for the person filter). */
  lastActor?: ReadonlyMap<string, string>;
}

const select = 'rounded bg-zinc-900 px-2 py-1.5 text-sm';

export function ClipFilters({ clips, filter, onChange, lastActor }: Props) {
  const people = peopleOf(clips, lastActor);
  const verbs = [...new Set(clips.map((c) => c.osc.verb))].sort();
  return (
    <div className="mt-6 flex flex-wrap items-center gap-2" role="search">
      <input
        aria-label="Search clips"
        placeholder="Search name, object, description…"
        className="w-72 rounded bg-zinc-900 px-3 py-1.5 text-sm"
        value={filter.text}
        onChange={(e) => onChange({ ...filter, text: e.target.value })}
      />
      <select aria-label="Filter by verb" className={select} value={filter.verb} onChange={(e) => onChange({ ...filter, verb: e.target.value })}>
        <option value="all">all verbs</option>
        {verbs.map((v) => (
          <option key={v} value={v}>
            {v}
          </option>
        ))}
      </select>
      <select
        aria-label="Filter by status"
        className={select}
        value={filter.status}
        onChange={(e) => onChange({ ...filter, status: e.target.value as ClipFilter['status'] })}
      >
        <option value="all">any status</option>
        {CLIP_STATUSES.map((s) => (
          <option key={s} value={s}>
            {STATUS_LABEL[s]}
          </option>
        ))}
      </select>
      <select
        aria-label="Filter by subset"
        className={select}
        value={filter.subset}
        onChange={(e) => onChange({ ...filter, subset: e.target.value as ClipFilter['subset'] })}
      >
        <option value="all">seen and novel</option>
        <option value="seen">seen objects</option>
        <option value="novel">novel objects</option>
      </select>
      <select aria-label="Filter by person" className={select} value={filter.person} onChange={(e) => onChange({ ...filter, person: e.target.value })}>
        <option value="all">anyone</option>
        <option value="">nobody assigned</option>
        {people.map((p) => (
          <option key={p} value={p}>
            {p}
          </option>
        ))}
      </select>
    </div>
  );
}
