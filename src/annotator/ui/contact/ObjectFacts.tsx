/**
 * An object's facts on the shown frame, under its row in the object list (docs/objects.md
 * "Relations in the editor"): for a hand (a glove counts as the hand wearing it) its contact answer
 * and a menu to answer (picking the touched object on the canvas, or no contact / none of the above
 * / inconclusive), and for every object VISOR's "exhaustive" mark on this frame.
 */
import type { ClipObject, ContactAnswer } from '../../../store/types';
import type { EditorSession } from '../../session/editorSession';
import type { LabelSchema } from '../../../objects/labelSchema';
import { CONTACT_ANSWER_LABELS, contactOf, handName, handOf } from '../../../objects/relations';
import { notify } from '../../../workspace/notices';
import { useContactUi } from './contactUi';

interface Props {
  session: EditorSession;
  frameIndex: number;
  object: ClipObject;
  schema: LabelSchema;
  /** Names of the clip's objects by id (the touched object's name). */
  names: ReadonlyMap<string, string>;
  readOnly: boolean;
}

const ANSWERS: readonly ContactAnswer[] = ['no_contact', 'none_of_the_above', 'inconclusive'];

export function ObjectFacts({ session, frameIndex, object, schema, names, readOnly }: Props) {
  const role = handOf(schema, object.classId);
  const exhaustive = session.objectsAt(frameIndex).some((o) => o.id === object.id && o.exhaustive === true);
  const contact = role ? contactOf(session.relationsAt(frameIndex), object.id) : undefined;
  const answerText = !contact ? 'no answer' : contact.answer === 'contact' ? `touches ${names.get(contact.objectId ?? '') ?? 'an object'}` : CONTACT_ANSWER_LABELS[contact.answer];

  const answer = (value: ContactAnswer | null) =>
    void session.setContact(frameIndex, object.id, value).then((outcome) => {
      if (outcome.status === 'refused') notify('error', `Contact not set: ${outcome.reason}`);
    });

  return (
    // Clicks here answer or mark; they do not pick the object to paint.
    <div className="flex flex-wrap items-center gap-x-2 pl-5 text-xs text-zinc-400" onClick={(e) => e.stopPropagation()}>
      {role && (
        <>
          <span data-testid="contact-answer" data-answer={contact?.answer ?? ''} title={handName(role)}>
            {answerText}
          </span>
          <select
            aria-label={`Contact of ${object.name}`}
            className="rounded bg-zinc-950 px-1"
            disabled={readOnly}
            value=""
            onChange={(e) => {
              const v = e.target.value;
              if (v === 'pick') useContactUi.getState().start(object.id);
              else if (v === 'clear') answer(null);
              else if (v) answer(v as ContactAnswer);
            }}
          >
            <option value="">answer…</option>
            <option value="pick">in contact: click the object</option>
            {ANSWERS.map((a) => (
              <option key={a} value={a}>
                {CONTACT_ANSWER_LABELS[a]}
              </option>
            ))}
            {contact && <option value="clear">clear the answer</option>}
          </select>
        </>
      )}
      <label className="flex items-center gap-1">
        <input
          type="checkbox"
          aria-label={`Exhaustive: ${object.name}`}
          checked={exhaustive}
          disabled={readOnly}
          onChange={(e) => {
            const outcome = session.setExhaustive(object.id, e.target.checked);
            if (outcome.status === 'refused') notify('error', outcome.reason);
          }}
        />
        exhaustive
      </label>
    </div>
  );
}
