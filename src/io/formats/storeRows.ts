/**
 * Store rows <-> ClipAnnotations, so the app (bundle export, "export clip as ...", import commit)
 * and the CLI share one mapping. Pure: it takes rows the caller read and returns rows to write.
 *
 * Frames imported from files keep their file stem (Frame.name, schema v3); frames from videos have
 * none, so exports name those frame0000, frame0001, ... unless the caller passes names. Layer provenance,
 * revisions and reviews are not annotations and stay with the project bundle. Instance tags (the
 * layer's `instances`, { tags: [...] }) travel both ways.
 */
import { parseLayer } from '../../masks/layers';
import type { Clip, Frame, Layer, Rle } from '../../store/types';
import { defaultFrameName, frameLayer, type ClipAnnotations, type FrameMeta, type LayerSource, type SourceMasks, type SourceTags } from './model';
import { parseInstanceTags, sourceTags } from './instanceRegions';

export interface StoreClipRows {
  clip: Pick<Clip, 'name' | 'width' | 'height' | 'sampleFps' | 'osc' | 'subset'>;
  /** Frame rows of the clip, any order; indices must be 0..n-1. */
  frames: readonly Frame[];
  layers: readonly (Pick<Layer, 'frameIndex' | 'source' | 'act' | 'trf'> & Partial<Pick<Layer, 'instances'>>)[];
  /** Names for the frames by index (file stems); default frame0000, frame0001, ... */
  frameNames?: readonly string[];
}

/** Store rows to the model; the layers' RLEs are validated (parseLayer) on the way. */
export function annotationsFromStore(rows: StoreClipRows): ClipAnnotations {
  const frames = [...rows.frames].sort((a, b) => a.index - b.index);
  frames.forEach((f, k) => {
    if (f.index !== k) throw new RangeError(`clip "${rows.clip.name}": frame indices must be 0..${frames.length - 1}; found ${f.index} at position ${k}`);
  });
  const sources = new Map<LayerSource, SourceMasks>();
  const instances = new Map<LayerSource, SourceTags>();
  for (const l of rows.layers) {
    let masks = sources.get(l.source);
    if (!masks) sources.set(l.source, (masks = new Map()));
    masks.set(l.frameIndex, parseLayer({ act: l.act, trf: l.trf }));
    const tags = parseInstanceTags(l.instances);
    if (tags.length > 0) {
      let bySource = instances.get(l.source);
      if (!bySource) instances.set(l.source, (bySource = new Map()));
      bySource.set(l.frameIndex, tags);
    }
  }
  const { clip } = rows;
  return {
    ...(instances.size > 0 ? { instances } : {}),
    clip: { name: clip.name, width: clip.width, height: clip.height, fps: clip.sampleFps, osc: { ...clip.osc }, subset: clip.subset },
    frames: frames.map((f, k): FrameMeta => {
      const meta: FrameMeta = { name: rows.frameNames?.[k] ?? f.name ?? defaultFrameName(k), timestampSec: f.timestampSec };
      if (f.phase !== undefined) meta.phase = f.phase;
      if (f.ignored !== undefined) meta.ignored = { ...f.ignored };
      if (f.reviewed !== undefined) meta.reviewed = f.reviewed;
      return meta;
    }),
    sources,
  };
}

export interface StoreRowsOut {
  /** Clip fields the model knows; `osc` / `subset` are absent when the format did not carry them. */
  clip: Pick<Clip, 'name' | 'width' | 'height' | 'sampleFps' | 'frameCount'> & Partial<Pick<Clip, 'osc' | 'subset'>>;
  frames: Omit<Frame, 'clipId'>[];
  /** Frame names by index, for callers that keep them (file names in bundles, source records). */
  frameNames: string[];
  layers: { frameIndex: number; source: LayerSource; act: Rle; trf: Rle; instances?: { tags: { id: number; x: number; y: number }[] } }[];
}

/** The model to store rows; `now` stamps ignores that carry no time (foreign files rarely do). */
export function storeRowsFromAnnotations(a: ClipAnnotations, now: number): StoreRowsOut {
  const { clip } = a;
  const out: StoreRowsOut = {
    clip: { name: clip.name, width: clip.width, height: clip.height, sampleFps: clip.fps, frameCount: a.frames.length },
    frames: a.frames.map((f, index) => {
      const row: Omit<Frame, 'clipId'> = { index, timestampSec: f.timestampSec };
      if (f.phase !== undefined) row.phase = f.phase;
      if (f.ignored !== undefined) row.ignored = { ...f.ignored, at: f.ignored.at ?? now };
      if (f.reviewed !== undefined) row.reviewed = f.reviewed;
      return row;
    }),
    frameNames: a.frames.map((f) => f.name),
    layers: [],
  };
  if (clip.osc) out.clip.osc = { ...clip.osc };
  if (clip.subset) out.clip.subset = clip.subset;
  for (const [source, masks] of a.sources) {
    const tags = sourceTags(a, source);
    for (const [frameIndex, mask] of [...masks].sort((x, y) => x[0] - y[0])) {
      const { act, trf } = frameLayer(mask, clip);
      const frameTags = tags.get(frameIndex);
      out.layers.push({ frameIndex, source, act, trf, ...(frameTags && frameTags.length > 0 ? { instances: { tags: frameTags.map((t) => ({ ...t })) } } : {}) });
    }
  }
  return out;
}
