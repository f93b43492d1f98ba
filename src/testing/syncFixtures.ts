/**
 * Test-only helpers for src/sync: a linked store with one clip, strokes written the way the editor
 * writes them (a patch's revision with the frame's new layer, store/layers.ts saveFrameEdits), and
 * `CursorLog`, which numbers pushed rows and serves them back as pull pages.
 *
 * CursorLog is NOT a server: it checks nothing (no roles, no lifecycle) and is not a SyncTransport.
 * It only plays the two facts of docs/sync.md the client relies on: cursors increase in the order
 * batches are accepted, a resent log row keeps its first cursor, and a pull returns each row once at
 * its latest cursor. The engine's tests against the real server live with server/sync.
 */
import { diffToPatch } from '../annotator/patch';
import { patchToRevision } from '../annotator/revisionPatch';
import { createLabelMap, type LabelMap } from '../masks/labelMap';
import { decodeLayer, encodeLayer, parseLayer } from '../masks/layers';
import type { SpocDb } from '../store/db';
import { commitClipImport } from '../store/importCommit';
import { saveFrameEdits } from '../store/layers';
import { createProject } from '../store/projects';
import type { Clip } from '../store/types';
import { LOG_KINDS, type PulledChange, type PullResponse, type PushChange, type PushOutcome } from '../sync/protocol';
import { newLink, writeLink } from '../sync/syncState';
import { importDraft } from './storeFixtures';

export const SERVER = 'http://sync.test';

/** A project with one 4-frame 8x6 clip (no masks), linked to server project `serverProjectId`. */
export async function linkedProject(db: SpocDb, serverProjectId = 'srv-project-1', client = 'client-a'): Promise<{ projectId: string; clip: Clip }> {
  const project = await createProject(db, { name: 'P' });
  const clip = await commitClipImport(db, importDraft(project.id, 4, { layers: [] }));
  await db.transaction('rw', db.meta, () => writeLink(db, newLink(project.id, SERVER, serverProjectId, client, false)));
  return { projectId: project.id, clip };
}

/** The editor's in-memory frames of one clip, written back as the editor does after each stroke. */
export class Painter {
  private readonly maps = new Map<number, LabelMap>();
  constructor(
    private readonly db: SpocDb,
    private readonly clip: Clip,
    private readonly author: string,
  ) {}

  /** Loads the frame as stored (after a pull rewrote it). */
  forget(frameIndex: number): void {
    this.maps.delete(frameIndex);
  }

  private async map(frameIndex: number): Promise<LabelMap> {
    let m = this.maps.get(frameIndex);
    if (!m) {
      const layer = await this.db.layers.get([this.clip.id, 'gt', frameIndex]);
      m = layer ? decodeLayer(parseLayer(layer)) : createLabelMap(this.clip.width, this.clip.height);
      this.maps.set(frameIndex, m);
    }
    return m;
  }

  /** Paints label `label` (0 erases) on the rectangle, as one stroke: one revision, the layer with it. */
  async stroke(frameIndex: number, box: { x: number; y: number; w: number; h: number }, label: number, action = label === 0 ? 'eraser' : 'brush'): Promise<boolean> {
    const map = await this.map(frameIndex);
    const after = { width: map.width, height: map.height, data: map.data.slice() };
    for (let y = box.y; y < box.y + box.h; y++) for (let x = box.x; x < box.x + box.w; x++) after.data[y * map.width + x] = label;
    const patch = diffToPatch(map, after, box, frameIndex, action);
    if (!patch) return false;
    map.data.set(after.data);
    const { act, trf } = encodeLayer(map);
    await saveFrameEdits(
      this.db,
      [
        {
          layer: { clipId: this.clip.id, frameIndex, source: 'gt', act, trf, provenance: { kind: 'manual', by: this.author, at: Date.now() } },
          revisions: [{ ...patchToRevision(patch), clipId: this.clip.id, source: 'gt', author: this.author, at: Date.now() }],
        },
      ],
      { clip: this.clip },
    );
    return true;
  }
}

/** Numbers accepted rows in acceptance order and serves pull pages (see the module comment). */
export class CursorLog {
  private next = 1;
  private readonly rows = new Map<string, PulledChange>();
  /** How many times each log row id was stored (a resend must not store it twice). */
  readonly stored = new Map<string, number>();

  accept(changes: readonly PushChange[], by: string, refuse: (c: PushChange) => string | null = () => null): PushOutcome[] {
    return changes.map((c) => {
      const why = refuse(c);
      if (why) return { kind: c.kind, id: c.id, status: 'refused', code: 403, error: why };
      const key = `${c.kind} ${c.id}`;
      const had = this.rows.get(key);
      if (had && LOG_KINDS.includes(c.kind)) return { kind: c.kind, id: c.id, status: 'accepted', cursor: had.cursor, duplicate: true };
      const cursor = String(this.next++);
      const { image: _image, ...row } = c.row as { image?: unknown };
      this.rows.set(key, { kind: c.kind, id: c.id, cursor, by, row: c.kind === 'frame' ? { ...row, image: c.row.image } : row });
      this.stored.set(c.id, (this.stored.get(c.id) ?? 0) + 1);
      return { kind: c.kind, id: c.id, status: 'accepted', cursor };
    });
  }

  page(after: string, limit = 500): PullResponse {
    const all = [...this.rows.values()].filter((r) => Number(r.cursor) > Number(after)).sort((a, b) => Number(a.cursor) - Number(b.cursor));
    const changes = all.slice(0, limit);
    return { changes, cursor: changes.at(-1)?.cursor ?? after, more: all.length > limit };
  }
}
