/**
 * COCO JSON import: ours (cocoExport.ts, every extension field read back) and COCO files from other
 * tools. Segmentations may be compressed RLE (counts string), uncompressed RLE (counts number[])
 * or polygons (rasterised as pycocotools does, masks/rlePoly.ts; the polygons of one annotation are
 * united, as annToRLE does). Several annotations of one state on one image (instances) are united.
 *
 * Everything is validated before it is used, with the file and the JSON path in the message:
 * types, unique ids, references (image_id, category_id, video_id), image sizes (1..MAX_SIDE, checked
 * before any mask is touched), segmentation sizes against their image, counts that must sum to
 * h*w, polygon coordinates. Masks stay as run counts throughout (stateMasks.ts), so no pixel buffer
 * is allocated per annotation.
 *
 * Categories become states by name ("actionable", "transformed", any case) unless the
 * `categories` option maps ids; annotations of other categories are skipped with a warning.
 * Images are grouped into clips by video_id (our "videos"), else by "video", else by the folder of
 * file_name, else into one clip named after the JSON file. Frames are ordered by frame_index when
 * every image has one, else kept in file order.
 *
 * An annotation with "instance_id" (ours, or any file that numbers instances that way) also becomes
 * an instance tag of its frame, seeded at its "spoc_seed" or else at its first pixel
 * (instanceRegions.ts); its pixels are united with its state like any other.
 */
import { MAX_SIDE } from '../../masks/labelMap';
import { MaskFormatError } from '../../masks/errors';
import { isLayerSource } from '../../store/validate';
import { describeOsc } from '../../taxonomy/osc';
import { stem } from '../files/virtualFile';
import { COCO_FORMAT, COCO_VERSION } from './cocoExport';
import { at, describe, JsonReader, parseJsonText, UnknownFieldTally, type JsonObject } from './json';
import {
  FRAME_PHASES,
  SUBSETS,
  pathSegmentProblem,
  type ClipAnnotations,
  type ClipMeta,
  type FrameMeta,
  type ImportResult,
  type LayerSource,
  type SourceMasks,
} from './model';
import { segmentationCounts } from './cocoSegmentation';
import { resolveStates, unionCounts, type OverlapPolicy } from './stateMasks';
import { parseIgnored, positiveFps } from './wtcMeta';
import { readInstanceFields, tagsFromObjects, type ReadInstance } from './instanceRegions';
import { decodeCounts } from '../../masks/rleRuns';
import { decodeLayer } from '../../masks/layers';
import type { SourceTags } from './model';
import { importCocoObjectsDoc } from './cocoObjects';

export interface CocoImportOptions {
  /** The layer the masks become; default: the file's "spoc.source", else gt. */
  source?: LayerSource;
  /** Category ids per state; default: categories named "actionable" / "transformed". */
  categories?: { actionable: readonly number[]; transformed: readonly number[] };
  /** Pixels claimed by both states (default: transformed wins, with a warning); see stateMasks.ts. */
  overlap?: OverlapPolicy;
  /** Frames per second for videos that do not say (default 1). */
  fps?: number;
  /**
   * Read annotations as objects with classes and tracks (an objects project; cocoObjects.ts), not
   * as states. Default: only when the file says so (`spoc.kind: "objects"`, our objects export).
   */
  objects?: boolean;
  /** Mints ids for objects the file does not name (default crypto.randomUUID). */
  newId?: () => string;
}

const TOP_KEYS = new Set(['info', 'licenses', 'images', 'annotations', 'categories', 'videos', 'spoc']);
const OBJECTS_TOP_KEYS = new Set([...TOP_KEYS, 'spoc_classes', 'spoc_objects']);
const SPOC_KEYS = new Set(['format', 'version', 'source', 'kind']);
const CATEGORY_KEYS = new Set(['id', 'name', 'supercategory', 'keypoints', 'skeleton']);
const VIDEO_KEYS = new Set(['id', 'name', 'width', 'height', 'fps', 'verb', 'noun', 'actionable', 'transformed', 'subset']);
const IMAGE_KEYS = new Set([
  'id', 'file_name', 'width', 'height', 'license', 'coco_url', 'flickr_url', 'date_captured',
  'video_id', 'video', 'frame', 'frame_index', 'timestamp_sec', 'phase', 'ignored', 'reviewed', 'annotated',
]);
const OBJECTS_IMAGE_KEYS = new Set([...IMAGE_KEYS, 'spoc_relations']);
const ANNOTATION_KEYS = new Set(['id', 'image_id', 'category_id', 'segmentation', 'area', 'bbox', 'iscrowd', 'instance_id', 'spoc_seed']);
/** Guards against absurd files before anything per entry is kept. */
const MAX_ENTRIES = 10_000_000;

type Id = number | string;
type State = 'act' | 'trf';

interface ImageEntry {
  id: Id;
  path: string;
  clipKey: string;
  width: number;
  height: number;
  frame: FrameMeta;
  frameIndex?: number;
  annotated: boolean;
  act: Uint32Array[];
  trf: Uint32Array[];
  /** Annotations that name an instance, in file order. */
  instances: { instance: ReadInstance; state: State; counts: Uint32Array; path: string }[];
}

interface ClipEntry {
  meta: ClipMeta;
  /** Where the size came from, for messages. */
  sizeFrom?: string;
  images: ImageEntry[];
}

export function importCoco(input: string | Uint8Array, fileName: string, options: CocoImportOptions = {}): ImportResult {
  const warnings: string[] = [];
  const r = new JsonReader(fileName, warnings);
  const doc = r.object(parseJsonText(input, fileName), '');
  const objects = options.objects ?? isObjectsDoc(doc);
  r.unknownFields(doc, objects ? OBJECTS_TOP_KEYS : TOP_KEYS, '');
  const fileSource = readSpoc(r, doc);
  const states = objects ? new Map<number, State | null>() : readCategories(r, doc, options);
  const clips = new Map<string, ClipEntry>();
  const videoKeys = readVideos(r, doc, clips, options.fps ?? 1);
  const images = readImages(r, doc, clips, videoKeys, stem(fileName), options.fps ?? 1, objects ? OBJECTS_IMAGE_KEYS : IMAGE_KEYS);
  const source = options.source ?? fileSource ?? 'gt';
  if (objects) {
    const ordered = [...clips.values()].filter((e) => e.images.length > 0 || (r.warn('', `video "${e.meta.name}" (in videos) has no images (skipped)`), false));
    return importCocoObjectsDoc(r, doc, images, ordered.map((e) => ({ meta: e.meta, ordered: orderFrames(r, e) })), videoKeys, source, options);
  }
  readAnnotations(r, doc, images, states);

  const policy = options.overlap ?? 'transformed';
  let overlapFrames = 0;
  let overlapPixels = 0;
  const result: ImportResult = { clips: [], warnings };
  for (const entry of clips.values()) {
    if (entry.images.length === 0) {
      r.warn('', `video "${entry.meta.name}" (in videos) has no images (skipped)`);
      continue;
    }
    const ordered = orderFrames(r, entry);
    const masks: SourceMasks = new Map();
    const tags: SourceTags = new Map();
    ordered.forEach((img, k) => {
      if (!img.annotated && img.act.length === 0 && img.trf.length === 0) return;
      const n = img.width * img.height;
      try {
        const { layer, overlap } = resolveStates(unionCounts(img.act, n), unionCounts(img.trf, n), img.height, img.width, policy);
        masks.set(k, layer);
        if (img.instances.length > 0) {
          const map = decodeLayer(layer);
          const objects = img.instances.map((o) => ({ ...o, label: o.state === 'act' ? 1 : 2, mask: () => decodeCounts(o.counts, img.height, img.width) }));
          const frameTags = tagsFromObjects(objects, map, (path, problem) => r.warn(path, problem));
          if (frameTags.length > 0) tags.set(k, frameTags);
        }
        if (overlap > 0) {
          overlapFrames++;
          overlapPixels += overlap;
        }
      } catch (err) {
        if (err instanceof MaskFormatError) r.fail(img.path, err.problem);
        throw err;
      }
    });
    const annotations: ClipAnnotations = { clip: entry.meta, frames: ordered.map((i) => i.frame), sources: new Map([[source, masks]]) };
    if (tags.size > 0) annotations.instances = new Map([[source, tags]]);
    result.clips.push({ annotations });
  }
  if (overlapFrames > 0) {
    r.warn('', `${overlapPixels} pixels on ${overlapFrames} image(s) were in both states; ${policy} was kept`);
  }
  return result;
}

/** Our objects export says so in `spoc.kind`. */
function isObjectsDoc(doc: JsonObject): boolean {
  const spoc = doc.spoc;
  return typeof spoc === 'object' && spoc !== null && !Array.isArray(spoc) && (spoc as JsonObject).kind === 'objects';
}

function readSpoc(r: JsonReader, doc: JsonObject): LayerSource | undefined {
  const raw = r.optional(doc, 'spoc');
  if (raw === undefined) return undefined;
  const spoc = r.object(raw, 'spoc');
  r.unknownFields(spoc, SPOC_KEYS, 'spoc');
  const format = r.optional(spoc, 'format');
  if (format !== undefined && format !== COCO_FORMAT) r.fail('spoc.format', `is ${describe(format)}, expected "${COCO_FORMAT}"`);
  const version = r.optional(spoc, 'version');
  if (version !== undefined && r.integer(version, 'spoc.version', 1) > COCO_VERSION) {
    r.fail('spoc.version', `is ${String(version)}; this app reads version ${COCO_VERSION} (the file was written by a newer version)`);
  }
  const source = r.optional(spoc, 'source');
  if (source === undefined) return undefined;
  const s = r.string(source, 'spoc.source', 200);
  if (!isLayerSource(s)) r.fail('spoc.source', `is "${s}"; expected "gt", "proposal", "pred:<name>" or "ann:<name>"`);
  return s as LayerSource;
}

/** Category id -> state, or null for categories that are neither. */
function readCategories(r: JsonReader, doc: JsonObject, options: CocoImportOptions): Map<number, State | null> {
  const list = r.array(r.required(doc, 'categories', ''), 'categories', 100_000);
  const out = new Map<number, State | null>();
  const tally = new UnknownFieldTally(CATEGORY_KEYS);
  const byName = new Map<string, number[]>();
  list.forEach((raw, i) => {
    const path = at('categories', i);
    const c = r.object(raw, path);
    tally.add(c);
    const id = r.integer(r.required(c, 'id', path), at(path, 'id'));
    if (out.has(id)) r.fail(at(path, 'id'), `${id} is used by two categories`);
    const name = r.string(r.required(c, 'name', path), at(path, 'name'), 200);
    out.set(id, null);
    const key = name.trim().toLowerCase();
    const same = byName.get(key);
    if (same) same.push(id);
    else byName.set(key, [id]);
  });
  tally.report(r, 'categories');
  const mapping = options.categories ?? { actionable: idsNamed(byName, 'actionable'), transformed: idsNamed(byName, 'transformed') };
  for (const [ids, state] of [
    [mapping.actionable, 'act'],
    [mapping.transformed, 'trf'],
  ] as const) {
    for (const id of ids) {
      if (!out.has(id)) r.fail('categories', `have no id ${id}, which the category mapping names`);
      if (out.get(id) !== null) r.fail('categories', `id ${id} is mapped to both states`);
      out.set(id, state);
    }
  }
  if (![...out.values()].some((s) => s !== null)) {
    const names = [...byName.keys()].slice(0, 10).map((n) => `"${n}"`).join(', ');
    r.fail('categories', `have no "actionable" or "transformed" category (found ${names || 'none'}); map category ids to states with the categories option`);
  }
  return out;
}

function idsNamed(byName: Map<string, number[]>, name: string): number[] {
  return byName.get(name) ?? [];
}

/** Our "videos" extension: clip metadata by video id. Returns video id -> clip key. */
function readVideos(r: JsonReader, doc: JsonObject, clips: Map<string, ClipEntry>, defaultFps: number): Map<Id, string> {
  const ids = new Map<Id, string>();
  const raw = r.optional(doc, 'videos');
  if (raw === undefined) return ids;
  const tally = new UnknownFieldTally(VIDEO_KEYS);
  r.array(raw, 'videos', MAX_ENTRIES).forEach((rawVideo, i) => {
    const path = at('videos', i);
    const v = r.object(rawVideo, path);
    tally.add(v);
    const id = readId(r, r.required(v, 'id', path), at(path, 'id'));
    if (ids.has(id)) r.fail(at(path, 'id'), `${JSON.stringify(id)} is used by two videos`);
    const name = segment(r, r.required(v, 'name', path), at(path, 'name'));
    if (clips.has(name)) r.fail(at(path, 'name'), `"${name}" is the name of two videos`);
    const meta: ClipMeta = { name, width: 0, height: 0, fps: defaultFps };
    if (r.optional(v, 'width') !== undefined || r.optional(v, 'height') !== undefined) {
      meta.width = r.integer(r.required(v, 'width', path), at(path, 'width'), 1, MAX_SIDE);
      meta.height = r.integer(r.required(v, 'height', path), at(path, 'height'), 1, MAX_SIDE);
    }
    const fps = r.optional(v, 'fps');
    if (fps !== undefined) meta.fps = positiveFps(r, fps, at(path, 'fps'));
    if (r.optional(v, 'verb') !== undefined || r.optional(v, 'noun') !== undefined) {
      const vb = r.nonEmptyString(r.required(v, 'verb', path), at(path, 'verb'), 200).trim();
      const nn = r.nonEmptyString(r.required(v, 'noun', path), at(path, 'noun'), 200).trim();
      const described = describeOsc(vb, nn);
      const act = r.optional(v, 'actionable');
      const trf = r.optional(v, 'transformed');
      meta.osc = {
        verb: vb,
        noun: nn,
        actionable: act === undefined ? described.actionable : r.string(act, at(path, 'actionable')),
        transformed: trf === undefined ? described.transformed : r.string(trf, at(path, 'transformed')),
      };
    }
    const subset = r.optional(v, 'subset');
    if (subset !== undefined) meta.subset = r.oneOf(subset, at(path, 'subset'), SUBSETS);
    ids.set(id, name);
    clips.set(name, { meta, sizeFrom: meta.width > 0 ? path : undefined, images: [] });
  });
  tally.report(r, 'videos');
  return ids;
}

function readImages(
  r: JsonReader,
  doc: JsonObject,
  clips: Map<string, ClipEntry>,
  videoKeys: Map<Id, string>,
  fallbackClip: string,
  defaultFps: number,
  knownKeys: ReadonlySet<string>,
): Map<Id, ImageEntry> {
  const images = new Map<Id, ImageEntry>();
  const frameNames = new Map<string, string>(); // "<clip>\n<frame lower case>" -> image path
  const tally = new UnknownFieldTally(knownKeys);
  r.array(r.required(doc, 'images', ''), 'images', MAX_ENTRIES).forEach((raw, i) => {
    const path = at('images', i);
    const o = r.object(raw, path);
    tally.add(o);
    const id = readId(r, r.required(o, 'id', path), at(path, 'id'));
    if (images.has(id)) r.fail(at(path, 'id'), `${JSON.stringify(id)} is used by two images`);
    const fileName = r.nonEmptyString(r.required(o, 'file_name', path), at(path, 'file_name'), 1000);
    // Sizes are checked before anything that depends on them.
    const width = r.integer(r.required(o, 'width', path), at(path, 'width'), 1, MAX_SIDE);
    const height = r.integer(r.required(o, 'height', path), at(path, 'height'), 1, MAX_SIDE);

    let clipKey: string;
    const videoId = r.optional(o, 'video_id');
    const video = r.optional(o, 'video');
    if (videoId !== undefined) {
      const key = videoKeys.get(readId(r, videoId, at(path, 'video_id')));
      if (key === undefined) r.fail(at(path, 'video_id'), `${JSON.stringify(videoId)} is not the id of an entry in videos`);
      clipKey = key!;
    } else if (video !== undefined) {
      clipKey = segment(r, video, at(path, 'video'));
    } else {
      const slash = fileName.lastIndexOf('/');
      clipKey = slash > 0 ? fileName.slice(0, slash).split('/').pop()! : fallbackClip;
      const problem = pathSegmentProblem(clipKey);
      if (problem) r.fail(at(path, 'file_name'), `gives the video name ${JSON.stringify(clipKey)}, which ${problem}`);
    }
    let clip = clips.get(clipKey);
    if (!clip) {
      clip = { meta: { name: clipKey, width: 0, height: 0, fps: defaultFps }, images: [] };
      clips.set(clipKey, clip);
    }
    if (clip.meta.width === 0) {
      clip.meta.width = width;
      clip.meta.height = height;
      clip.sizeFrom = path;
    } else if (clip.meta.width !== width || clip.meta.height !== height) {
      r.fail(path, `is ${width}x${height} but ${clip.sizeFrom} makes video "${clipKey}" ${clip.meta.width}x${clip.meta.height}; all frames of a video must share one size`);
    }

    const frameRaw = r.optional(o, 'frame');
    const frameName = frameRaw === undefined ? stem(fileName) : r.string(frameRaw, at(path, 'frame'), 200);
    const problem = pathSegmentProblem(frameName);
    if (problem) r.fail(frameRaw === undefined ? at(path, 'file_name') : at(path, 'frame'), `gives the frame name ${JSON.stringify(frameName)}, which ${problem}`);
    const nameKey = `${clipKey}\n${frameName.toLowerCase()}`;
    const other = frameNames.get(nameKey);
    if (other) r.fail(path, `has the frame name "${frameName}" of ${other} in video "${clipKey}" (duplicate frame names)`);
    frameNames.set(nameKey, path);

    const frame: FrameMeta = { name: frameName, timestampSec: NaN };
    const ts = r.optional(o, 'timestamp_sec');
    if (ts !== undefined) frame.timestampSec = r.number(ts, at(path, 'timestamp_sec'), 0);
    const phase = r.optional(o, 'phase');
    if (phase !== undefined) frame.phase = r.oneOf(phase, at(path, 'phase'), FRAME_PHASES);
    const ignored = r.optional(o, 'ignored');
    if (ignored !== undefined) frame.ignored = parseIgnored(r, ignored, at(path, 'ignored'));
    const reviewed = r.optional(o, 'reviewed');
    if (reviewed !== undefined) frame.reviewed = r.boolean(reviewed, at(path, 'reviewed'));
    const annotated = r.optional(o, 'annotated');
    const frameIndex = r.optional(o, 'frame_index');

    const entry: ImageEntry = {
      id,
      path,
      clipKey,
      width,
      height,
      frame,
      frameIndex: frameIndex === undefined ? undefined : r.integer(frameIndex, at(path, 'frame_index'), 0, MAX_ENTRIES),
      annotated: annotated === undefined ? true : r.boolean(annotated, at(path, 'annotated')),
      act: [],
      trf: [],
      instances: [],
    };
    images.set(id, entry);
    clip.images.push(entry);
  });
  tally.report(r, 'images');
  return images;
}

function readAnnotations(r: JsonReader, doc: JsonObject, images: Map<Id, ImageEntry>, states: Map<number, State | null>): void {
  const ids = new Set<Id>();
  const tally = new UnknownFieldTally(ANNOTATION_KEYS);
  let skipped = 0;
  r.array(r.required(doc, 'annotations', ''), 'annotations', MAX_ENTRIES).forEach((raw, i) => {
    const path = at('annotations', i);
    const o = r.object(raw, path);
    tally.add(o);
    const id = readId(r, r.required(o, 'id', path), at(path, 'id'));
    if (ids.has(id)) r.fail(at(path, 'id'), `${JSON.stringify(id)} is used by two annotations`);
    ids.add(id);
    const imageId = readId(r, r.required(o, 'image_id', path), at(path, 'image_id'));
    const image = images.get(imageId);
    if (!image) r.fail(at(path, 'image_id'), `${JSON.stringify(imageId)} is not the id of an image`);
    const categoryId = r.integer(r.required(o, 'category_id', path), at(path, 'category_id'));
    if (!states.has(categoryId)) r.fail(at(path, 'category_id'), `${categoryId} is not the id of a category`);
    const area = r.optional(o, 'area');
    if (area !== undefined) r.number(area, at(path, 'area'), 0);
    const bbox = r.optional(o, 'bbox');
    if (bbox !== undefined) {
      const b = r.array(bbox, at(path, 'bbox'));
      if (b.length !== 4) r.fail(at(path, 'bbox'), `must be [x, y, width, height], got ${describe(b)}`);
      b.forEach((v, k) => r.number(v, at(at(path, 'bbox'), k)));
    }
    const iscrowd = r.optional(o, 'iscrowd');
    if (iscrowd !== undefined && iscrowd !== 0 && iscrowd !== 1) r.fail(at(path, 'iscrowd'), `must be 0 or 1, got ${describe(iscrowd)}`);
    const counts = segmentationCounts(r, r.required(o, 'segmentation', path), at(path, 'segmentation'), image!);
    const instance = readInstanceFields(r, o, path, image!.width, image!.height);
    const state = states.get(categoryId);
    if (!state) {
      skipped++;
      return;
    }
    image![state].push(counts);
    if (instance) image!.instances.push({ instance, state, counts, path });
  });
  tally.report(r, 'annotations');
  if (skipped > 0) r.warn('', `${skipped} annotation(s) of categories other than actionable/transformed were skipped`);
}

function orderFrames(r: JsonReader, clip: ClipEntry): ImageEntry[] {
  const images = clip.images;
  const indexed = images.every((i) => i.frameIndex !== undefined);
  if (!indexed && images.some((i) => i.frameIndex !== undefined)) {
    r.warn('images', `of video "${clip.meta.name}" give frame_index only partly; file order was used`);
  }
  const ordered = indexed ? [...images].sort((a, b) => a.frameIndex! - b.frameIndex!) : images;
  for (let k = 1; indexed && k < ordered.length; k++) {
    if (ordered[k].frameIndex === ordered[k - 1].frameIndex) {
      r.fail(ordered[k].path, `has frame_index ${ordered[k].frameIndex}, as ${ordered[k - 1].path} of the same video`);
    }
  }
  ordered.forEach((img, k) => {
    if (Number.isNaN(img.frame.timestampSec)) img.frame.timestampSec = k / clip.meta.fps;
  });
  return ordered;
}

function readId(r: JsonReader, v: unknown, path: string): Id {
  if (typeof v === 'string' && v.length > 0 && v.length <= 200) return v;
  return r.integer(v, path);
}

function segment(r: JsonReader, v: unknown, path: string): string {
  const s = r.string(v, path, 200);
  const problem = pathSegmentProblem(s);
  if (problem) r.fail(path, `${JSON.stringify(s)} ${problem}`);
  return s;
}
