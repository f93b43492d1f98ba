/**
 * Why the session refuses an edit, in the words the palette, the notices and the callers of `edit`
 * show (docs/architecture.md, "One transaction"). One place, so every refusal says the same thing.
 */

/** Why the clip cannot be edited now: the room's reason (setViewOnly), else the clip was opened read-only. */
export function whyReadOnly(viewOnly: string | null): string {
  return viewOnly ?? 'this clip is open read-only here';
}

/** An edit refused on a read-only clip. */
export function readOnlyRefusal(viewOnly: string | null): string {
  return `${whyReadOnly(viewOnly)}; nothing was changed`;
}

/** A room tool that edits masks, refused on a read-only clip. */
export function readOnlyToolRefusal(viewOnly: string | null): string {
  return `${whyReadOnly(viewOnly)}; nothing can be edited`;
}

export const STROKE_UNDER_WAY = 'finish the stroke in progress first; nothing was changed';

export function frameOutsideClip(frameIndex: number, frameCount: number): string {
  return `frame ${frameIndex + 1} is not in this ${frameCount}-frame clip`;
}
