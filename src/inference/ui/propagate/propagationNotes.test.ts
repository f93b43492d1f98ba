/**
 * The propagation note of a frame lives exactly as long as the masks it describes, on a real
 * EditorSession (fake-indexeddb): an old confidence must not stay after the frame was redone.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EditorSession } from '../../../annotator/session/editorSession';
import { createLabelMap } from '../../../masks/labelMap';
import type { SpocDb } from '../../../store/db';
import { emptyClipStore } from '../../../testing/sessionFixtures';
import type { Clip } from '../../../store/types';
import type { PropagationResult } from '../../propagate/propagateFrame';
import { writePropagated } from './sessionPropagation';
import { LOW_CONFIDENCE, PropagationNotes, lowConfidenceStore, propagationNotesFor } from './propagationNotes';

let db: SpocDb;
let clip: Clip;
beforeEach(async () => {
  ({ db, clip } = await emptyClipStore(4)); // 8x6 frames, no masks
});
afterEach(() => db.close());

function result(to: number): PropagationResult {
  const map = createLabelMap(8, 6);
  map.data.fill(1, 0, 24);
  return { from: to - 1, to, method: 'sam', map, confidence: 0.9, regions: [], redetected: false, tags: [], ms: 0 };
}

async function propagateTo(s: EditorSession, notes: PropagationNotes<number>, to: number, confidence: number) {
  await writePropagated(s, result(to), 'replace');
  notes.record(to, confidence);
}

describe('propagation notes', () => {
  it('keeps the note through its own write and edits of other frames', async () => {
    const s = await EditorSession.open(db, clip, 'ann', 0);
    const notes = new PropagationNotes<number>(s);
    const detach = notes.attach();
    await propagateTo(s, notes, 1, 0.9);
    await propagateTo(s, notes, 2, 0.8);
    expect([notes.get(1), notes.get(2)]).toEqual([0.9, 0.8]);
    await s.goToFrame(0);
    await s.copyPreviousFrame(); // nothing before frame 0: no edit
    await s.goToFrame(3);
    await s.copyPreviousFrame(); // an edit of frame 3
    expect([notes.get(1), notes.get(2)]).toEqual([0.9, 0.8]);
    detach();
    await s.close();
  });

  it('drops the note when the frame is redone: cleared, undone, or propagated onto again', async () => {
    const s = await EditorSession.open(db, clip, 'ann', 0);
    const notes = new PropagationNotes<number>(s);
    const detach = notes.attach();
    await propagateTo(s, notes, 1, 0.9);
    // Propagation writes without showing the frame: the person goes there to redo it.
    await s.goToFrame(1);
    await s.clearFrame();
    expect(notes.get(1)).toBeUndefined();

    await propagateTo(s, notes, 2, 0.7);
    await s.goToFrame(2);
    await s.undo();
    expect(notes.get(2)).toBeUndefined();

    let renders = 0;
    notes.subscribe(() => renders++);
    await s.goToFrame(2);
    await propagateTo(s, notes, 3, 0.6);
    await s.goToFrame(3);
    await s.setTags([{ id: 2, x: 0, y: 0 }]);
    expect(notes.get(3)).toBeUndefined();
    expect(renders).toBe(2);
    detach();
    await s.close();
  });
});

describe('low-confidence propagations on the timeline', () => {
  it('flags a frame propagated under the threshold, not one above it, and drops the flag with the note', async () => {
    const s = await EditorSession.open(db, clip, 'ann', 0);
    const notes = propagationNotesFor<{ from: number; confidence: number }>(s);
    expect(propagationNotesFor(s)).toBe(notes); // the panel and the timeline share it
    const flags = lowConfidenceStore(s);
    const seen: number[] = [];
    const stop = flags.subscribe(() => seen.push(flags.get().size));
    notes.record(1, { from: 0, confidence: 0.95 });
    notes.record(2, { from: 1, confidence: LOW_CONFIDENCE - 0.2 });
    expect([...flags.get().keys()]).toEqual([2]);
    expect(flags.get().get(2)).toMatch(/propagated from 2 with low confidence 0\.65/);
    expect(flags.get()).toBe(flags.get()); // stable between changes, for useSyncExternalStore
    notes.forget(2);
    expect(flags.get().size).toBe(0);
    expect(seen).toEqual([0, 1, 0]);
    stop();
    await s.close();
  });
});
