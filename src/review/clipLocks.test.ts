import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { encodeLayer } from '../masks/layers';
import type { VirtualFile } from '../io/files/virtualFile';
import { VOC_PALETTE, encodeIndexedPng } from '../io/indexedPng';
import type { SpocDb } from '../store/db';
import { commitClipImport } from '../store/importCommit';
import { createProject } from '../store/projects';
import { H, W, freshDb, importDraft, snapshot } from '../testing/storeFixtures';
import type { Clip } from '../store/types';
import { ClipBusyError } from '../workspace/clipWriteLock';
import { settle, twoTabs } from '../testing/locks';
import { importAnnotationPngs } from '../io/sources/annotations';
import { importPredictionPngs } from '../io/sources/predictions';
import { approveClip, takeClipStep } from './reviewSteps';
import { rects } from '../testing/review';

/*
 * Two tabs (docs/durability.md): writers outside the editor (lifecycle steps, prediction and second-annotation imports)
 * are refused while another tab edits the clip — with nothing written — and go on in the tab
 * that edits it.
 */

let db: SpocDb;
let clip: Clip;
let tabs: ReturnType<typeof twoTabs>;
beforeEach(async () => {
  db = await freshDb();
  const p = await createProject(db, { name: 'P' });
  const draft = importDraft(p.id, 2);
  draft.clip.name = 'peel potato 01';
  draft.frames.forEach((f, k) => (f.name = `img_${k + 1}`));
  const gt = rects(W, H, 0, [1, 0, 0, 3, 4]);
  draft.layers = [{ frameIndex: 0, source: 'gt', ...encodeLayer(gt), provenance: { kind: 'imported', by: 'test', at: 1 } }];
  clip = await commitClipImport(db, draft);
  tabs = twoTabs();
});
afterEach(() => {
  tabs.restore();
  db.close();
});

const busy = (what: string) => `${what}: "peel potato 01" is open for editing in another tab; close it there (or finish) and try again. Nothing was changed.`;
const masks = (): VirtualFile[] => [{ path: 'run/img_1.png', blob: new Blob([encodeIndexedPng(rects(W, H, 0, [2, 1, 1, 3, 3]), VOC_PALETTE) as Uint8Array<ArrayBuffer>]) }];

async function refused(p: Promise<unknown>): Promise<string> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ClipBusyError);
  return (err as Error).message;
}

describe('while another tab edits the clip', () => {
  beforeEach(async () => {
    await tabs.elsewhere.tryAcquire(clip.id);
  });

  it('a status change is refused and nothing is written', async () => {
    const before = await snapshot(db);
    expect(await refused(takeClipStep(db, clip.id, 'submit', 'rev'))).toBe(busy('Cannot take the step "Submit for review"'));
    expect(await snapshot(db)).toEqual(before);
  });

  it('approving is refused and nothing is written', async () => {
    await db.clips.update(clip.id, { status: 'in_review' });
    const before = await snapshot(db);
    expect(await refused(approveClip(db, clip.id, 'rev'))).toBe(busy('Cannot take the step "Approve"'));
    expect(await snapshot(db)).toEqual(before);
  });

  it('a prediction import and a second annotator import are refused and nothing is written', async () => {
    const before = await snapshot(db);
    expect(await refused(importPredictionPngs(db, clip.id, masks(), 'run', 'model-a'))).toBe(busy('Cannot import pred:model-a into "peel potato 01"'));
    expect(await refused(importAnnotationPngs(db, clip.id, masks(), 'run', 'bob'))).toBe(busy('Cannot import ann:bob into "peel potato 01"'));
    expect(await snapshot(db)).toEqual(before);
  });
});

describe('in the tab that edits the clip, or with nobody editing it', () => {
  it('the same writers go through, and leave no lock behind', async () => {
    const editor = (await tabs.here.tryAcquire(clip.id))!;
    await takeClipStep(db, clip.id, 'submit', 'ann');
    await importPredictionPngs(db, clip.id, masks(), 'run', 'model-a');
    expect(tabs.here.heldHere(clip.id)).toBe(true); // the editor still holds its clip
    editor.release();
    await settle();
    await takeClipStep(db, clip.id, 'start_review', 'rev');
    expect(tabs.here.heldHere(clip.id)).toBe(false);
    expect((await db.clips.get(clip.id))?.status).toBe('in_review');
    expect(await tabs.elsewhere.tryAcquire(clip.id)).not.toBeNull();
  });
});
