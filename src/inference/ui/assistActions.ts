/**
 * AI assist's actions in the editor's one action table (annotator/ui/roomActions.ts): proposals on
 * the frame (Shift+A) and propagation to the next frame, published by Proposals and PropagatePanel.
 */
import { roomAction } from '../../annotator/ui/roomActions';
import type { Action } from '../../annotator/actions';

export const ASSIST_ACTION_IDS = { proposals: 'assist.proposals', propagate: 'assist.propagate' } as const;

/** The keys of proposals mode (Proposals.tsx publishes them while it is on). */
export const PROPOSAL_ACTION_IDS = {
  accept: 'proposals.accept',
  acceptPrelabel: 'proposals.acceptPrelabel',
  next: 'proposals.next',
  previous: 'proposals.previous',
  leave: 'proposals.leave',
} as const;

const proposalsOff = 'proposals are not open (Shift+A)';

export const ASSIST_ACTIONS: readonly Action[] = [
  roomAction({ id: ASSIST_ACTION_IDS.proposals, label: 'Proposals on this frame (start / leave)', group: 'assist', shortcuts: ['shift+a'], absent: 'the AI assist tools are not shown' }),
  roomAction({ id: ASSIST_ACTION_IDS.propagate, label: 'Propagate to the next frame', group: 'assist', absent: 'the AI assist tools are not shown' }),
  roomAction({ id: PROPOSAL_ACTION_IDS.accept, when: 'proposals', label: 'Accept the selected (or hovered) proposal', group: 'assist', shortcuts: ['enter', 'a'], absent: proposalsOff }),
  roomAction({ id: PROPOSAL_ACTION_IDS.acceptPrelabel, when: 'proposals', label: 'Accept the pre-label into empty gt pixels', group: 'assist', shortcuts: ['shift+enter'], absent: proposalsOff }),
  roomAction({ id: PROPOSAL_ACTION_IDS.next, when: 'proposals', label: 'Select the next proposal', group: 'assist', shortcuts: ['tab'], absent: proposalsOff }),
  roomAction({ id: PROPOSAL_ACTION_IDS.previous, when: 'proposals', label: 'Select the previous proposal', group: 'assist', shortcuts: ['shift+tab'], absent: proposalsOff }),
  roomAction({ id: PROPOSAL_ACTION_IDS.leave, when: 'proposals', label: 'Leave proposals (cancels a run)', group: 'assist', shortcuts: ['escape'], absent: proposalsOff }),
];
