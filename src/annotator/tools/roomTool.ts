/**
 * A tool another room lends the editor for one of its input modes (picking proposals, placing a
 * comment). The session routes pointer input to it, through the same path as the paint tools, while
 * its mode is on; the paint tool keeps its place and gets the input back when the mode ends
 * (docs/architecture.md, "Room tools"). Like the paint tools it sees image coordinates only.
 */
import type { ActionScope } from '../actions';
import type { PointerInput } from './types';

export interface RoomTool {
  /** The input mode it belongs to: when two are on, the first in ACTION_SCOPES gets the input, as with keys. */
  readonly scope: ActionScope;
  /**
   * True when the tool itself changes masks (through the tool context): like a paint tool it is
   * refused, and gets no input, while the clip is read-only. False when it only picks (an accept it
   * asks for goes through `EditorSession.edit`, which refuses on its own and says why) or writes
   * review rows (comments): it keeps working on a read-only clip.
   */
  readonly edits: boolean;
  /** CSS cursor over the canvas while the tool is active. */
  readonly cursor?: string;
  /** Tooltip over the canvas while the tool is active ("Click where the comment belongs"). */
  readonly hint?: string;
  onPointerDown(p: PointerInput): void;
  /** Every move over the canvas, pressed or not (hover). */
  onPointerMove(p: PointerInput): void;
  onPointerUp(p: PointerInput): void;
}
