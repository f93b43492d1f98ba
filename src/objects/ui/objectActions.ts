/**
 * The objects room's actions in the editor's one action table (annotator/ui/roomActions.ts):
 * marking the active object's keyframe on the shown frame (Y) and opening interpolation, both
 * published by InterpolatePanel while an objects project's clip is open.
 */
import { roomAction } from '../../annotator/ui/roomActions';
import type { Action } from '../../annotator/actions';

export const OBJECT_ACTION_IDS = { keyframe: 'objects.keyframe', interpolate: 'objects.interpolate' } as const;

const absent = 'only in an objects project';

export const OBJECT_ACTIONS: readonly Action[] = [
  roomAction({ id: OBJECT_ACTION_IDS.keyframe, label: "Mark / unmark the active object's keyframe on this frame", group: 'frame', shortcuts: ['y'], absent }),
  roomAction({ id: OBJECT_ACTION_IDS.interpolate, label: 'Interpolate between keyframes…', group: 'assist', absent }),
];
