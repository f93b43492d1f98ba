/**
 * WhereToChange layout, export and import, one clip per video:
 *   <verb>_<noun>/JPEGImages_<rate>fps/<video>/<frame>.jpg   frame images (supplied by the caller),
 *                                                       in a folder named by the clip's rate:
 *                                                       JPEGImages_1fps as in the release, _5fps, _29.97fps
 *   <verb>_<noun>/gt/masks/<video>/<frame>.png          indexed PNG, SPOC release palette (0..5)
 *   <verb>_<noun>/meta/<video>.json                     our metadata file (wtcMeta.ts)
 *   <verb>_<noun>/pred/masks/<video>/<frame>.png        a prediction source (pred:<name>), in the place
 *   <verb>_<noun>/pred/meta/<video>.json                the CLI and `demo` use for predictions, never
 *                                                       under gt/masks; its metadata beside it, so a
 *                                                       gt and a prediction export unpack into one folder
 *
 * Masks are written as painted (0 background, 1 actionable, 2 transformed), also on ignored frames:
 * ignores, phases, timestamps, the OSC texts and instance tags (frames[].instances; the PNG index
 * is the state, so it cannot hold instance numbers) live in the metadata file, so nothing is lost and
 * the PNGs stay what SPOC's evaluation reads. The layout has one mask tree, so one export carries
 * one source (the metadata says which); a prediction goes to pred/ (above), anything else to gt/.
 *
 * Import reads the release layout too (no metadata file): verb and noun from the folder name, the
 * descriptions and subset from the taxonomy, the rate from the frame folder's name (1 fps for
 * JPEGImages_1fps), timestamps k / fps. Release labels 3
 * (background) become 0; 4 (ambiguous) and 5 (ignore) become 0 and are counted in a warning; a
 * mask that is entirely 5 marks its frame ignored (reason "other") unless the metadata says otherwise.
 * Grouping and the frame/mask pairing are wtcLayout.ts's (shared with the app's WhereToChange import).
 */
import { labelHistogram } from '../../masks/geometry';
import { LABEL } from '../../masks/labelMap';
import { remapLabels } from '../../masks/remap';
import { describeOsc, parseOscName, subsetOf } from '../../taxonomy/osc';
import { isJunkPath, naturalCompare, stem, type VirtualFile } from '../files/virtualFile';
import { ImportError } from '../importError';
import { decodeIndexedPng, encodeIndexedPng, VOC_PALETTE } from '../indexedPng';
import { WTC_FRAMES_DIR_PATTERN, groupWtcVideos, wtcFramesDir, type WtcVideo } from './wtcLayout';
import { fileBytes, frameImageFile, sizeFromHeaders } from './folderFiles';
import {
  checkClipAnnotations,
  frameLabelMap,
  isLabelMap,
  pathSegmentProblem,
  sourceMasks,
  type ClipAnnotations,
  type FrameImage,
  type FrameMeta,
  type ImportResult,
  type LayerSource,
  type Osc,
  type OutFile,
  type SourceMasks,
} from './model';
import { parseWtcMeta, wtcMetaJson, type WtcMeta } from './wtcMeta';
import { sourceTags, splitInstances } from './instanceRegions';
import type { SourceTags } from './model';

export const WTC_MASKS_DIR = 'gt/masks';
export const WTC_META_DIR = 'meta';
export const WTC_PRED_MASKS_DIR = 'pred/masks';
export const WTC_PRED_META_DIR = 'pred/meta';

/** Where a source's masks and metadata go in an <osc> folder: a prediction in the prediction place. */
export function wtcSourceDirs(source: LayerSource): { masks: string; meta: string } {
  return source.startsWith('pred:') ? { masks: WTC_PRED_MASKS_DIR, meta: WTC_PRED_META_DIR } : { masks: WTC_MASKS_DIR, meta: WTC_META_DIR };
}
/** The release palette: indices 0..5 with the VOC colours (indexedPngPalette.ts). */
const RELEASE_PALETTE = VOC_PALETTE.slice(0, 6);
const RELEASE_VALUES = new Set([0, 1, 2, 3, 4, 5]);

/** "<verb>_<noun>" with spaces in the noun as underscores (parseOscName reverses it). */
export function wtcOscFolder(osc: Pick<Osc, 'verb' | 'noun'>): string {
  const verb = osc.verb.trim();
  const noun = osc.noun.trim().replace(/\s+/g, '_');
  if (!verb || /[\s_]/.test(verb)) throw new RangeError(`verb "${osc.verb}" must be one word to name a WhereToChange folder`);
  if (!noun) throw new RangeError('the noun is empty; a WhereToChange folder is named <verb>_<noun>');
  const folder = `${verb}_${noun}`;
  const problem = pathSegmentProblem(folder);
  if (problem) throw new RangeError(`the folder name "${folder}" ${problem}`);
  return folder;
}

export interface WtcExportOptions {
  /** Which layer becomes the mask tree (default gt). */
  source?: LayerSource;
  /** Frame images by frame index; frames without one get no image file. */
  frameImages?: readonly (FrameImage | undefined)[];
  /** Verb and noun for a clip that has none (imported from DAVIS or VISOR); the clip's own win. */
  osc?: Pick<Osc, 'verb' | 'noun'>;
}

/** One clip as WhereToChange files. Needs the clip's OSC (it names the top folder). */
export function exportWtc(a: ClipAnnotations, options: WtcExportOptions = {}): OutFile[] {
  checkClipAnnotations(a);
  const source = options.source ?? 'gt';
  if (!a.clip.osc && options.osc) a = { ...a, clip: { ...a.clip, osc: describeOsc(options.osc.verb, options.osc.noun) } };
  if (!a.clip.osc) throw new RangeError(`clip "${a.clip.name}" has no verb and noun, which name the WhereToChange folder (pass the osc option)`);
  const root = wtcOscFolder(a.clip.osc);
  const video = a.clip.name;
  const framesDir = wtcFramesDir(a.clip.fps);
  const out: OutFile[] = [];
  a.frames.forEach((f, k) => {
    const image = options.frameImages?.[k];
    if (image) out.push(frameImageFile(`${root}/${framesDir}/${video}`, f.name, image));
  });
  const dirs = wtcSourceDirs(source);
  const masks = sourceMasks(a, source);
  const tags = sourceTags(a, source);
  // Only tags that name a region of their frame's mask are written (a stale one names nothing).
  const usable: SourceTags = new Map();
  a.frames.forEach((f, k) => {
    const mask = masks.get(k);
    if (mask) {
      const map = frameLabelMap(mask, a.clip);
      out.push({ path: `${root}/${dirs.masks}/${video}/${f.name}.png`, data: encodeIndexedPng(map, RELEASE_PALETTE) });
      const frameTags = tags.get(k);
      const parts = frameTags?.length ? splitInstances(map, frameTags).parts : [];
      if (parts.length > 0) usable.set(k, parts.map((p) => p.tag));
    }
  });
  out.push({ path: `${root}/${dirs.meta}/${video}.json`, data: new TextEncoder().encode(wtcMetaJson({ ...a, instances: new Map([[source, usable]]) }, source)) });
  return out;
}

export interface WtcImportOptions {
  /** The layer the masks become; default: what the metadata says, else gt. */
  source?: LayerSource;
}

/** Reads WhereToChange videos (frames, masks, metadata) from a picked folder or zip. */
export async function importWtc(files: readonly VirtualFile[], sourceName: string, options: WtcImportOptions = {}): Promise<ImportResult<VirtualFile>> {
  const warnings: string[] = [];
  const videos = groupWtcVideos([...files], sourceName);
  const metas = metaFiles(files);
  const result: ImportResult<VirtualFile> = { clips: [], warnings };
  const read = async (which: Map<string, VirtualFile>, key: string, video: string): Promise<MetaRead | null> => {
    const file = which.get(key);
    which.delete(key);
    return file ? { meta: parseWtcMeta(await fileBytes(file), file.path, video, warnings), path: file.path } : null;
  };
  for (const video of videos) {
    const key = `${video.osc}/${video.video}`;
    const gtMeta = await read(metas.gt, key, video.video);
    const predMeta = await read(metas.pred, key, video.video);
    result.clips.push(await importVideo(video, gtMeta, predMeta, options, warnings));
  }
  for (const orphan of [...metas.gt.values(), ...metas.pred.values()]) warnings.push(`${orphan.path}: describes a video with no frames in ${WTC_FRAMES_DIR_PATTERN}/ (ignored)`);
  return result;
}

interface MetaRead {
  meta: WtcMeta;
  path: string;
}

/** `<osc>/meta/<video>.json` (gt) and `<osc>/pred/meta/<video>.json` (a prediction) files by "<osc>/<video>". */
function metaFiles(files: readonly VirtualFile[]): { gt: Map<string, VirtualFile>; pred: Map<string, VirtualFile> } {
  const out = { gt: new Map<string, VirtualFile>(), pred: new Map<string, VirtualFile>() };
  for (const f of files) {
    if (isJunkPath(f.path)) continue;
    const s = f.path.split('/');
    const i = s.length - 2;
    if (i < 1 || s[i] !== WTC_META_DIR || !s[i + 1].toLowerCase().endsWith('.json')) continue;
    const pred = i >= 2 && s[i - 1] === 'pred';
    const key = `${pred ? s[i - 2] : s[i - 1]}/${stem(s[i + 1])}`;
    const map = pred ? out.pred : out.gt;
    const other = map.get(key);
    if (other) throw new ImportError(f.path, `duplicates the metadata file ${other.path}`);
    map.set(key, f);
  }
  return out;
}

async function importVideo(
  video: WtcVideo,
  gtMeta: MetaRead | null,
  predMeta: MetaRead | null,
  options: WtcImportOptions,
  warnings: string[],
): Promise<ImportResult<VirtualFile>['clips'][number]> {
  // The clip (frames, OSC, rate, size) from the gt metadata, else from a prediction export's.
  const meta = (gtMeta ?? predMeta)?.meta ?? null;
  const metaPath = (gtMeta ?? predMeta)?.path;
  const where = `${video.osc}/${video.framesDir}/${video.video}`;
  const videoProblem = pathSegmentProblem(video.video);
  if (videoProblem) throw new ImportError(where, `the video name ${videoProblem}`);
  const osc = oscOf(video, meta, metaPath, warnings);
  // The folder name rounds the rate (29.97 for 30000/1001); the metadata keeps it exactly.
  const fps = meta?.fps ?? video.fps;
  if (meta && wtcFramesDir(meta.fps) !== video.framesDir) {
    warnings.push(`${metaPath}: fps ${meta.fps} does not match the frame folder ${video.framesDir}; the metadata was used`);
  }

  // Frames in metadata order when there is metadata (it is the clip order), else natural order.
  const images = new Map(video.frames.map((f) => [stem(f.path).toLowerCase(), f]));
  const frames: FrameMeta[] = [];
  const frameFiles: VirtualFile[] = [];
  for (const [k, f] of (meta?.frames ?? []).entries()) {
    const image = images.get(f.name.toLowerCase());
    if (!image) throw new ImportError(metaPath!, `frames[${k}].name "${f.name}" has no image in ${where}/`);
    images.delete(f.name.toLowerCase());
    frames.push(f);
    frameFiles.push(image);
  }
  const rest = [...images.values()].sort((a, b) => naturalCompare(a.path, b.path));
  if (meta && rest.length > 0) warnings.push(`${metaPath}: does not list ${rest.length} frame(s) of ${where}/ (e.g. ${stem(rest[0].path)}); they were added with timestamps k / fps`);
  for (const image of rest) {
    frames.push({ name: stem(image.path), timestampSec: frames.length / fps });
    frameFiles.push(image);
  }
  for (const f of frames) {
    const problem = pathSegmentProblem(f.name);
    if (problem) throw new ImportError(`${where}/${f.name}`, `the frame name ${problem}`);
  }

  const size =
    meta?.width !== undefined && meta.height !== undefined && metaPath !== undefined
      ? { width: meta.width, height: meta.height, from: metaPath }
      : await sizeFromHeaders([...frameFiles, ...video.masks.values()]);
  if (!size) throw new ImportError(where, 'has no readable frame or mask image to take the frame size from');

  const read = async (files: Map<string, VirtualFile>, marksIgnored: boolean): Promise<{ masks: SourceMasks; excluded: number }> => {
    const masks: SourceMasks = new Map();
    let excluded = 0;
    for (let k = 0; k < frames.length; k++) {
      const file = files.get(frames[k].name.toLowerCase());
      if (!file) continue;
      const raw = decodeIndexedPng(await fileBytes(file), {
        fileName: file.path,
        expectedWidth: size.width,
        expectedHeight: size.height,
        expectedSizeFrom: size.from,
        allowedValues: RELEASE_VALUES,
      });
      const hist = labelHistogram(raw);
      if (marksIgnored && hist[LABEL.ignore] === raw.data.length) {
        // The release's way to say "ignored"; the metadata's reason wins when it has one.
        if (!frames[k].ignored) frames[k] = { ...frames[k], ignored: { reason: 'other', note: 'mask is entirely "ignore" (5)' } };
        continue;
      }
      excluded += hist[LABEL.ambiguous] + hist[LABEL.ignore];
      const needsRemap = hist[LABEL.releaseBackground] + hist[LABEL.ambiguous] + hist[LABEL.ignore] > 0;
      masks.set(k, needsRemap ? remapLabels(raw, { 3: 0, 4: 0, 5: 0 }) : raw);
    }
    return { masks, excluded };
  };
  const gtTree = await read(video.masks, true);
  if (gtTree.excluded > 0) {
    warnings.push(`${video.osc}/${WTC_MASKS_DIR}/${video.video}: ${gtTree.excluded} pixels labelled ambiguous (4) or ignore (5) were read as background`);
  }
  const sources: ClipAnnotations['sources'] = new Map();
  const tags: NonNullable<ClipAnnotations['instances']> = new Map();
  const addTree = (source: LayerSource, masks: SourceMasks, from: MetaRead | null) => {
    sources.set(source, masks);
    const kept = keptTags(masks, from, frames, warnings);
    if (kept.size > 0) tags.set(source, kept);
  };
  // gt/masks holds what its metadata names (an older export put predictions there too), else gt.
  const hasPredTree = predMeta !== null && video.predMasks.size > 0;
  if (video.masks.size > 0 || !hasPredTree) addTree(options.source ?? gtMeta?.meta.source ?? 'gt', gtTree.masks, gtMeta ?? predMeta);
  // pred/masks is read with its own metadata (our prediction exports); without it (demo output,
  // predictions saved by hand) it is not part of the clip, as before.
  if (hasPredTree) {
    const source = (video.masks.size === 0 ? options.source : undefined) ?? predMeta.meta.source ?? 'gt';
    if (!source.startsWith('pred:')) throw new ImportError(predMeta.path, `names the source ${source}, but ${WTC_PRED_META_DIR}/ describes a prediction (pred:<name>)`);
    if (sources.has(source)) throw new ImportError(predMeta.path, `names the source ${source}, which ${video.osc}/${WTC_MASKS_DIR}/${video.video} holds already`);
    const names = new Set(frames.map((f) => f.name.toLowerCase()));
    for (const [key, mask] of video.predMasks) {
      if (!names.has(key)) throw new ImportError(mask.path, `has no matching frame ${key}.* in ${where}/`);
    }
    const predTree = await read(video.predMasks, false);
    if (predTree.excluded > 0) {
      warnings.push(`${video.osc}/${WTC_PRED_MASKS_DIR}/${video.video}: ${predTree.excluded} pixels labelled ambiguous (4) or ignore (5) were read as background`);
    }
    addTree(source, predTree.masks, predMeta);
  }

  const subset = meta ? meta.subset : subsetOf(osc.verb, osc.noun);
  const annotations: ClipAnnotations = {
    clip: { name: video.video, width: size.width, height: size.height, fps, osc, ...(subset ? { subset } : {}) },
    frames,
    sources,
    ...(tags.size > 0 ? { instances: tags } : {}),
    ...(meta?.objects ? { objects: meta.objects } : {}),
  };
  return { annotations, frameFiles };
}

/** The metadata's instance tags that sit on a painted pixel of their frame's mask (others dropped with a warning). */
function keptTags(masks: SourceMasks, from: MetaRead | null, frames: readonly FrameMeta[], warnings: string[]): SourceTags {
  const out: SourceTags = new Map();
  for (const [k, frameTags] of from?.meta.instances ?? []) {
    const mask = masks.get(k);
    const kept = mask && isLabelMap(mask) ? frameTags.filter((t) => mask.data[t.y * mask.width + t.x] === 1 || mask.data[t.y * mask.width + t.x] === 2) : [];
    if (kept.length < frameTags.length) warnings.push(`${from!.path}: frames[${k}].instances: ${frameTags.length - kept.length} tag(s) not on a painted pixel of ${frames[k].name}'s mask were dropped`);
    if (kept.length > 0) out.set(k, kept);
  }
  return out;
}

/** Verb, noun and descriptions: the metadata wins; the folder name and the taxonomy fill the gaps. */
function oscOf(video: WtcVideo, meta: WtcMeta | null, metaPath: string | undefined, warnings: string[]): Osc {
  if (meta) {
    const described = describeOsc(meta.verb, meta.noun);
    let folder: string | null = null;
    try {
      folder = wtcOscFolder(meta);
    } catch {
      // A verb or noun that cannot name a folder was still read fine from the metadata.
    }
    if (folder !== video.osc) warnings.push(`${metaPath}: verb "${meta.verb}" and noun "${meta.noun}" do not match the folder name "${video.osc}"; the metadata was used`);
    return {
      verb: meta.verb,
      noun: meta.noun,
      actionable: meta.actionable ?? described.actionable,
      transformed: meta.transformed ?? described.transformed,
    };
  }
  const parsed = parseOscName(video.osc);
  if (!parsed) throw new ImportError(video.osc, 'is not a "<verb>_<noun>" folder name (e.g. chopping_avocado)');
  return describeOsc(parsed.verb, parsed.noun);
}
