import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getClip } from './clips';
import type { SpocDb } from './db';
import { getFrame, getFrameImage, listFrames, setFrameIgnored, setFramePhase, setFramePhaseRange, setFramePhases, setFrameReviewed } from './frames';
import { commitClipImport } from './importCommit';
import { createProject } from './projects';
import { freshDb, importDraft } from '../testing/storeFixtures';
import type { Clip } from './types';

let db: SpocDb;
let clip: Clip;
beforeEach(async () => {
  db = await freshDb();
  const p = await createProject(db, { name: 'P' });
  clip = await commitClipImport(db, importDraft(p.id, 12));
});
afterEach(() => db.close());

describe('frames', () => {
  it('lists frames in numeric index order, without pixels', async () => {
    const frames = await listFrames(db, clip.id);
    // 12 frames: string ordering would put 10 and 11 before 2.
    expect(frames.map((f) => f.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(frames[0]).toEqual({ clipId: clip.id, index: 0, timestampSec: 0 });
    expect(frames.some((f) => 'blob' in f)).toBe(false);
  });

  it('returns the frame image as a Blob with its size and type', async () => {
    const img = await getFrameImage(db, clip.id, 2);
    expect(img).toMatchObject({ clipId: clip.id, index: 2, mime: 'image/png', width: clip.width, height: clip.height });
    expect(img?.blob).toBeInstanceOf(Blob);
    expect(new Uint8Array(await img!.blob.arrayBuffer())[0]).toBe((2 * 31) & 0xff);
    expect(await getFrameImage(db, clip.id, 99)).toBeUndefined();
  });

  it('sets and clears the phase, and the first edit starts work on the clip', async () => {
    expect(clip.status).toBe('todo');
    await setFramePhase(db, clip.id, 3, 'transitioning');
    expect((await getFrame(db, clip.id, 3))?.phase).toBe('transitioning');
    expect((await getClip(db, clip.id))?.status).toBe('in_progress');
    await setFramePhase(db, clip.id, 3, undefined);
    expect(await getFrame(db, clip.id, 3)).toEqual({ clipId: clip.id, index: 3, timestampSec: 3 });
  });

  it('marks a frame ignored with reason, note, author and time, and un-ignores it', async () => {
    const f = await setFrameIgnored(db, clip.id, 1, { reason: 'too_blurry', note: ' motion ', by: 'ann' });
    expect(f.ignored).toMatchObject({ reason: 'too_blurry', note: 'motion', by: 'ann' });
    expect(typeof f.ignored?.at).toBe('number');
    expect((await getFrame(db, clip.id, 1))?.ignored?.reason).toBe('too_blurry');
    await setFrameIgnored(db, clip.id, 1, null);
    expect((await getFrame(db, clip.id, 1))?.ignored).toBeUndefined();
  });

  it('sets reviewed', async () => {
    await setFrameReviewed(db, clip.id, 4, true);
    expect((await getFrame(db, clip.id, 4))?.reviewed).toBe(true);
    await setFrameReviewed(db, clip.id, 4, false);
    expect((await getFrame(db, clip.id, 4))?.reviewed).toBeUndefined();
  });

  it('refuses unknown frames and values without writing', async () => {
    await expect(setFramePhase(db, clip.id, 12, 'end')).rejects.toMatchObject({ code: 'not_found' });
    await expect(setFramePhase(db, clip.id, 0, 'middle' as never)).rejects.toMatchObject({ code: 'invalid' });
    await expect(setFrameIgnored(db, clip.id, 0, { reason: 'boring' as never })).rejects.toMatchObject({ code: 'invalid' });
    expect((await getClip(db, clip.id))?.status).toBe('todo');
  });

  it('sets the phase of a range of frames at once, and clears it', async () => {
    const written = await setFramePhaseRange(db, clip.id, 7, 3, 'transitioning'); // either order
    expect(written).toBe(5);
    const phases = (await listFrames(db, clip.id)).map((f) => f.phase ?? '-');
    expect(phases).toEqual(['-', '-', '-', 'transitioning', 'transitioning', 'transitioning', 'transitioning', 'transitioning', '-', '-', '-', '-']);
    expect((await getClip(db, clip.id))?.status).toBe('in_progress');
    await setFramePhaseRange(db, clip.id, 4, 5, undefined);
    expect((await listFrames(db, clip.id)).filter((f) => f.phase).map((f) => f.index)).toEqual([3, 6, 7]);
  });

  it('sets many frames\' phases in one transaction: a bad frame or value writes nothing', async () => {
    await setFramePhases(db, clip.id, new Map([[0, 'initial'], [11, 'end']]));
    expect((await listFrames(db, clip.id)).filter((f) => f.phase).map((f) => `${f.index}:${f.phase}`)).toEqual(['0:initial', '11:end']);
    await expect(setFramePhases(db, clip.id, new Map([[1, 'initial'], [12, 'end']]))).rejects.toMatchObject({ code: 'not_found' });
    await expect(setFramePhases(db, clip.id, new Map([[1, 'initial'], [2, 'middle' as never]]))).rejects.toMatchObject({ code: 'invalid' });
    expect((await getFrame(db, clip.id, 1))?.phase).toBeUndefined();
    // Frames whose phase is already what is asked are not rewritten (nor counted).
    expect(await setFramePhases(db, clip.id, new Map([[0, 'initial'], [1, 'initial']]))).toBe(1);
  });
});
