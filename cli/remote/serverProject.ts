/**
 * A server project as the CLI sees it after a full pull: its clips with their frames, and each
 * frame's layer of a source rebuilt as the replay of its revisions in cursor order
 * (masks/replayRevisions.ts; docs/sync.md "The protocol"), the same mask every browser shows.
 * Pure: rows in, label maps out.
 */
import { defaultFrameName, type ClipAnnotations, type FrameMeta, type LayerSource, type SourceMasks } from '../../src/io/formats/model';
import { createLabelMap, type LabelMap } from '../../src/masks/labelMap';
import { applyRevisionChanges } from '../../src/masks/replayRevisions';
import type { Clip, Frame, Revision } from '../../src/store/types';
import { compareCursors, type Cursor, type PulledChange } from '../../src/sync/protocol';
import { DataError } from '../io';

export type PulledRevision = Omit<Revision, 'seq'> & { cursor: Cursor };

export interface ServerClip {
  clip: Clip;
  /** By index, 0..frameCount-1 (a frame row the server lacks is made up with its position's name). */
  frames: Frame[];
  /** `<source>/<frameIndex>` -> its revisions in cursor order. */
  revisions: Map<string, PulledRevision[]>;
}

const revisionKey = (source: string, frameIndex: number) => `${source}/${frameIndex}`;

/** The project's clips, without those in its trash (a manager's `deletedAt`, docs/sync.md "Deletions"), as the app's exports do. */
export function serverClips(rows: readonly PulledChange[]): ServerClip[] {
  const clips = new Map<string, ServerClip>();
  for (const r of rows) if (r.kind === 'clip' && r.row.deletedAt === undefined) clips.set(r.id, { clip: r.row as unknown as Clip, frames: [], revisions: new Map() });
  for (const r of rows) {
    const owner = clips.get(String(r.row.clipId));
    if (!owner) continue;
    if (r.kind === 'frame') owner.frames.push(r.row as unknown as Frame);
    else if (r.kind === 'revision') {
      const rev = { ...(r.row as unknown as Omit<Revision, 'seq'>), cursor: r.cursor };
      const key = revisionKey(rev.source, rev.frameIndex);
      const list = owner.revisions.get(key);
      if (list) list.push(rev);
      else owner.revisions.set(key, [rev]);
    }
  }
  for (const c of clips.values()) {
    const byIndex = new Map(c.frames.map((f) => [f.index, f]));
    c.frames = Array.from({ length: c.clip.frameCount }, (_, index) => byIndex.get(index) ?? { clipId: c.clip.id, index, timestampSec: index / (c.clip.sampleFps || 1) });
    for (const list of c.revisions.values()) list.sort((a, b) => compareCursors(a.cursor, b.cursor));
  }
  return [...clips.values()].sort((a, b) => (a.clip.name < b.clip.name ? -1 : a.clip.name > b.clip.name ? 1 : 0));
}

/** The frame's layer of `source`, replayed; null when no revision of it exists (never painted). */
export function replayedLayer(c: ServerClip, source: LayerSource, frameIndex: number): LabelMap | null {
  const list = c.revisions.get(revisionKey(source, frameIndex));
  if (!list) return null;
  const map = createLabelMap(c.clip.width, c.clip.height);
  for (const rev of list) {
    try {
      applyRevisionChanges(map, rev);
    } catch (err) {
      throw new DataError(`clip "${c.clip.name}", frame ${frameIndex + 1}, ${source}: revision ${rev.id} cannot be replayed (${(err as Error).message})`);
    }
  }
  return map;
}

/** The largest cursor among the frame's revisions of `source` ("0" without any): a new revision's `base`. */
export function latestCursor(c: ServerClip, source: LayerSource, frameIndex: number): Cursor {
  const list = c.revisions.get(revisionKey(source, frameIndex));
  return list && list.length > 0 ? list[list.length - 1].cursor : '0';
}

/**
 * The clip as the formats' model, with the replayed layers of `sources`. A gt frame someone marked
 * reviewed (looked, nothing to paint) but never painted is an empty mask: an answer, not a gap.
 */
export function clipAnnotations(c: ServerClip, sources: readonly LayerSource[]): ClipAnnotations {
  const { clip } = c;
  const frames = c.frames.map((f, k): FrameMeta => {
    const meta: FrameMeta = { name: f.name ?? defaultFrameName(k), timestampSec: f.timestampSec };
    if (f.phase !== undefined) meta.phase = f.phase;
    if (f.ignored !== undefined) meta.ignored = { ...f.ignored };
    if (f.reviewed !== undefined) meta.reviewed = f.reviewed;
    return meta;
  });
  const layers = new Map<LayerSource, SourceMasks>();
  for (const source of sources) {
    const masks: SourceMasks = new Map();
    c.frames.forEach((f, k) => {
      const map = replayedLayer(c, source, k) ?? (source === 'gt' && f.reviewed ? createLabelMap(clip.width, clip.height) : null);
      if (map) masks.set(k, map);
    });
    layers.set(source, masks);
  }
  return {
    clip: { name: clip.name, width: clip.width, height: clip.height, fps: clip.sampleFps, osc: { ...clip.osc }, subset: clip.subset },
    frames,
    sources: layers,
  };
}
