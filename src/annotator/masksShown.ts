/**
 * Whether the gt masks are drawn over the frame: one fact, derived here from two inputs and written
 * nowhere (docs/architecture.md, "One owner per UI fact"). Pure.
 *
 * - The user's choice: the last press of the mask toggle (H, the toolbar's "hide"), held by the
 *   editor alone, together with the request that was in force when it was made.
 * - A room's request: what one of its views asks of the masks while it shows (review's
 *   prediction-only overlays and the annotator's version hide them), declared through the
 *   `useMasksRequest` slot. A new request starts from what it asks for; the toggle still works
 *   under it, and the user's choice holds until the request changes.
 */

/** What a room's view asks of the masks, named so that another view is another request. */
export interface MasksRequest {
  /** Names the view (e.g. `overlay:pred:pred:unet`); a different key is a new request. */
  key: string;
  visible: boolean;
}

/** A request as the editor holds it: numbered each time the request in force changes. */
export interface MasksRequestInForce {
  /** Bumped by the editor whenever the request's key changes (returning to an earlier view is a new request). */
  serial: number;
  visible: boolean;
}

/** The request key the editor last saw and its number. */
export interface HeldRequest {
  key: string | null;
  serial: number;
}

/** The held request after the editor sees `request`: the same object while the key stays, numbered anew when it changes. */
export function holdRequest(held: HeldRequest, request: MasksRequest | null): HeldRequest {
  const key = request ? request.key : null;
  return key === held.key ? held : { key, serial: held.serial + 1 };
}

/** The request in force, as `masksShown` reads it. */
export function inForce(held: HeldRequest, request: MasksRequest | null): MasksRequestInForce | null {
  return request ? { serial: held.serial, visible: request.visible } : null;
}

/** The user's last press of the toggle and the request in force then (null: there was none). */
export interface MasksChoice {
  visible: boolean;
  madeUnder: number | null;
}

/** The masks as shown: the user's choice if made under the request in force, else what the request asks, else shown. */
export function masksShown(choice: MasksChoice | null, request: MasksRequestInForce | null): boolean {
  const under = request ? request.serial : null;
  if (choice && choice.madeUnder === under) return choice.visible;
  return request ? request.visible : true;
}

/** The choice a press of the toggle makes: the opposite of what shows, under the request in force. */
export function toggledChoice(choice: MasksChoice | null, request: MasksRequestInForce | null): MasksChoice {
  return { visible: !masksShown(choice, request), madeUnder: request ? request.serial : null };
}
