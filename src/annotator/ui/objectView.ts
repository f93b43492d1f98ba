/**
 * How the object list shows and guards the clip's objects (docs/objects.md "The object list"):
 * which objects are hidden, which locked, and whether the canvas colours by object or by class.
 * A view fact of this editor, not of the clip: nothing here is stored. Hidden objects are locked
 * too — nobody should change pixels they cannot see — so the session gets their union.
 */
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { ClipObject } from '../../store/types';
import type { LabelSchema } from '../../objects/labelSchema';
import { classColour } from '../../objects/colours';
import type { EditorSession } from '../session/editorSession';
import { UNASSIGNED } from '../pixelCodec';

export type ColourBy = 'object' | 'class';

/** Annotated pixels no object owns (masks made before the clip had objects). */
const UNASSIGNED_COLOUR = '#a1a1aa';
/** Objects of no class when colouring by class. */
const NO_CLASS_COLOUR = '#e4e4e7';

export interface ObjectView {
  hidden: ReadonlySet<string>;
  locked: ReadonlySet<string>;
  colourBy: ColourBy;
  toggleHidden(id: string): void;
  toggleLocked(id: string): void;
  setColourBy(by: ColourBy): void;
}

export function useObjectView(session: EditorSession): ObjectView {
  const [hidden, setHidden] = useState<ReadonlySet<string>>(() => new Set());
  const [locked, setLocked] = useState<ReadonlySet<string>>(() => new Set());
  const [colourBy, setColourBy] = useState<ColourBy>('object');
  useEffect(() => session.setLockedObjects([...hidden, ...locked]), [session, hidden, locked]);
  const toggleHidden = useCallback((id: string) => setHidden((s) => toggled(s, id)), []);
  const toggleLocked = useCallback((id: string) => setLocked((s) => toggled(s, id)), []);
  return useMemo(() => ({ hidden, locked, colourBy, toggleHidden, toggleLocked, setColourBy }), [hidden, locked, colourBy, toggleHidden, toggleLocked]);
}

function toggled(set: ReadonlySet<string>, id: string): ReadonlySet<string> {
  const next = new Set(set);
  if (!next.delete(id)) next.add(id);
  return next;
}

/** Each object's colour: distinct per object, so two objects of one class stay apart. */
export function objectColour(o: Pick<ClipObject, 'number'>): string {
  return classColour(o.number - 1);
}

/** The colour an object is drawn in under `colourBy`. */
export function shownColour(o: Pick<ClipObject, 'number' | 'classId'>, colourBy: ColourBy, schema: Pick<LabelSchema, 'classes'>): string {
  if (colourBy === 'object') return objectColour(o);
  return schema.classes.find((c) => c.id === o.classId)?.colour ?? NO_CLASS_COLOUR;
}

/**
 * The canvas colours of an objects session: each shown object's slot, and the unassigned pixels.
 * A hidden object's slot has no colour, so the canvas leaves its pixels transparent.
 */
export function objectColours(
  session: Pick<EditorSession, 'slotOf'>,
  objects: readonly Pick<ClipObject, 'id' | 'number' | 'classId'>[],
  view: Pick<ObjectView, 'hidden' | 'colourBy'> = { hidden: new Set(), colourBy: 'object' },
  schema: Pick<LabelSchema, 'classes'> = { classes: [] },
): Record<number, string> {
  const out: Record<number, string> = { [UNASSIGNED]: UNASSIGNED_COLOUR };
  for (const o of objects) if (!view.hidden.has(o.id)) out[session.slotOf(o.id)] = shownColour(o, view.colourBy, schema);
  return out;
}
