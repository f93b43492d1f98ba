/**
 * Makes a set of clips writable in one export, whatever names the store holds. The codecs refuse
 * names that cannot be paths (a round trip must not rename silently) and refuse two clips writing
 * the same file; rows stored before the naming rules (store/clipNames.ts), or two clips sharing a
 * name, would then make every export refuse the whole project. So the app's export rewrites such
 * names first — deterministically, so the same project exports to the same paths — and says what it
 * rewrote, naming the clip, so the person can fix the names for good with "Edit".
 */
import { nounProblem, pathSegmentProblem, safeNoun, safeSegment, safeVerb, uniqueName, verbProblem } from '../../store/clipNames';
import type { FormatId } from './convert';
import type { ClipAnnotations } from './model';

export interface ExportNaming {
  /** The clips, in the same order, renamed where needed (the others are the same objects). */
  clips: ClipAnnotations[];
  /** One sentence per rewrite, for the export summary. */
  notes: string[];
}

const FIX = 'rename it with Edit on its card to choose';

export function resolveExportNames(format: FormatId, clips: readonly ClipAnnotations[]): ExportNaming {
  const notes: string[] = [];
  /** Names written so far, lower-cased, per folder they are written into ('' when the format has one). */
  const taken = new Map<string, Set<string>>();
  const out = clips.map((a) => {
    const original = a.clip.name;
    let clip = a.clip;
    const nameProblem = pathSegmentProblem(original);
    if (nameProblem) {
      clip = { ...clip, name: safeSegment(original, 'clip') };
      notes.push(`Clip "${original}": its name ${nameProblem}; exported as "${clip.name}" (${FIX}).`);
    }
    if (clip.osc) {
      const { verb, noun } = clip.osc;
      const fixedVerb = verbProblem(verb) ? safeVerb(verb) : verb.trim();
      const fixedNoun = nounProblem(noun) ? safeNoun(noun) : noun;
      if (fixedVerb !== verb.trim()) notes.push(`Clip "${original}": the verb "${verb}" is not one word; exported as "${fixedVerb}" (fix it with Edit on its card).`);
      if (fixedNoun !== noun) notes.push(`Clip "${original}": the object "${noun}" cannot be part of a folder name; exported as "${fixedNoun}" (fix it with Edit on its card).`);
      if (fixedVerb !== verb || fixedNoun !== noun) clip = { ...clip, osc: { ...clip.osc, verb: fixedVerb, noun: fixedNoun } };
    }
    // WhereToChange writes each clip under its <verb>_<noun> folder, so names need only differ
    // within one folder there; every other format writes all clips side by side (or, in COCO, as
    // "<video>/<frame>" image names) and needs them unique overall.
    const folder = format === 'wtc' && clip.osc ? `${clip.osc.verb}_${clip.osc.noun.trim().replace(/\s+/g, '_')}`.toLowerCase() : '';
    let names = taken.get(folder);
    if (!names) taken.set(folder, (names = new Set()));
    const unique = uniqueName(clip.name, names);
    if (unique !== clip.name) {
      notes.push(`Clip "${original}": another clip in this export has the same name, so both would write the same files; exported as "${unique}" (${FIX}).`);
      clip = { ...clip, name: unique };
    }
    names.add(unique.toLowerCase());
    return clip === a.clip ? a : { ...a, clip };
  });
  return { clips: out, notes };
}
