/** The colour each state is drawn in on the editor's canvas: the user's choice per class. */
import { STATE_COLOURS } from '../overlayPixels';

/** '#rrggbb' per state. */
export type StateColours = { 1: string; 2: string };

const hex = (rgb: readonly number[]) => `#${rgb.map((c) => c.toString(16).padStart(2, '0')).join('')}`;

/** The app's state colours (actionable red, transformed green) until the user picks others. */
export const DEFAULT_STATE_COLOURS: StateColours = { 1: hex(STATE_COLOURS[1]), 2: hex(STATE_COLOURS[2]) };

/** A '#rrggbb' colour (lower-cased), or null: values read back from localStorage are checked before use. */
export function validColour(value: unknown): string | null {
  return typeof value === 'string' && /^#[0-9a-f]{6}$/i.test(value) ? value.toLowerCase() : null;
}
