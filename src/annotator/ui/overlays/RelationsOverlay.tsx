/**
 * The shown frame's hand–object relations (docs/objects.md "Relations in the editor"): a line from
 * each hand to the object it touches, the answer written at a hand without contact, and a ring on
 * the hand whose contact is being picked. Redrawn after every committed change and frame switch.
 */
import { useEffect, useState } from 'react';
import { Circle, Line, Text } from 'react-konva';
import type { LayerRelation } from '../../../store/types';
import { regionAnchors, type Anchor } from '../../../masks/anchors';
import { CONTACT_ANSWER_LABELS } from '../../../objects/relations';
import type { EditorSession } from '../../session/editorSession';
import type { CanvasOverlayProps } from '../canvasOverlays';
import { useStageData } from '../useStageData';
import { useContactUi } from '../contact/contactUi';

const CONTACT_COLOUR = '#facc15';

interface Drawn {
  relations: readonly LayerRelation[];
  anchors: ReadonlyMap<string, Anchor>;
}

function drawnNow(session: EditorSession, subjectId: string | null): Drawn {
  if (session.codec.kind !== 'objects') return { relations: [], anchors: new Map() };
  const relations = session.relationsAt(session.snapshot.frameIndex);
  const ids = new Set<string>(subjectId ? [subjectId] : []);
  for (const r of relations) {
    ids.add(r.subjectId);
    if (r.objectId) ids.add(r.objectId);
  }
  if (ids.size === 0) return { relations, anchors: new Map() };
  const slotOf = new Map([...ids].map((id) => [id, session.slotOf(id)]));
  const bySlot = regionAnchors(session.map, new Set(slotOf.values()));
  const anchors = new Map<string, Anchor>();
  for (const [id, slot] of slotOf) {
    const a = bySlot.get(slot);
    if (a) anchors.set(id, a);
  }
  return { relations, anchors };
}

export function RelationsOverlay({ session, scale: s, stage }: CanvasOverlayProps) {
  const subjectId = useContactUi((st) => (st.picking ? st.subjectId : null));
  const [drawn, setDrawn] = useState<Drawn>(() => drawnNow(session, subjectId));
  useEffect(() => {
    const update = () => setDrawn(drawnNow(session, subjectId));
    let revision = session.snapshot.revision;
    const offState = session.onState((st) => {
      if (st.revision === revision) return;
      revision = st.revision;
      update();
    });
    const offFrame = session.onFrame(update);
    update();
    return () => {
      offState();
      offFrame();
    };
  }, [session, subjectId]);
  useStageData(stage, 'data-relations', drawn.relations.map((r) => [r.subjectId, r.answer, ...(r.objectId ? [r.objectId] : [])].join('>')).join(','));
  useStageData(stage, 'data-contact-hand', subjectId ?? undefined);

  const marks = drawn.relations.map((r) => {
    const from = drawn.anchors.get(r.subjectId);
    if (!from) return null;
    const to = r.objectId ? drawn.anchors.get(r.objectId) : undefined;
    if (r.answer === 'contact' && to) {
      return [
        <Line key={`l${r.subjectId}`} points={[from.x, from.y, to.x, to.y]} stroke={CONTACT_COLOUR} strokeWidth={2 / s} dash={[6 / s, 3 / s]} />,
        <Circle key={`a${r.subjectId}`} x={from.x} y={from.y} radius={3 / s} fill={CONTACT_COLOUR} />,
        <Circle key={`b${r.subjectId}`} x={to.x} y={to.y} radius={3 / s} stroke={CONTACT_COLOUR} strokeWidth={1.5 / s} />,
      ];
    }
    return <Text key={`t${r.subjectId}`} x={from.x + 4 / s} y={from.y - 7 / s} text={CONTACT_ANSWER_LABELS[r.answer]} fontSize={12 / s} fill="#fff" stroke="#000" strokeWidth={0.4 / s} />;
  });
  const picked = subjectId ? drawn.anchors.get(subjectId) : undefined;
  return [...marks, picked ? <Circle key="picked" x={picked.x} y={picked.y} radius={10 / s} stroke={CONTACT_COLOUR} strokeWidth={2 / s} /> : null];
}
