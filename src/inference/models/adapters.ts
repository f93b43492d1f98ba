/**
 * One entry point from "a family and its loaded files" to an adapter. The runtime loads ONNX roles
 * into sessions and JSON roles (tokenizer files) as parsed JSON; this module says which is which.
 */
import { createClipAdapter, type ClipAdapter } from './clip';
import { createClipTokenizer } from './clipText';
import { FAMILY_FILES, type ModelFamily } from './manifest';
import { createSamOfficialAdapter } from './samOfficial';
import { createSamTransformersJsAdapter } from './samTransformersJs';
import type { SamAdapter } from './samTypes';
import type { ModelSession } from './session';

export type Adapter = SamAdapter | ClipAdapter;

const JSON_ROLES: ReadonlySet<string> = new Set(['tokenizer', 'tokenizerConfig']);

/** True for files read as JSON (tokenizers); the rest are ONNX models. */
export function isJsonRole(role: string): boolean {
  return JSON_ROLES.has(role);
}

export function rolesOf(family: ModelFamily): { required: readonly string[]; optional: readonly string[] } {
  return FAMILY_FILES[family];
}

function need<T>(map: Record<string, T>, role: string, family: string): T {
  const v = map[role];
  if (v === undefined) throw new Error(`family ${family} needs its "${role}" file`);
  return v;
}

export function createAdapter(family: ModelFamily, sessions: Record<string, ModelSession>, json: Record<string, unknown>): Adapter {
  switch (family) {
    case 'sam-official':
      return createSamOfficialAdapter(need(sessions, 'encoder', family), need(sessions, 'decoder', family));
    case 'sam-transformersjs':
      return createSamTransformersJsAdapter(need(sessions, 'encoder', family), need(sessions, 'decoder', family));
    case 'clip': {
      const tokenizer = createClipTokenizer(need(json, 'tokenizer', family), json.tokenizerConfig ?? {});
      return createClipAdapter(need(sessions, 'vision', family), need(sessions, 'text', family), tokenizer);
    }
    default: {
      const never: never = family;
      throw new Error(`unknown model family ${String(never)}`);
    }
  }
}
