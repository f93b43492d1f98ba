/**
 * AI assist's actions in the editor's one action table (annotator/ui/roomActions.ts): proposals on
 * the frame (Shift+A) and propagation to the next frame, published by Proposals and PropagatePanel.
 */
import { roomAction } from '../../annotator/ui/roomActions';
import type { Action } from '../../annotator/actions';

export const ASSIST_ACTION_IDS = { proposals: 'assist.proposals', propagate: 'assist.propagate' } as const;

export const ASSIST_ACTIONS: readonly Action[] = [
  roomAction({ id: ASSIST_ACTION_IDS.proposals, label: 'Proposals on this frame (start / leave)', group: 'assist', shortcuts: ['shift+a'], absent: 'the AI assist tools are not shown' }),
  roomAction({ id: ASSIST_ACTION_IDS.propagate, label: 'Propagate to the next frame', group: 'assist', absent: 'the AI assist tools are not shown' }),
];
