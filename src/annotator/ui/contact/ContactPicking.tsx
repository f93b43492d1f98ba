/**
 * Setting a hand's contact by clicking (docs/objects.md "Relations in the editor"): the
 * 'setting-contact' mode and, while it is on, the room tool that reads the first click as the hand
 * (skipped when the hand was chosen from its row) and the next as the object it touches. The answer
 * is written by `EditorSession.setContact`: one undoable step, refused on a read-only clip.
 */
import { useMemo } from 'react';
import type { ClipObject } from '../../../store/types';
import type { EditorSession } from '../../session/editorSession';
import type { RoomTool } from '../../tools/roomTool';
import { handOf } from '../../../objects/relations';
import type { LabelSchema } from '../../../objects/labelSchema';
import { notify } from '../../../workspace/notices';
import { useRoomTool } from '../useRoomTool';
import { usePublishRunners, usePublishScope } from '../roomActions';
import { useContactUi } from './contactUi';
import { CONTACT_ACTION_IDS } from './contactActions';

interface Props {
  session: EditorSession;
  objects: readonly ClipObject[];
  schema: LabelSchema;
  readOnly: boolean;
}

export function ContactPicking({ session, objects, schema, readOnly }: Props) {
  const picking = useContactUi((s) => s.picking);
  const subjectId = useContactUi((s) => s.subjectId);
  const hands = useMemo(() => new Set(objects.filter((o) => handOf(schema, o.classId)).map((o) => o.id)), [objects, schema]);

  usePublishScope('setting-contact', picking);
  usePublishRunners({
    [CONTACT_ACTION_IDS.start]: {
      disabled: readOnly ? 'read-only' : hands.size === 0 ? 'no hand among the objects: add one of a hand class' : null,
      run: () => useContactUi.getState().start(),
    },
    [CONTACT_ACTION_IDS.cancel]: { disabled: picking ? null : 'no contact is being set', run: () => useContactUi.getState().stop() },
  });

  const tool = useMemo<RoomTool | null>(() => {
    if (!picking) return null;
    return {
      scope: 'setting-contact',
      edits: true,
      cursor: 'crosshair',
      hint: subjectId === null ? 'Click a hand (Esc to cancel)' : 'Click the object the hand touches (Esc to cancel)',
      onPointerDown: (p) => {
        if (p.button !== 0) return;
        const id = session.objectAtPoint(p.x, p.y);
        if (id === undefined) return; // nothing there: keep waiting
        const ui = useContactUi.getState();
        if (subjectId === null) {
          if (hands.has(id)) ui.chooseHand(id);
          else notify('info', 'That is not a hand: click a hand first');
          return;
        }
        if (id === subjectId) return;
        ui.stop();
        void session.setContact(session.snapshot.frameIndex, subjectId, 'contact', id).then((outcome) => {
          if (outcome.status === 'refused') notify('error', `Contact not set: ${outcome.reason}`);
        });
      },
      onPointerMove: () => undefined,
      onPointerUp: () => undefined,
    };
  }, [picking, subjectId, session, hands]);
  useRoomTool(session, tool);
  return null;
}
