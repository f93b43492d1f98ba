/**
 * What the timeline shows of an objects project's objects (docs/objects.md "In the editor"): per
 * frame and object, whether the object has pixels there (its presence band) and whether the frame is
 * its keyframe (a tick). Read once from the store when the clip opens, then kept current from the
 * session's own writes (`onEdit` + `objectsAt`), so a stroke does not re-read every layer. Each
 * frame's list keeps its identity while its facts stay, so the timeline's cells re-render only
 * where something changed.
 */
import { useEffect, useMemo, useState } from 'react';
import type { SpocDb } from '../../store/db';
import { listLayers } from '../../store/layers';
import type { ClipObject, LayerObject } from '../../store/types';
import type { EditorSession } from '../session/editorSession';

/** One object on one timeline cell. */
export interface ObjectMark {
  id: string;
  colour: string;
  present: boolean;
  keyframe: boolean;
}

/** Objects shown as bands: more would not fit a cell's height. */
export const MAX_OBJECT_BANDS = 8;

type FrameFacts = ReadonlyMap<string, { present: boolean; keyframe: boolean }>;

function factsOf(objects: readonly LayerObject[] | undefined): FrameFacts {
  return new Map((objects ?? []).map((o) => [o.id, { present: o.area > 0, keyframe: o.keyframe === true }]));
}

/** Per frame, the marks of the first MAX_OBJECT_BANDS objects (in the list's order); undefined without objects. */
export function useObjectMarks(db: SpocDb, session: EditorSession, objects: readonly ClipObject[] | undefined, colourOf: (o: ClipObject) => string): ReadonlyMap<number, readonly ObjectMark[]> | undefined {
  const [facts, setFacts] = useState<ReadonlyMap<number, FrameFacts>>(new Map());
  const enabled = objects !== undefined;
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    void listLayers(db, session.clip.id, 'gt').then((layers) => {
      if (live) setFacts((known) => new Map([...layers.map((l) => [l.frameIndex, factsOf(l.objects)] as const), ...known]));
    });
    const off = session.onEdit((k) => setFacts((prev) => new Map(prev).set(k, factsOf(session.objectsAt(k)))));
    return () => {
      live = false;
      off();
    };
  }, [db, session, enabled]);
  const [cache] = useState(() => new MarksCache());
  return useMemo(() => (objects && objects.length > 0 ? cache.marks(session.clip.frameCount, facts, objects.slice(0, MAX_OBJECT_BANDS), colourOf) : undefined), [cache, facts, objects, session, colourOf]);
}

/** Builds each frame's marks, handing back last time's list for a frame whose marks did not change. */
class MarksCache {
  private readonly known = new Map<number, { key: string; marks: readonly ObjectMark[] }>();

  marks(frameCount: number, facts: ReadonlyMap<number, FrameFacts>, shown: readonly ClipObject[], colourOf: (o: ClipObject) => string): ReadonlyMap<number, readonly ObjectMark[]> {
    const out = new Map<number, readonly ObjectMark[]>();
    for (let k = 0; k < frameCount; k++) {
      const f = facts.get(k);
      const marks = shown.map((o) => ({ id: o.id, colour: colourOf(o), present: f?.get(o.id)?.present ?? false, keyframe: f?.get(o.id)?.keyframe ?? false }));
      const key = marks.map((m) => `${m.id}${m.colour}${m.present ? 1 : 0}${m.keyframe ? 1 : 0}`).join();
      const old = this.known.get(k);
      if (old && old.key === key) out.set(k, old.marks);
      else {
        this.known.set(k, { key, marks });
        out.set(k, marks);
      }
    }
    return out;
  }
}
