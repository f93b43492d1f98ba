/**
 * Store rows <-> ClipAnnotations, so the app (bundle export, "export clip as ...", import commit)
 * and the CLI share one mapping. Pure: it takes rows the caller read and returns rows to write.
 *
 * Frames imported from files keep their file stem (Frame.name, schema v3); frames from videos have
 * none, so exports name those frame0000, frame0001, ... unless the caller passes names. Layer provenance,
 * revisions and reviews are not annotations and stay with the project bundle. Instance tags (the
 * layer's `instances`, { tags: [...] }) travel both ways, and so do objects (docs/objects.md): the
 * object rows, each layer's `objects` and `relations`, and the project's label schema.
 */
import { parseLayer } from '../../masks/layers';
import { rleArea } from '../../masks/rleOps';
import type { CocoRle } from '../../masks/rle';
import type { ClipObject, Clip, Frame, Layer, LayerObject, LayerRelation, Provenance, Rle } from '../../store/types';
import {
  defaultFrameName,
  frameLayer,
  type ClipAnnotations,
  type FrameMeta,
  type FrameObjects,
  type LabelSchema,
  type LayerSource,
  type ObjectMeta,
  type ObjectProvenance,
  type SourceMasks,
  type SourceObjects,
  type SourceTags,
} from './model';
import { parseInstanceTags, sourceTags } from './instanceRegions';

export interface StoreClipRows {
  clip: Pick<Clip, 'name' | 'width' | 'height' | 'sampleFps' | 'osc' | 'subset'>;
  /** Frame rows of the clip, any order; indices must be 0..n-1. */
  frames: readonly Frame[];
  layers: readonly (Pick<Layer, 'frameIndex' | 'source' | 'act' | 'trf'> & Partial<Pick<Layer, 'instances' | 'objects' | 'relations'>>)[];
  /** Names for the frames by index (file stems); default frame0000, frame0001, ... */
  frameNames?: readonly string[];
  /** The clip's object rows; removed ones are left out unless a layer still names them. */
  objects?: readonly Pick<ClipObject, 'id' | 'number' | 'name' | 'classId' | 'attributes' | 'deletedAt'>[];
  /** The project's label schema (Project.labels); absent: a SPOC project. */
  labels?: LabelSchema;
}

/** Store rows to the model; the layers' RLEs are validated (parseLayer) on the way. */
export function annotationsFromStore(rows: StoreClipRows): ClipAnnotations {
  const frames = [...rows.frames].sort((a, b) => a.index - b.index);
  frames.forEach((f, k) => {
    if (f.index !== k) throw new RangeError(`clip "${rows.clip.name}": frame indices must be 0..${frames.length - 1}; found ${f.index} at position ${k}`);
  });
  const sources = new Map<LayerSource, SourceMasks>();
  const instances = new Map<LayerSource, SourceTags>();
  const objectMasks = new Map<LayerSource, SourceObjects>();
  const named = new Set<string>();
  for (const l of rows.layers) {
    if ((l.objects?.length ?? 0) > 0 || (l.relations?.length ?? 0) > 0) {
      let bySource = objectMasks.get(l.source);
      if (!bySource) objectMasks.set(l.source, (bySource = new Map()));
      const frame: FrameObjects = {
        objects: (l.objects ?? []).map((o) => {
          named.add(o.id);
          return {
            id: o.id,
            rle: { size: [o.rle.size[0], o.rle.size[1]], counts: o.rle.counts },
            ...(o.presence !== undefined ? { presence: o.presence } : {}),
            ...(o.keyframe ? { keyframe: true as const } : {}),
            ...(o.exhaustive ? { exhaustive: true as const } : {}),
            ...(o.provenance ? { provenance: { ...o.provenance } } : {}),
          };
        }),
        relations: (l.relations ?? []).map((r) => ({ ...r, ...(r.provenance ? { provenance: { ...r.provenance } } : {}) })),
      };
      bySource.set(l.frameIndex, frame);
    }
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
  const objects = (rows.objects ?? [])
    .filter((o) => o.deletedAt === undefined || named.has(o.id))
    .map((o): ObjectMeta => ({
      id: o.id,
      number: o.number,
      name: o.name,
      ...(o.classId !== undefined ? { classId: o.classId } : {}),
      ...(o.attributes !== undefined ? { attributes: { ...o.attributes } } : {}),
    }))
    .sort((x, y) => x.number - y.number || (x.id < y.id ? -1 : 1));
  return {
    ...(instances.size > 0 ? { instances } : {}),
    ...(rows.labels ? { labels: rows.labels } : {}),
    ...(objects.length > 0 ? { objects } : {}),
    ...(objectMasks.size > 0 ? { objectMasks } : {}),
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
  layers: {
    frameIndex: number;
    source: LayerSource;
    act: Rle;
    trf: Rle;
    instances?: { tags: { id: number; x: number; y: number }[] };
    objects?: LayerObject[];
    relations?: LayerRelation[];
  }[];
  /** The clip's objects (rows to write with the caller's clip id and times), when the model has any. */
  objects?: ObjectMeta[];
  labels?: LabelSchema;
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
  if (a.labels) out.labels = a.labels;
  if (a.objects && a.objects.length > 0) out.objects = a.objects.map((o) => ({ ...o, ...(o.attributes ? { attributes: { ...o.attributes } } : {}) }));
  const stamp = (p: ObjectProvenance): Provenance => ({ ...p, at: p.at ?? now });
  for (const [source, masks] of a.sources) {
    const tags = sourceTags(a, source);
    const objectFrames = a.objectMasks?.get(source);
    for (const [frameIndex, mask] of [...masks].sort((x, y) => x[0] - y[0])) {
      const { act, trf } = frameLayer(mask, clip);
      const frameTags = tags.get(frameIndex);
      const frameObjects = objectFrames?.get(frameIndex);
      out.layers.push({
        frameIndex,
        source,
        act,
        trf,
        ...(frameTags && frameTags.length > 0 ? { instances: { tags: frameTags.map((t) => ({ ...t })) } } : {}),
        ...(frameObjects && frameObjects.objects.length > 0
          ? {
              objects: frameObjects.objects.map((o): LayerObject => {
                const row: LayerObject = { id: o.id, rle: { size: [o.rle.size[0], o.rle.size[1]], counts: o.rle.counts }, area: rleArea(o.rle as CocoRle) };
                if (o.presence !== undefined) row.presence = o.presence;
                if (o.keyframe) row.keyframe = true;
                if (o.exhaustive) row.exhaustive = true;
                if (o.provenance) row.provenance = stamp(o.provenance);
                return row;
              }),
            }
          : {}),
        ...(frameObjects && frameObjects.relations.length > 0
          ? { relations: frameObjects.relations.map((r): LayerRelation => {
                const { provenance, ...rest } = r;
                return { ...rest, ...(provenance ? { provenance: stamp(provenance) } : {}) };
              }),
            }
          : {}),
      });
    }
  }
  return out;
}
