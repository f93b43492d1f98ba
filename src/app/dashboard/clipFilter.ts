/** Dashboard search and filters, kept pure so they are tested without a browser. */
import type { Clip, ClipStatus, ClipSubset } from '../../store/types';

export interface ClipFilter {
  text: string;
  verb: string | 'all';
  status: ClipStatus | 'all';
  subset: ClipSubset | 'all';
  /**
   * A person: the clip's assignee or whoever took its last review step (see `lastActors`); '' is
   * "nobody assigned" (the assignment board's first row).
   */
  person: string | 'all';
}

export const NO_FILTER: ClipFilter = { text: '', verb: 'all', status: 'all', subset: 'all', person: 'all' };

/** Who a clip is "with": its assignee and the last person to take a review step on it. */
export function clipPeople(clip: Clip, lastActor?: ReadonlyMap<string, string>): string[] {
  const out = new Set<string>();
  if (clip.assignee) out.add(clip.assignee);
  const last = lastActor?.get(clip.id);
  if (last) out.add(last);
  return [...out];
}

/** Everyone `clipPeople` names over a set of clips, sorted (the person filter's choices). */
export function peopleOf(clips: readonly Clip[], lastActor?: ReadonlyMap<string, string>): string[] {
  return [...new Set(clips.flatMap((c) => clipPeople(c, lastActor)))].sort((a, b) => a.localeCompare(b));
}

/** Every whitespace-separated word must appear in the clip's name, verb, noun, descriptions or assignee. */
export function matchesClip(clip: Clip, f: ClipFilter, lastActor?: ReadonlyMap<string, string>): boolean {
  if (f.person === '') {
    if (clip.assignee?.trim()) return false;
  } else if (f.person !== 'all' && !clipPeople(clip, lastActor).includes(f.person)) return false;
  if (f.verb !== 'all' && clip.osc.verb !== f.verb) return false;
  if (f.status !== 'all' && clip.status !== f.status) return false;
  if (f.subset !== 'all' && clip.subset !== f.subset) return false;
  const words = f.text.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const hay = [clip.name, clip.osc.verb, clip.osc.noun, clip.osc.actionable, clip.osc.transformed, clip.assignee ?? '', clip.source.fileName]
    .join(' ')
    .toLowerCase();
  return words.every((w) => hay.includes(w));
}

export function filterClips(clips: readonly Clip[], f: ClipFilter, lastActor?: ReadonlyMap<string, string>): Clip[] {
  return clips.filter((c) => matchesClip(c, f, lastActor));
}

export const STATUS_LABEL: Record<ClipStatus, string> = {
  todo: 'to do',
  in_progress: 'in progress',
  submitted: 'submitted',
  in_review: 'in review',
  approved: 'approved',
  changes_requested: 'changes requested',
};
