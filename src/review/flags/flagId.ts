/**
 * Stable flag ids and dismissals. A flag's id is a hash of what makes it the same finding — kind,
 * frame, state and box — and nothing else (not the message or the pixel count), so recomputing the
 * flags over unchanged masks gives the same ids, and a dismissed flag stays dismissed. An edit that
 * moves or resizes the flagged region changes the box, hence the id: the flag comes back, which is
 * the point (the region changed; someone should look again).
 */
import type { Box, StateLabel } from '../../masks/labelMap';
import type { FlagDismissal, LayerSource } from '../../store/types';
import type { Flag, FlagKind } from './types';

/** cyrb53: a fast 53-bit string hash with good spread; 14 hex digits. Not cryptographic (need not be). */
export function hash53(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  const n = 4294967296 * (2097151 & h2) + (h1 >>> 0);
  return n.toString(16).padStart(14, '0');
}

export interface FlagKey {
  kind: FlagKind;
  frameIndex: number;
  state?: StateLabel;
  box?: Box;
  /** Distinguishes a summary of several regions from a single region with the same box. */
  group?: boolean;
}

/** `<kind>:<frame>:<hash>` — readable in logs, unique per finding. */
export function flagId(key: FlagKey): string {
  const b = key.box;
  const canonical = [
    key.kind,
    key.frameIndex,
    key.state ?? '-',
    b ? `${b.x},${b.y},${b.w},${b.h}` : '-',
    key.group ? 'group' : '',
  ].join('|');
  return `${key.kind}:${key.frameIndex}:${hash53(canonical)}`;
}

/** A flag with its id filled in from its key fields. */
export function makeFlag(f: Omit<Flag, 'id'>, group = false): Flag {
  return { id: flagId({ kind: f.kind, frameIndex: f.frameIndex, state: f.state, box: f.box, group }), ...f };
}

export interface DismissContext {
  clipId: string;
  /** The layer the flags were computed on (default gt). */
  source?: LayerSource;
  /** Who dismissed it (the local user name). */
  by: string;
  at?: number;
}

/** The dismissal record of `flag` (store it with putFlagDismissal). Throws RangeError without a reason. */
export function dismissFlag(flag: Flag, reason: string, ctx: DismissContext): FlagDismissal {
  const why = reason.trim();
  if (!why) throw new RangeError('say why the flag is dismissed (the reason is empty)');
  if (!ctx.by.trim()) throw new RangeError('a dismissal needs who dismissed it');
  const row: FlagDismissal = {
    clipId: ctx.clipId,
    source: ctx.source ?? 'gt',
    flagId: flag.id,
    kind: flag.kind,
    frameIndex: flag.frameIndex,
    reason: why,
    by: ctx.by.trim(),
    at: ctx.at ?? Date.now(),
  };
  if (flag.box) row.box = { ...flag.box };
  return row;
}

export interface DismissedFlag {
  flag: Flag;
  dismissal: FlagDismissal;
}

export interface SplitFlags {
  open: Flag[];
  dismissed: DismissedFlag[];
}

/** Splits recomputed flags into open ones and those a stored dismissal matches (by id). */
export function applyDismissals(flags: readonly Flag[], dismissals: readonly FlagDismissal[]): SplitFlags {
  const byId = new Map(dismissals.map((d) => [d.flagId, d]));
  const out: SplitFlags = { open: [], dismissed: [] };
  for (const flag of flags) {
    const dismissal = byId.get(flag.id);
    if (dismissal) out.dismissed.push({ flag, dismissal });
    else out.open.push(flag);
  }
  return out;
}
