/**
 * Layers written without revisions (an import's ground truth, a prediction set, the demo) are not on
 * any replica: the protocol syncs revisions, and a replica's layer is the replay of them. Before a
 * clip's first push, each of its gt and pred:* layers that differs from the replay of its revisions
 * gets one more revision (action `sync:baseline`, the changed pixels' tight box, by the layer's
 * author) saying exactly that difference, so the replay equals the layer everywhere. Running it again
 * finds nothing to add. Other sources (proposals, a second annotator's import) stay local.
 */
import { diffToPatch } from '../annotator/patch';
import { patchToRevision } from '../annotator/revisionPatch';
import { decodeLayer, parseLayer } from '../masks/layers';
import { replayRevisionLabels } from '../masks/replayRevisions';
import type { SpocDb } from '../store/db';
import { clipLayers } from '../store/keys';
import { appendRevisionRow } from '../store/revisions';
import type { Layer, RevisionInput } from '../store/types';
import { checkRevision } from '../store/validate';
import { inReplayOrder } from './replayOrder';

export const BASELINE_ACTION = 'sync:baseline';

const syncedSource = (source: string) => source === 'gt' || source.startsWith('pred:');

/** Appends the baseline revisions a clip needs; returns how many. */
export async function baselineClip(db: SpocDb, clipId: string): Promise<number> {
  return db.transaction('rw', [db.clips, db.layers, db.revisions], async () => {
    const clip = await db.clips.get(clipId);
    if (!clip) return 0;
    const layers = (await clipLayers(db, clipId).toArray()).filter((l) => syncedSource(l.source));
    let added = 0;
    for (const layer of layers) {
      const revision = await baselineOf(db, layer, clip);
      if (!revision) continue;
      await appendRevisionRow(db, checkRevision(revision, clip));
      added++;
    }
    return added;
  });
}

async function baselineOf(db: SpocDb, layer: Layer, clip: { width: number; height: number }): Promise<RevisionInput | null> {
  const revisions = inReplayOrder(await db.revisions.where('[clipId+source+frameIndex]').equals([layer.clipId, layer.source, layer.frameIndex]).toArray());
  const replay = replayRevisionLabels(clip.width, clip.height, revisions);
  const stored = decodeLayer(parseLayer(layer), clip);
  const patch = diffToPatch(replay, stored, { x: 0, y: 0, w: clip.width, h: clip.height }, layer.frameIndex, BASELINE_ACTION);
  if (!patch) return null;
  return { ...patchToRevision(patch), clipId: layer.clipId, source: layer.source, author: layer.provenance.by || 'unknown', at: layer.updatedAt };
}
