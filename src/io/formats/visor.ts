/**
 * VISOR-style polygon JSON (EPIC-KITCHENS VISOR sparse annotations), export and import.
 *
 * The structure, reconstructed from VISOR's public files and tools (an assumption: we had no
 * schema document), one file per video:
 *   { "info": {...}?,                                  optional; we write { description, width, height }
 *     "video_annotations": [
 *       { "image": { "name": "P01_01_frame_0000000140.jpg", "video": "P01_01",
 *                    "image_path": "P01_01/P01_01_frame_0000000140.jpg", "subsequence"?: "..." },
 *         "annotations": [
 *           { "id": "...", "name": "onion", "class_id": 12, "exhaustive"?: 1,
 *             "in_contact_object"?: "...", "on_which_hand"?: [...],
 *             "segments": [ [[x, y], [x, y], ...], ... ] } ] } ] }
 * Objects are named, not typed as states: import maps names to actionable / transformed with the
 * `names` option (default: the names "actionable" and "transformed", which our export writes);
 * other objects (hands, tools) are skipped and listed in a warning.
 *
 * Rasterisation rule (both directions): each polygon as pycocotools' rleFrPoly (pixel (x, y) spans
 * [x, x+1) x [y, y+1)), the segments of one object combined by the even-odd rule (a segment inside
 * another is a hole, as OpenCV's fillPoly also treats several contours), objects of one state
 * united. Export traces exact pixel-corner contours (contours.ts), so export -> import reproduces
 * every label map bit for bit. VISOR's own scripts rasterise with cv2.fillPoly on int32 vertices,
 * which also fills the pixels on the right and bottom edges of our polygons: read by those tools,
 * exported masks grow by one pixel towards +x and +y.
 *
 * What VISOR cannot carry: fps, timestamps (import uses k / fps), phases, ignores, the OSC. The frame
 * size comes from `info.width/height` (ours), a "WxH" in `info.details` (VISOR's dense files), or
 * the `size` option. VISOR's sparse polygons are in 1920x1080 coordinates: pass `coordinateSize`
 * to scale them onto smaller frames (then the result is no longer exact, of course). Our export
 * lists every frame; a frame the source has no mask for carries `"annotated": false`.
 *
 * Instances are entities, as in VISOR: a tagged region (instanceRegions.ts) is written as its own
 * object of its state's name with "instance_id" and "spoc_seed": [x, y], id "<video>/<frame>/<state>#<n>";
 * the rest of the state stays one object. Import turns objects with "instance_id" back into tags.
 */
import { LABEL, MAX_SIDE } from '../../masks/labelMap';
import { MaskFormatError } from '../../masks/errors';
import { polygonCounts } from '../../masks/rlePoly';
import { stem } from '../files/virtualFile';
import { traceContours } from './contours';
import { at, describe, JsonReader, parseJsonText, UnknownFieldTally, type JsonObject } from './json';
import {
  checkClipAnnotations,
  frameLabelMap,
  pathSegmentProblem,
  sourceMasks,
  type ClipAnnotations,
  type FrameMeta,
  type ImportResult,
  type LayerSource,
  type OutFile,
  type SourceMasks,
} from './model';
import { resolveStates, unionCounts, xorCounts, type OverlapPolicy } from './stateMasks';
import { maskAsLabelMap, readInstanceFields, sourceTags, splitInstances, tagsFromObjects, type ReadInstance } from './instanceRegions';
import { decodeCounts } from '../../masks/rleRuns';
import { decodeLayer } from '../../masks/layers';
import type { LabelMap } from '../../masks/labelMap';
import type { SourceTags } from './model';
import { isObjectsClip } from './objectModel';
import { exportVisorObjects, importVisorObjectsDoc, isVisorObjectsDoc } from './visorObjects';

export const VISOR_DEFAULT_NAMES = { actionable: 'actionable', transformed: 'transformed' } as const;
const VISOR_CLASS_IDS = { actionable: 1, transformed: 2 } as const;

export interface VisorExportOptions {
  source?: LayerSource;
  /** Object names written for the two states (default "actionable", "transformed"). */
  names?: { actionable?: string; transformed?: string };
  /** Extension of image names (default jpg). */
  imageExtension?: string;
}

export type VisorPoint = [number, number];

export interface VisorJson {
  info: { description: string; width: number; height: number };
  video_annotations: {
    image: { name: string; video: string; image_path: string };
    annotations: { id: string; name: string; class_id: number; exhaustive: 1; segments: VisorPoint[][]; instance_id?: number; spoc_seed?: VisorPoint }[];
    annotated?: false;
  }[];
}

export function exportVisor(a: ClipAnnotations, options: VisorExportOptions = {}): VisorJson {
  checkClipAnnotations(a);
  const { clip } = a;
  const ext = options.imageExtension ?? 'jpg';
  const names = { ...VISOR_DEFAULT_NAMES, ...options.names };
  const masks = sourceMasks(a, options.source ?? 'gt');
  const tags = sourceTags(a, options.source ?? 'gt');
  const doc: VisorJson = { info: { description: 'SPOC Studio export', width: clip.width, height: clip.height }, video_annotations: [] };
  a.frames.forEach((f, k) => {
    const image = { name: `${f.name}.${ext}`, video: clip.name, image_path: `${clip.name}/${f.name}.${ext}` };
    const mask = masks.get(k);
    if (!mask) {
      doc.video_annotations.push({ image, annotations: [], annotated: false });
      return;
    }
    const annotations: VisorJson['video_annotations'][number]['annotations'] = [];
    const add = (state: 'actionable' | 'transformed', map: LabelMap, instance?: { id: number; x: number; y: number }) => {
      const rings = traceContours(map, state === 'actionable' ? LABEL.actionable : LABEL.transformed);
      if (rings.length === 0) return;
      annotations.push({
        id: `${clip.name}/${f.name}/${state}${instance ? `#${instance.id}` : ''}`,
        name: names[state],
        class_id: VISOR_CLASS_IDS[state],
        exhaustive: 1,
        segments: rings.map((ring) => {
          const points: VisorPoint[] = [];
          for (let i = 0; i < ring.length; i += 2) points.push([ring[i], ring[i + 1]]);
          return points;
        }),
        ...(instance ? { instance_id: instance.id, spoc_seed: [instance.x, instance.y] as VisorPoint } : {}),
      });
    };
    const { parts, rest } = splitInstances(frameLabelMap(mask, clip), tags.get(k) ?? []);
    for (const part of parts) add(part.label === 1 ? 'actionable' : 'transformed', maskAsLabelMap(part.mask, clip.width, clip.height, part.label), part.tag);
    add('actionable', rest);
    add('transformed', rest);
    doc.video_annotations.push({ image, annotations });
  });
  return doc;
}

/**
 * The clip as "<video>.json", VISOR's one-file-per-video naming: an objects project's clip as
 * entities with classes and relations (visorObjects.ts), any other clip as its two states.
 */
export function exportVisorFile(a: ClipAnnotations, options: VisorExportOptions = {}): OutFile {
  const doc = isObjectsClip(a) ? exportVisorObjects(a, options) : exportVisor(a, options);
  return { path: `${a.clip.name}.json`, data: new TextEncoder().encode(JSON.stringify(doc)) };
}

export interface VisorImportOptions {
  /** Object names per state, matched ignoring case and surrounding spaces (default: "actionable" / "transformed"). */
  names?: { actionable: readonly string[]; transformed: readonly string[] };
  /** Frame size when the file's info does not give it. */
  size?: { width: number; height: number };
  /** The size the polygon coordinates refer to, when it differs from the frame size (VISOR sparse: 1920x1080). */
  coordinateSize?: { width: number; height: number };
  source?: LayerSource;
  overlap?: OverlapPolicy;
  /** Frames per second for timestamps k / fps (default 1). */
  fps?: number;
  /**
   * Read entities as objects with classes, hands and relations (an objects project), not as states.
   * Default: only when the file is one of our objects exports (it has `spoc_objects`).
   */
  objects?: boolean;
  /** Mints ids for objects the file does not name (default crypto.randomUUID). */
  newId?: () => string;
}

const TOP_KEYS = new Set(['info', 'video_annotations']);
const ENTRY_KEYS = new Set(['image', 'annotations', 'annotated']);
const IMAGE_KEYS = new Set(['name', 'video', 'image_path', 'subsequence']);
const OBJECT_KEYS = new Set(['id', 'name', 'class_id', 'segments', 'exhaustive', 'in_contact_object', 'on_which_hand', 'type', 'instance_id', 'spoc_seed']);
const MAX_ENTRIES = 10_000_000;

interface Frame {
  meta: FrameMeta;
  path: string;
  annotated: boolean;
  act: Uint32Array[];
  trf: Uint32Array[];
  /** Objects that name an instance, in file order. */
  instances: { instance: ReadInstance; state: 'act' | 'trf'; counts: Uint32Array; path: string }[];
}

export function importVisor(input: string | Uint8Array, fileName: string, options: VisorImportOptions = {}): ImportResult {
  const warnings: string[] = [];
  const r = new JsonReader(fileName, warnings);
  const doc = r.object(parseJsonText(input, fileName), '');
  if (options.objects ?? isVisorObjectsDoc(doc)) return importVisorObjectsDoc(r, doc, fileName, options, options.newId ?? (() => crypto.randomUUID()));
  r.unknownFields(doc, TOP_KEYS, '');
  const size = frameSize(r, doc, options);
  const { width: w, height: h } = size;
  const scale = coordinateScale(options, size);
  const fps = options.fps ?? 1;
  if (!(Number.isFinite(fps) && fps > 0)) throw new RangeError(`fps ${fps} must be a positive number`);
  const stateOf = nameMapping(options);

  const clips = new Map<string, Frame[]>();
  const frameNames = new Map<string, string>();
  const skipped = new Map<string, number>();
  const entryTally = new UnknownFieldTally(ENTRY_KEYS);
  const imageTally = new UnknownFieldTally(IMAGE_KEYS);
  const objectTally = new UnknownFieldTally(OBJECT_KEYS);
  r.array(r.required(doc, 'video_annotations', ''), 'video_annotations', MAX_ENTRIES).forEach((raw, i) => {
    const path = at('video_annotations', i);
    const entry = r.object(raw, path);
    entryTally.add(entry);
    const { video, name } = readVisorImage(r, entry, path, fileName, frameNames, imageTally);
    const annotated = r.optional(entry, 'annotated');
    const frame: Frame = {
      meta: { name, timestampSec: 0 },
      path,
      annotated: annotated === undefined ? true : r.boolean(annotated, at(path, 'annotated')),
      act: [],
      trf: [],
      instances: [],
    };

    r.array(r.required(entry, 'annotations', path), at(path, 'annotations'), MAX_ENTRIES).forEach((rawObj, j) => {
      const op = at(at(path, 'annotations'), j);
      const obj = r.object(rawObj, op);
      objectTally.add(obj);
      const objName = r.string(r.required(obj, 'name', op), at(op, 'name'), 1000);
      const segments = r.array(r.required(obj, 'segments', op), at(op, 'segments'));
      const counts = segments.map((seg, k) => polygon(r, seg, at(at(op, 'segments'), k), h, w, scale));
      const instance = readInstanceFields(r, obj, op, w, h);
      const state = stateOf.get(objName.trim().toLowerCase());
      if (!state) {
        skipped.set(objName, (skipped.get(objName) ?? 0) + 1);
        return;
      }
      const united = xorCounts(counts, w * h);
      frame[state].push(united);
      if (instance) frame.instances.push({ instance, state, counts: united, path: op });
    });
    let list = clips.get(video);
    if (!list) clips.set(video, (list = []));
    list.push(frame);
  });
  entryTally.report(r, 'video_annotations');
  imageTally.report(r, 'video_annotations[].image');
  objectTally.report(r, 'video_annotations[].annotations');
  if (skipped.size > 0) {
    const shown = [...skipped].slice(0, 8).map(([n, c]) => `${JSON.stringify(n)} (${c})`);
    r.warn('', `objects not mapped to a state were skipped: ${shown.join(', ')}${skipped.size > 8 ? `, and ${skipped.size - 8} more names` : ''}`);
  }

  const policy = options.overlap ?? 'transformed';
  let overlapFrames = 0;
  let overlapPixels = 0;
  const result: ImportResult = { clips: [], warnings };
  for (const [video, frames] of clips) {
    const masks: SourceMasks = new Map();
    const tags: SourceTags = new Map();
    frames.forEach((f, k) => {
      f.meta.timestampSec = k / fps;
      if (!f.annotated && f.act.length === 0 && f.trf.length === 0) return;
      try {
        const { layer, overlap } = resolveStates(unionCounts(f.act, w * h), unionCounts(f.trf, w * h), h, w, policy);
        masks.set(k, layer);
        if (f.instances.length > 0) {
          const objects = f.instances.map((o) => ({ ...o, label: o.state === 'act' ? 1 : 2, mask: () => decodeCounts(o.counts, h, w) }));
          const frameTags = tagsFromObjects(objects, decodeLayer(layer), (path, problem) => r.warn(path, problem));
          if (frameTags.length > 0) tags.set(k, frameTags);
        }
        if (overlap > 0) {
          overlapFrames++;
          overlapPixels += overlap;
        }
      } catch (err) {
        if (err instanceof MaskFormatError) r.fail(f.path, err.problem);
        throw err;
      }
    });
    result.clips.push({
      annotations: {
        clip: { name: video, width: w, height: h, fps },
        frames: frames.map((f) => f.meta),
        sources: new Map([[options.source ?? 'gt', masks]]),
        ...(tags.size > 0 ? { instances: new Map([[options.source ?? 'gt', tags]]) } : {}),
      },
    });
  }
  if (overlapFrames > 0) r.warn('', `${overlapPixels} pixels on ${overlapFrames} frame(s) were in both states; ${policy} was kept`);
  return result;
}

/** One segment [[x, y], ...] as run counts (an empty segment is an empty mask, as VISOR has some). */
/**
 * The `image` of a `video_annotations` entry: its video (the file's stem when absent) and frame
 * name, both safe as path segments, and no frame named twice in a video (`frameNames`: frame key →
 * the JSON path that named it first). Shared by the states and the objects readers.
 */
export function readVisorImage(
  r: JsonReader,
  entry: JsonObject,
  path: string,
  fileName: string,
  frameNames: Map<string, string>,
  imageTally: UnknownFieldTally,
): { imagePath: string; imageName: string; video: string; name: string } {
  const imagePath = at(path, 'image');
  const image = r.object(r.required(entry, 'image', path), imagePath);
  imageTally.add(image);
  const imageName = r.nonEmptyString(r.required(image, 'name', imagePath), at(imagePath, 'name'), 1000);
  const videoRaw = r.optional(image, 'video');
  const video = videoRaw === undefined ? stem(fileName) : r.string(videoRaw, at(imagePath, 'video'), 200);
  const videoProblem = pathSegmentProblem(video);
  if (videoProblem) r.fail(videoRaw === undefined ? '' : at(imagePath, 'video'), `gives the video name ${JSON.stringify(video)}, which ${videoProblem}`);
  const name = stem(imageName);
  const nameProblem = pathSegmentProblem(name);
  if (nameProblem) r.fail(at(imagePath, 'name'), `gives the frame name ${JSON.stringify(name)}, which ${nameProblem}`);
  const key = `${video}\n${name.toLowerCase()}`;
  const other = frameNames.get(key);
  if (other) r.fail(at(imagePath, 'name'), `"${imageName}" names the same frame as ${other} (duplicate frame names in video "${video}")`);
  frameNames.set(key, imagePath);
  return { imagePath, imageName, video, name };
}

export function polygon(r: JsonReader, seg: unknown, path: string, h: number, w: number, scale: [number, number] | null): Uint32Array {
  const points = r.array(seg, path);
  const xy = new Array<number>(points.length * 2);
  points.forEach((p, k) => {
    const pp = at(path, k);
    const pair = r.array(p, pp);
    if (pair.length !== 2) r.fail(pp, `must be a point [x, y], got ${describe(pair)}`);
    const x = r.number(pair[0], at(pp, 0));
    const y = r.number(pair[1], at(pp, 1));
    xy[2 * k] = scale ? x * scale[0] : x;
    xy[2 * k + 1] = scale ? y * scale[1] : y;
  });
  try {
    return polygonCounts(xy, h, w);
  } catch (err) {
    if (err instanceof MaskFormatError) r.fail(path, `is invalid: ${err.problem}`);
    throw err;
  }
}

export function frameSize(r: JsonReader, doc: JsonObject, options: VisorImportOptions): { width: number; height: number } {
  const check = (width: number, height: number, path: string) => {
    r.integer(width, `${path} width`, 1, MAX_SIDE);
    r.integer(height, `${path} height`, 1, MAX_SIDE);
    return { width, height };
  };
  if (options.size) return check(options.size.width, options.size.height, 'the size option:');
  const raw = r.optional(doc, 'info');
  if (raw !== undefined) {
    const info = r.object(raw, 'info');
    if (r.optional(info, 'width') !== undefined || r.optional(info, 'height') !== undefined) {
      return {
        width: r.integer(r.required(info, 'width', 'info'), 'info.width', 1, MAX_SIDE),
        height: r.integer(r.required(info, 'height', 'info'), 'info.height', 1, MAX_SIDE),
      };
    }
    const details = r.optional(info, 'details');
    const m = typeof details === 'string' ? /(\d{1,5})\s*x\s*(\d{1,5})/.exec(details) : null;
    if (m) return check(Number(m[1]), Number(m[2]), 'info.details');
  }
  return r.fail('', 'does not give the frame size (info.width/height or "WxH" in info.details); pass the size option');
}

export function coordinateScale(options: VisorImportOptions, size: { width: number; height: number }): [number, number] | null {
  const c = options.coordinateSize;
  if (!c || (c.width === size.width && c.height === size.height)) return null;
  if (!(c.width > 0 && c.height > 0 && Number.isFinite(c.width) && Number.isFinite(c.height))) {
    throw new RangeError(`coordinateSize ${c.width}x${c.height} must be positive`);
  }
  return [size.width / c.width, size.height / c.height];
}

function nameMapping(options: VisorImportOptions): Map<string, 'act' | 'trf'> {
  const names = options.names ?? { actionable: [VISOR_DEFAULT_NAMES.actionable], transformed: [VISOR_DEFAULT_NAMES.transformed] };
  const out = new Map<string, 'act' | 'trf'>();
  for (const [list, state] of [
    [names.actionable, 'act'],
    [names.transformed, 'trf'],
  ] as const) {
    for (const n of list) {
      const key = n.trim().toLowerCase();
      if (out.has(key) && out.get(key) !== state) throw new RangeError(`the object name "${n}" is mapped to both states`);
      out.set(key, state);
    }
  }
  if (out.size === 0) throw new RangeError('the names option maps no object name to a state');
  return out;
}
