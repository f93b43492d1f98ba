/**
 * What the editor session's tests start from: a fresh store holding one project and an empty clip
 * (8x6 frames, no masks), pointer input in image coordinates, and a stroke across a row.
 */
import type { SpocDb } from '../store/db';
import { createProject } from '../store/projects';
import { commitClipImport } from '../store/importCommit';
import type { Clip } from '../store/types';
import type { PointerInput } from '../annotator/tools/types';
import { freshDb, importDraft } from './storeFixtures';

export interface ClipStore {
  db: SpocDb;
  clip: Clip;
  projectId: string;
}

/** A fresh store with one project and an empty clip of `frames` frames, 8x6, no masks. */
export async function emptyClipStore(frames: number): Promise<ClipStore> {
  const db = await freshDb();
  const p = await createProject(db, { name: 'P' });
  const clip = await commitClipImport(db, importDraft(p.id, frames, { layers: [] }));
  return { db, clip, projectId: p.id };
}

/** Pointer input at (x, y) in image pixels, no modifier keys. */
export const at = (x: number, y: number, button = 0): PointerInput => ({ x, y, button, shift: false, alt: false });

interface PointerTarget {
  pointerDown(p: PointerInput): void;
  pointerMove(p: PointerInput): void;
  pointerUp(p: PointerInput): void;
}

/** A left-button stroke across row y of an 8-pixel-wide frame, from x 0.5 to 7.5. */
export function stroke(s: PointerTarget, y: number): void {
  s.pointerDown(at(0.5, y));
  s.pointerMove(at(7.5, y));
  s.pointerUp(at(7.5, y));
}
