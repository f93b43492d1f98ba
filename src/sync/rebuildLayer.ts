/**
 * Rewrites a frame's layer as the replay of its revisions (docs/sync.md "The browser client"): how a
 * pulled revision reaches the mask. The row goes through the store's own layer builder
 * (store/validate.ts buildLayer: areas from the RLE, checked against the clip), and the journal
 * captures the write like any other. Instance tags stay as the layer had them (they are not
 * revisions); provenance names the last revision's author.
 */
import { MaskFormatError } from '../masks/errors';
import { encodeLayerInBox } from '../masks/layers';
import { applyRevisionChanges } from '../masks/replayRevisions';
import { createLabelMap, type Box } from '../masks/labelMap';
import type { SpocDb } from '../store/db';
import type { Clip, LayerSource, Revision } from '../store/types';
import { buildLayer } from '../store/validate';
import { inReplayOrder } from './replayOrder';

export interface RebuildOutcome {
  /** Revisions that could not be replayed (malformed, or outside the frame): skipped. */
  skipped: { id: string; error: string }[];
}

/** Call inside a read-write transaction over `revisions` and `layers`. */
export async function rebuildLayer(db: SpocDb, clip: Clip, source: LayerSource, frameIndex: number, now = Date.now()): Promise<RebuildOutcome> {
  const revisions = inReplayOrder(await db.revisions.where('[clipId+source+frameIndex]').equals([clip.id, source, frameIndex]).toArray());
  const map = createLabelMap(clip.width, clip.height);
  const skipped: RebuildOutcome['skipped'] = [];
  let last: Revision | undefined;
  // The replay starts empty and writes only inside the boxes it applied, so only their union is encoded.
  let painted: Box | null = null;
  for (const rev of revisions) {
    try {
      applyRevisionChanges(map, rev);
      last = rev;
      painted = union(painted, rev.box);
    } catch (err) {
      if (!(err instanceof MaskFormatError)) throw err;
      skipped.push({ id: rev.id, error: err.message });
    }
  }
  const existing = await db.layers.get([clip.id, source, frameIndex]);
  const { act, trf } = encodeLayerInBox(map, painted);
  const layer = buildLayer(
    {
      clipId: clip.id,
      frameIndex,
      source,
      act,
      trf,
      ...(existing?.instances ? { instances: existing.instances } : {}),
      provenance: last ? { kind: existing?.provenance.kind ?? 'manual', by: last.author, at: last.at } : (existing?.provenance ?? { kind: 'manual', by: 'sync', at: now }),
    },
    clip,
    now,
  );
  await db.layers.put(layer);
  return { skipped };
}

function union(a: Box | null, b: Box): Box {
  if (!a) return { x: b.x, y: b.y, w: b.w, h: b.h };
  const x = Math.min(a.x, b.x);
  const y = Math.min(a.y, b.y);
  return { x, y, w: Math.max(a.x + a.w, b.x + b.w) - x, h: Math.max(a.y + a.h, b.y + b.h) - y };
}
