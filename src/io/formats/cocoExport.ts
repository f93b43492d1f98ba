/**
 * COCO JSON with RLE segmentations, readable by pycocotools as is (COCO(), annToMask, COCOeval):
 * one image per frame, categories 1 actionable and 2 transformed, one annotation per (frame, state)
 * (plus one per tagged instance, below)
 * whose segmentation is `{size: [h, w], counts}` in pycocotools' compressed string form, with `area`
 * and `bbox` exactly as maskUtils.area / maskUtils.toBbox give them, and `iscrowd: 0`.
 * A state absent from an annotated frame has no annotation (COCO has no empty-mask annotations).
 *
 * Everything COCO has no field for rides in extension fields that pycocotools ignores, so a
 * COCO round trip is lossless for one source:
 *   top level  "spoc": { "format": "spoc-studio/coco", "version": 1, "source": "gt" }
 *   "videos":  [{ id, name, width, height, fps, verb?, noun?, actionable?, transformed?, subset? }]
 *   images:    video_id, video, frame (the frame name), frame_index, timestamp_sec,
 *              phase?, ignored? {reason, note?, by?, at?}, reviewed?, and "annotated": false for a
 *              frame the source has no mask for (without it, an image with no annotations is an
 *              annotated frame with nothing in either state, as in plain COCO).
 *   annotations: a tagged instance (instanceRegions.ts) is its own annotation with "instance_id"
 *              and "spoc_seed": [x, y] (the tag's seed pixel); the rest of its state stays one
 *              annotation without them, so the union per (image, state) is the frame's mask.
 * Ids are assigned 1, 2, 3, ... in clip and frame order, so the same clips give the same bytes.
 */
import { encodeLayer } from '../../masks/layers';
import { encodeRle, type CocoRle } from '../../masks/rle';
import { rleArea, rleToBbox } from '../../masks/rleOps';
import { checkClipAnnotations, frameLabelMap, frameLayer, sourceMasks, type ClipAnnotations, type LayerSource, type OutFile } from './model';
import { sourceTags, splitInstances } from './instanceRegions';
import { isObjectsClip } from './objectModel';
import { exportCocoObjects } from './cocoObjects';

export const COCO_FORMAT = 'spoc-studio/coco';
export const COCO_VERSION = 1;
export const COCO_ACTIONABLE_ID = 1;
export const COCO_TRANSFORMED_ID = 2;
export const COCO_CATEGORIES = [
  { id: COCO_ACTIONABLE_ID, name: 'actionable', supercategory: 'object_state' },
  { id: COCO_TRANSFORMED_ID, name: 'transformed', supercategory: 'object_state' },
] as const;

export interface CocoExportOptions {
  /** Which layer to export (default gt). */
  source?: LayerSource;
  /** Extension in image file names "<video>/<frame>.<ext>" (default jpg). */
  imageExtension?: string;
  description?: string;
}

export interface CocoRleJson {
  size: [number, number];
  counts: string;
}

export interface CocoAnnotationJson {
  id: number;
  image_id: number;
  category_id: number;
  segmentation: CocoRleJson;
  area: number;
  bbox: [number, number, number, number];
  iscrowd: 0;
  /** A tagged instance: its number, and the tag's seed pixel [x, y] (extension fields). */
  instance_id?: number;
  spoc_seed?: [number, number];
}

/** The exported document; `JSON.stringify` it (or use exportCocoFile). */
export interface CocoDatasetJson {
  info: { description: string; version: string };
  licenses: [];
  spoc: { format: string; version: number; source: LayerSource };
  videos: Record<string, unknown>[];
  images: Record<string, unknown>[];
  annotations: CocoAnnotationJson[];
  categories: { id: number; name: string; supercategory: string }[];
}

export function exportCoco(clips: readonly ClipAnnotations[], options: CocoExportOptions = {}): CocoDatasetJson {
  const source = options.source ?? 'gt';
  const ext = options.imageExtension ?? 'jpg';
  const ds: CocoDatasetJson = {
    info: { description: options.description ?? 'SPOC Studio export', version: String(COCO_VERSION) },
    licenses: [],
    spoc: { format: COCO_FORMAT, version: COCO_VERSION, source },
    videos: [],
    images: [],
    annotations: [],
    categories: COCO_CATEGORIES.map((c) => ({ ...c })),
  };
  const names = new Set<string>();
  clips.forEach((a, v) => {
    checkClipAnnotations(a);
    const { clip } = a;
    if (names.has(clip.name)) throw new RangeError(`two clips are named "${clip.name}"; COCO image names "<video>/<frame>" would collide`);
    names.add(clip.name);
    const videoId = v + 1;
    ds.videos.push({
      id: videoId,
      name: clip.name,
      width: clip.width,
      height: clip.height,
      fps: clip.fps,
      verb: clip.osc?.verb,
      noun: clip.osc?.noun,
      actionable: clip.osc?.actionable,
      transformed: clip.osc?.transformed,
      subset: clip.subset,
    });
    const masks = sourceMasks(a, source);
    const tags = sourceTags(a, source);
    a.frames.forEach((f, k) => {
      const imageId = ds.images.length + 1;
      const mask = masks.get(k);
      ds.images.push({
        id: imageId,
        file_name: `${clip.name}/${f.name}.${ext}`,
        width: clip.width,
        height: clip.height,
        video_id: videoId,
        video: clip.name,
        frame: f.name,
        frame_index: k,
        timestamp_sec: f.timestampSec,
        phase: f.phase,
        ignored: f.ignored && { reason: f.ignored.reason, note: f.ignored.note, by: f.ignored.by, at: f.ignored.at },
        reviewed: f.reviewed,
        annotated: mask ? undefined : false,
      });
      if (!mask) return;
      const add = (categoryId: number, rle: CocoRle, instance?: { id: number; x: number; y: number }) => {
        const area = rleArea(rle);
        if (area === 0) return;
        ds.annotations.push({
          id: ds.annotations.length + 1,
          image_id: imageId,
          category_id: categoryId,
          segmentation: { size: [rle.size[0], rle.size[1]], counts: rle.counts },
          area,
          bbox: rleToBbox(rle),
          iscrowd: 0,
          ...(instance ? { instance_id: instance.id, spoc_seed: [instance.x, instance.y] as [number, number] } : {}),
        });
      };
      const frameTags = tags.get(k) ?? [];
      // Untagged frames go straight from the stored RLEs (no pixel is decoded).
      const split = frameTags.length > 0 ? splitInstances(frameLabelMap(mask, clip), frameTags) : null;
      for (const part of split?.parts ?? []) add(part.label === 1 ? COCO_ACTIONABLE_ID : COCO_TRANSFORMED_ID, encodeRle(part.mask, clip.height, clip.width), part.tag);
      const layer = split ? encodeLayer(split.rest) : frameLayer(mask, clip);
      add(COCO_ACTIONABLE_ID, layer.act);
      add(COCO_TRANSFORMED_ID, layer.trf);
    });
  });
  return ds;
}

/**
 * The dataset as one JSON file (compact: COCO files of whole projects are large). Clips of an
 * objects project are written as objects (one category per class, a track per object;
 * cocoObjects.ts), other clips as their two states; one file holds one kind.
 */
export function exportCocoFile(clips: readonly ClipAnnotations[], options: CocoExportOptions = {}, path = 'annotations.json'): OutFile {
  const objects = clips.filter(isObjectsClip).length;
  if (objects > 0 && objects < clips.length) throw new RangeError('clips of an objects project and SPOC clips cannot share one COCO file');
  const doc = objects > 0 ? exportCocoObjects(clips, options) : exportCoco(clips, options);
  return { path, data: new TextEncoder().encode(JSON.stringify(doc)) };
}
