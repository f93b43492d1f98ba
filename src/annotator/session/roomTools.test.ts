/**
 * Room tools (docs/architecture.md, "Room tools"): while a room's input mode lends the canvas a
 * tool, the session routes the pointer to it and the paint tool gets nothing; leaving gives the
 * paint tool its input back; a tool that edits masks is refused on a read-only clip, one that only
 * picks or writes review data is not.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SpocDb } from '../../store/db';
import { emptyClipStore, stroke, at } from '../../testing/sessionFixtures';
import type { Clip } from '../../store/types';
import { labelArea } from '../../masks/geometry';
import type { ActionScope } from '../actions';
import type { RoomTool } from '../tools/roomTool';
import { EditorSession } from './editorSession';

let db: SpocDb;
let clip: Clip;
beforeEach(async () => {
  ({ db, clip } = await emptyClipStore(2)); // 8x6 frames, no masks
});
afterEach(() => db.close());

/** A room tool that records what reaches it. */
function recorder(scope: ActionScope, edits = false): RoomTool & { seen: string[] } {
  const seen: string[] = [];
  return {
    scope,
    edits,
    seen,
    onPointerDown: (p) => seen.push(`down ${p.x},${p.y}`),
    onPointerMove: (p) => seen.push(`move ${p.x},${p.y}`),
    onPointerUp: (p) => seen.push(`up ${p.x},${p.y}`),
  };
}

function active(entry: ReturnType<EditorSession['enterRoomTool']>): () => void {
  if (entry.status !== 'active') throw new Error(`refused: ${entry.reason}`);
  return entry.leave;
}

describe('EditorSession room tools', () => {
  it('routes the pointer to the room tool and none to the paint tool; leaving gives the paint tool its input back', async () => {
    const s = await EditorSession.open(db, clip, 'ann', 0);
    s.setBrushSize(1);
    s.setTool('polygon');
    const picker = recorder('proposals');
    const leave = active(s.enterRoomTool(picker));
    expect(s.snapshot.roomTool).toBe('proposals');
    s.pointerMove(at(2.5, 2.5)); // a hover, no button pressed
    // What would close a triangle with the polygon tool: three clicks, then the first point again.
    for (const [x, y] of [[0.5, 0.5], [6.5, 0.5], [0.5, 5.5], [0.5, 0.5]]) {
      s.pointerDown(at(x, y));
      s.pointerUp(at(x, y));
    }
    expect(picker.seen).toEqual(['move 2.5,2.5', 'down 0.5,0.5', 'up 0.5,0.5', 'down 6.5,0.5', 'up 6.5,0.5', 'down 0.5,5.5', 'up 0.5,5.5', 'down 0.5,0.5', 'up 0.5,0.5']);
    expect(labelArea(s.map, 1)).toBe(0);
    expect(s.snapshot.busy).toBe(false); // the polygon never started
    expect(s.toolPreview).toBeNull(); // no paint-tool outline under a room tool
    expect(s.snapshot.tool).toBe('polygon'); // the paint tool keeps its place

    leave();
    expect(s.snapshot.roomTool).toBeNull();
    expect(s.snapshot.tool).toBe('polygon');
    for (const [x, y] of [[0.5, 0.5], [6.5, 0.5], [0.5, 5.5]]) {
      s.pointerDown(at(x, y));
      s.pointerUp(at(x, y));
    }
    expect(s.toolKey('Enter')).toBe(true); // the polygon got every click: Enter closes it
    expect(labelArea(s.map, 1)).toBeGreaterThan(0);
    expect(picker.seen).toHaveLength(9); // nothing more reached the room tool
    await s.close();
  });

  it('finishes a paint gesture under way when a room tool comes in', async () => {
    const s = await EditorSession.open(db, clip, 'ann', 0);
    s.setBrushSize(1);
    s.pointerDown(at(0.5, 1.5));
    s.pointerMove(at(7.5, 1.5));
    expect(s.snapshot.busy).toBe(true);
    const picker = recorder('proposals');
    active(s.enterRoomTool(picker));
    expect(s.snapshot.busy).toBe(false);
    expect(s.snapshot.canUndo).toBe(true); // the stroke committed as one step
    s.pointerUp(at(7.5, 1.5));
    expect(picker.seen).toEqual(['up 7.5,1.5']);
    expect(labelArea(s.map, 1)).toBe(8);
    await s.close();
  });

  it('gives the input to the first mode in ACTION_SCOPES order, whatever order they came in', async () => {
    const s = await EditorSession.open(db, clip, 'ann', 0);
    const placer = recorder('placing-comment');
    const picker = recorder('proposals');
    const leavePlacer = active(s.enterRoomTool(placer));
    active(s.enterRoomTool(picker));
    expect(s.snapshot.roomTool).toBe('placing-comment');
    s.pointerDown(at(1, 1));
    s.pointerUp(at(1, 1));
    expect(placer.seen).toEqual(['down 1,1', 'up 1,1']);
    expect(picker.seen).toEqual([]);
    leavePlacer();
    expect(s.snapshot.roomTool).toBe('proposals');
    s.pointerMove(at(2, 2));
    expect(picker.seen).toEqual(['move 2,2']);
    await s.close();
  });

  it('keeps the moves and the release of a press that began in a room tool from the paint tool, even after the tool left', async () => {
    const s = await EditorSession.open(db, clip, 'ann', 0);
    s.setBrushSize(1);
    const placer = recorder('placing-comment');
    let leave = () => {};
    // Like placing a comment: the press places it and ends the mode at once.
    placer.onPointerDown = () => leave();
    leave = active(s.enterRoomTool(placer));
    s.pointerDown(at(0.5, 1.5));
    expect(s.snapshot.roomTool).toBeNull();
    s.pointerMove(at(7.5, 1.5));
    s.pointerUp(at(7.5, 1.5));
    expect(s.toolPreview).toBeNull(); // the brush saw no move
    expect(labelArea(s.map, 1)).toBe(0);
    stroke(s, 2.5); // the next press is the brush's again
    expect(labelArea(s.map, 1)).toBe(8);
    await s.close();
  });

  it('on a read-only clip: refuses a room tool that edits masks, lets one that only picks or comments work', async () => {
    const ro = await EditorSession.open(db, clip, 'ann', 0, true);
    const painter = recorder('proposals', true);
    const refused = ro.enterRoomTool(painter);
    expect(refused).toEqual({ status: 'refused', reason: 'this clip is open read-only here; nothing can be edited' });
    expect(ro.snapshot.roomTool).toBeNull();
    const placer = recorder('placing-comment');
    active(ro.enterRoomTool(placer));
    ro.pointerDown(at(3, 4));
    ro.pointerUp(at(3, 4));
    expect(placer.seen).toEqual(['down 3,4', 'up 3,4']);
    expect(painter.seen).toEqual([]);
    await ro.close();
  });

  it('an editing room tool gets no input once a room makes the clip view-only, and gets it back after', async () => {
    const s = await EditorSession.open(db, clip, 'ann', 0);
    s.setBrushSize(1);
    const painter = recorder('proposals', true);
    active(s.enterRoomTool(painter));
    s.setViewOnly("showing the annotator's version");
    stroke(s, 1.5);
    expect(painter.seen).toEqual([]);
    expect(labelArea(s.map, 1)).toBe(0); // nor did the brush
    expect(s.enterRoomTool(recorder('placing-comment', true))).toMatchObject({ status: 'refused', reason: "showing the annotator's version; nothing can be edited" });
    s.setViewOnly(null);
    s.pointerDown(at(1, 1));
    expect(painter.seen).toEqual(['down 1,1']);
    await s.close();
  });
});
