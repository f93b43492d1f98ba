import { VERBS, VERB_SPECS, type Verb } from './verbs';

/** An object state change as the app stores it on a clip. */
export interface Osc {
  verb: string;
  noun: string;
  actionable: string;
  transformed: string;
}

export type Subset = 'seen' | 'novel';

export function isKnownVerb(verb: string): verb is Verb {
  return (VERBS as readonly string[]).includes(verb);
}

/**
 * Default CLIP prompts for a verb/noun ("grating", "carrot" -> "whole carrot" / "grated carrot").
 * Unknown verbs fall back to a neutral pair that the user is expected to edit.
 */
export function describeOsc(verb: string, noun: string): Osc {
  const v = verb.trim().toLowerCase();
  const n = noun.trim().toLowerCase().replace(/_/g, ' ');
  if (isKnownVerb(v)) {
    const spec = VERB_SPECS[v];
    return {
      verb: v,
      noun: n,
      actionable: spec.actionableTemplate.replace('{noun}', n),
      transformed: spec.transformedTemplate.replace('{noun}', n),
    };
  }
  return { verb: v, noun: n, actionable: `${n} before ${v}`.trim(), transformed: `${n} after ${v}`.trim() };
}

/** Novel objects are those WhereToChange holds out of training for that verb; everything else is seen. */
export function subsetOf(verb: string, noun: string): Subset {
  const v = verb.trim().toLowerCase();
  if (!isKnownVerb(v)) return 'seen';
  return VERB_SPECS[v].novel.includes(noun.trim().toLowerCase()) ? 'novel' : 'seen';
}

/**
 * Splits a WhereToChange OSC folder name: "chopping_avocado" -> chopping / avocado,
 * "peeling_sweet_potato" -> peeling / sweet potato. A name whose first word is no known verb is
 * still accepted (verb = first word) so that new verbs can be imported.
 */
export function parseOscName(name: string): { verb: string; noun: string } | null {
  const parts = name.trim().split(/[_\s]+/).filter(Boolean);
  if (parts.length < 2) return null;
  const [verb, ...rest] = parts;
  return { verb: verb.toLowerCase(), noun: rest.join(' ').toLowerCase() };
}
