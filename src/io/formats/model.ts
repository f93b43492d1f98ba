/**
 * The neutral in-memory model every format codec reads into and writes from: one clip's metadata,
 * its frames' metadata, and per source (gt, proposal, pred:<name>) the masks of the frames that
 * have them. It mirrors the store rows (Clip, Frame, Layer; see storeRows.ts) field for field so
 * that nothing the store holds about annotations is lost on the way to a format, and it is plain
 * data (no DOM, no Dexie), so codecs run in the page, in workers and in the CLI.
 *
 * Masks are either a LabelMap (what PNG codecs produce) or the stored pair of COCO RLEs (what JSON
 * codecs produce and the store keeps); frameLabelMap / frameLayer convert on demand, so a COCO ->
 * COCO conversion never decodes a pixel.
 */
import type { InstanceTag } from '../../annotator/instances';
import type { LabelMap } from '../../masks/labelMap';
import { decodeLayer, encodeLayer, type LayerMasks } from '../../masks/layers';
import { IGNORE_REASONS, type ClipSubset, type FramePhase, type IgnoreReason, type LayerSource, type Osc } from '../../store/types';
import { isLayerSource } from '../../store/validate';
import { pathSegmentProblem } from '../../store/clipNames';
import { checkClipObjects, type ClipObjectsPart } from './objectModel';

export type { LayerMasks } from '../../masks/layers';
export type { ClipSubset, FramePhase, IgnoreReason, LayerSource, Osc } from '../../store/types';
export * from './objectModel';

export const FRAME_PHASES: readonly FramePhase[] = ['initial', 'transitioning', 'end'];
export { IGNORE_REASONS };
export const SUBSETS: readonly ClipSubset[] = ['seen', 'novel'];

export interface ClipMeta {
  /** The video name: a folder name in WhereToChange / DAVIS, `video` in COCO and VISOR. */
  name: string;
  width: number;
  height: number;
  /** Frames per second the frames were sampled at (Clip.sampleFps); WhereToChange uses 1. */
  fps: number;
  /** Absent when the format does not carry it (DAVIS, VISOR, plain COCO): the app asks or derives it. */
  osc?: Osc;
  subset?: ClipSubset;
}

export interface FrameIgnore {
  reason: IgnoreReason;
  note?: string;
  by?: string;
  /** Epoch ms; optional here because foreign files rarely have it (the store fills it in). */
  at?: number;
}

export interface FrameMeta {
  /** File stem, unique per clip ignoring case ("frame0007"): the key every folder format joins on. */
  name: string;
  timestampSec: number;
  phase?: FramePhase;
  ignored?: FrameIgnore;
  /** Someone looked and found nothing to paint (an empty mask is an answer). */
  reviewed?: boolean;
}

export type FrameMask = LabelMap | LayerMasks;

/** Frame index (position in ClipAnnotations.frames) -> that frame's masks. Absent = not annotated. */
export type SourceMasks = Map<number, FrameMask>;

/** Objects (objectModel.ts): the schema, the clip's objects and their pixels per source and frame. */
export interface ClipAnnotations extends ClipObjectsPart {
  clip: ClipMeta;
  frames: FrameMeta[];
  /**
   * A Map, not a Record: source names come from files, and a Record keyed by "__proto__" or
   * "constructor" misbehaves. Insertion order is kept, so exports are deterministic.
   */
  sources: Map<LayerSource, SourceMasks>;
  /**
   * Instance tags per source and frame index ({ id, x, y }: the number of the state region around
   * the seed pixel; annotator/instances.ts). Absent or empty: no frame has tags. instanceRegions.ts
   * says which formats carry them.
   */
  instances?: Map<LayerSource, SourceTags>;
}

/** Frame index -> that frame's instance tags (only frames that have some). */
export type SourceTags = Map<number, readonly InstanceTag[]>;

/**
 * Every format's import result: clips plus, for folder formats, each frame's image file (F is
 * VirtualFile there; JSON formats carry no images, hence `never`).
 */
export interface ImportedClip<F = never> {
  annotations: ClipAnnotations;
  /** Parallel to annotations.frames; only folder formats (WhereToChange, DAVIS) have images. */
  frameFiles?: (F | undefined)[];
}

export interface ImportResult<F = never> {
  clips: ImportedClip<F>[];
  /** "<file>: <problem>" lines for things that were tolerated (unknown fields, overlaps resolved, ...). */
  warnings: string[];
}

/** One file an exporter produced; `path` uses forward slashes and is relative to the export root. */
export interface OutFile {
  path: string;
  data: Uint8Array | Blob;
}

/** A frame image the caller supplies for folder exports (the codecs never re-encode images). */
export interface FrameImage {
  data: Uint8Array | Blob;
  /** Decides the extension: image/jpeg -> .jpg (the default), image/png -> .png, image/webp -> .webp. */
  mime?: string;
}

/** The frame name used when a frame has none of its own (video imports): frame0000, frame0001, ... */
export function defaultFrameName(index: number): string {
  return `frame${String(index).padStart(4, '0')}`;
}

export function isLabelMap(mask: FrameMask): mask is LabelMap {
  return (mask as LabelMap).data instanceof Uint8Array;
}

/** A frame's masks as a label map of the clip's size (decoding the RLEs if need be). */
export function frameLabelMap(mask: FrameMask, clip: Pick<ClipMeta, 'width' | 'height'>): LabelMap {
  if (isLabelMap(mask)) {
    checkMapSize(mask, clip);
    return mask;
  }
  return decodeLayer(mask, clip);
}

/** A frame's masks as the stored RLE pair (encoding the label map if need be; it must hold only 0..2). */
export function frameLayer(mask: FrameMask, clip: Pick<ClipMeta, 'width' | 'height'>): LayerMasks {
  if (isLabelMap(mask)) {
    checkMapSize(mask, clip);
    return encodeLayer(mask);
  }
  const [h, w] = mask.act.size;
  const [th, tw] = mask.trf.size;
  if (h !== clip.height || w !== clip.width || th !== h || tw !== w) {
    throw new RangeError(`layer masks are ${w}x${h} and ${tw}x${th}; the clip is ${clip.width}x${clip.height}`);
  }
  return mask;
}

function checkMapSize(map: LabelMap, clip: Pick<ClipMeta, 'width' | 'height'>): void {
  if (map.width !== clip.width || map.height !== clip.height) {
    throw new RangeError(`label map is ${map.width}x${map.height}; the clip is ${clip.width}x${clip.height}`);
  }
}

/**
 * Why `name` cannot be a frame or video name in a file path, or null when it can. Codecs refuse such
 * names rather than silently rewrite them (which would break round trips); the app's export
 * rewrites them with a note first (exportNames.ts). One rule with the store's (store/clipNames.ts).
 */
export { pathSegmentProblem };

/**
 * Checks a ClipAnnotations before export (it may come from another importer or from the store):
 * sane size and fps, usable and unique frame names, finite timestamps, known phases and ignore
 * reasons, valid sources, mask indices inside the clip. Throws RangeError naming the clip and the
 * frame; exporters call it first so a bad clip never yields half an export.
 */
export function checkClipAnnotations(a: ClipAnnotations): void {
  const { clip } = a;
  const where = `clip "${clip.name}"`;
  const nameProblem = pathSegmentProblem(clip.name);
  if (nameProblem) throw new RangeError(`${where}: the clip name ${nameProblem}`);
  if (!Number.isInteger(clip.width) || !Number.isInteger(clip.height) || clip.width <= 0 || clip.height <= 0) {
    throw new RangeError(`${where}: size ${clip.width}x${clip.height} is not positive integers`);
  }
  if (!(Number.isFinite(clip.fps) && clip.fps > 0)) throw new RangeError(`${where}: fps ${clip.fps} must be a positive number`);
  if (clip.subset !== undefined && !SUBSETS.includes(clip.subset)) throw new RangeError(`${where}: unknown subset "${clip.subset}"`);
  const seen = new Map<string, number>();
  a.frames.forEach((f, k) => {
    const fw = `${where}, frame ${k}`;
    const problem = pathSegmentProblem(f.name);
    if (problem) throw new RangeError(`${fw}: the frame name ${JSON.stringify(f.name)} ${problem}`);
    const key = f.name.toLowerCase();
    const other = seen.get(key);
    if (other !== undefined) throw new RangeError(`${fw}: the name "${f.name}" is also the name of frame ${other} (names must differ, ignoring case)`);
    seen.set(key, k);
    if (!Number.isFinite(f.timestampSec)) throw new RangeError(`${fw}: timestamp ${f.timestampSec} is not a finite number`);
    if (f.phase !== undefined && !FRAME_PHASES.includes(f.phase)) throw new RangeError(`${fw}: unknown phase "${f.phase}"`);
    if (f.ignored !== undefined && !IGNORE_REASONS.includes(f.ignored.reason)) {
      throw new RangeError(`${fw}: unknown ignore reason "${f.ignored.reason}"`);
    }
  });
  for (const [source, masks] of a.sources) {
    if (!isLayerSource(source)) throw new RangeError(`${where}: unknown source "${source}" (expected gt, proposal, pred:<name> or ann:<name>)`);
    for (const index of masks.keys()) {
      if (!Number.isInteger(index) || index < 0 || index >= a.frames.length) {
        throw new RangeError(`${where}: source ${source} has masks for frame ${index}, but the clip has ${a.frames.length} frames`);
      }
    }
  }
  if (a.objects || a.objectMasks) checkClipObjects(a, a.frames.length);
}

/** The masks of one source, or an empty map when the clip has none for it. */
export function sourceMasks(a: ClipAnnotations, source: LayerSource): SourceMasks {
  return a.sources.get(source) ?? new Map();
}

/** The extension a frame image is written with, from its mime type (jpg when unknown). */
export function imageExtension(mime: string | undefined): string {
  switch (mime) {
    case 'image/png':
      return 'png';
    case 'image/webp':
      return 'webp';
    case 'image/bmp':
      return 'bmp';
    default:
      return 'jpg';
  }
}
