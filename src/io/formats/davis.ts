/**
 * DAVIS-style folders, export and import:
 *   JPEGImages/<video>/<frame>.jpg     frame images (DAVIS 2017 also nests a resolution: JPEGImages/480p/<video>/)
 *   Annotations/<video>/<frame>.png    indexed PNG, VOC/DAVIS palette: 0 background, 1 actionable,
 *                                      2 transformed, 255 void
 *
 * DAVIS has no metadata: no OSC, fps, timestamps, phases or ignore reasons. Ignored frames are
 * carried the only way DAVIS can: by default (`ignored: 'void'`) an ignored frame's mask is written
 * entirely void (255), which DAVIS evaluation excludes exactly as SPOC excludes ignored frames; the
 * painted mask of that frame is then not exported. On import an all-void mask marks its frame
 * ignored (reason "other"); void pixels in any other mask become background and are counted in a
 * warning (our layers have no void). `ignored: 'painted'` writes masks as painted and drops ignores.
 * Import assumes `fps` (default 1, as WhereToChange; real DAVIS is 24) for timestamps k / fps.
 * Instance tags cannot be carried: the PNG index is the state, with no room for an instance number.
 */
import { labelHistogram } from '../../masks/geometry';
import { createLabelMap, LABEL, type LabelMap } from '../../masks/labelMap';
import { remapLabels } from '../../masks/remap';
import { extension, isJunkPath, naturalCompare, stem, type VirtualFile } from '../files/virtualFile';
import { ImportError } from '../importError';
import { isImagePath } from '../images/imageSequence';
import { decodeIndexedPng, encodeIndexedPng, VOC_PALETTE } from '../indexedPng';
import { fileBytes, frameImageFile, sizeFromHeaders } from './folderFiles';
import {
  checkClipAnnotations,
  frameLabelMap,
  pathSegmentProblem,
  sourceMasks,
  type ClipAnnotations,
  type FrameImage,
  type FrameMeta,
  type ImportResult,
  type LayerSource,
  type OutFile,
  type SourceMasks,
  type ObjectMeta,
  type SourceObjects,
  sourceObjects,
} from './model';
import { isObjectsClip } from './objectModel';
import { objectsFromLabelMap, objectsLabelMap } from './davisObjects';

export const DAVIS_FRAMES_DIR = 'JPEGImages';
export const DAVIS_MASKS_DIR = 'Annotations';
const DAVIS_VALUES = new Set([LABEL.background, LABEL.actionable, LABEL.transformed, LABEL.void]);
/** DAVIS 2017 resolution folders between JPEGImages/Annotations and the video. */
const RESOLUTION_DIR = /^(\d+p|Full-Resolution)$/i;

export interface DavisExportOptions {
  source?: LayerSource;
  frameImages?: readonly (FrameImage | undefined)[];
  /** How ignored frames are written: all-void masks (default) or their painted masks (ignore lost). */
  ignored?: 'void' | 'painted';
}

export function exportDavis(a: ClipAnnotations, options: DavisExportOptions = {}): OutFile[] {
  checkClipAnnotations(a);
  const video = a.clip.name;
  const masks = sourceMasks(a, options.source ?? 'gt');
  const voidIgnored = (options.ignored ?? 'void') === 'void';
  // An objects project writes object numbers (davisObjects.ts); a SPOC clip its states.
  const objectFrames = isObjectsClip(a) ? sourceObjects(a, options.source ?? 'gt') : null;
  const out: OutFile[] = [];
  a.frames.forEach((f, k) => {
    const image = options.frameImages?.[k];
    if (image) out.push(frameImageFile(`${DAVIS_FRAMES_DIR}/${video}`, f.name, image));
  });
  a.frames.forEach((f, k) => {
    const mask = masks.get(k);
    let map: LabelMap | null = null;
    if (f.ignored && voidIgnored) map = createLabelMap(a.clip.width, a.clip.height, LABEL.void);
    else if (mask) map = objectFrames ? objectsLabelMap(a, k, mask, objectFrames.get(k)) : frameLabelMap(mask, a.clip);
    if (map) out.push({ path: `${DAVIS_MASKS_DIR}/${video}/${f.name}.png`, data: encodeIndexedPng(map, VOC_PALETTE) });
  });
  return out;
}

export interface DavisImportOptions {
  /** The layer the masks become (default gt). */
  source?: LayerSource;
  /** Frames per second for timestamps k / fps (default 1). */
  fps?: number;
  /** Read PNG indices 1..254 as object numbers (an objects project; davisObjects.ts), not as states. */
  objects?: boolean;
  /** Mints ids for the objects (default crypto.randomUUID). */
  newId?: () => string;
}

interface DavisVideo {
  name: string;
  /** "JPEGImages/480p/bear" style folder of the first file seen, to name both in a conflict. */
  frameDir?: string;
  maskDir?: string;
  frames: VirtualFile[];
  masks: VirtualFile[];
}

export function looksLikeDavis(files: readonly VirtualFile[]): boolean {
  return files.some((f) => roleOf(f.path) !== null);
}

/** Reads every video of a DAVIS-style tree. Frames come from JPEGImages, or from the masks if there are none. */
export async function importDavis(files: readonly VirtualFile[], sourceName: string, options: DavisImportOptions = {}): Promise<ImportResult<VirtualFile>> {
  const fps = options.fps ?? 1;
  if (!(Number.isFinite(fps) && fps > 0)) throw new RangeError(`fps ${fps} must be a positive number`);
  const videos = groupVideos(files);
  if (videos.length === 0) throw new ImportError(sourceName, `has no ${DAVIS_MASKS_DIR}/<video>/ or ${DAVIS_FRAMES_DIR}/<video>/ folders`);
  const warnings: string[] = [];
  const result: ImportResult<VirtualFile> = { clips: [], warnings };
  for (const v of videos) result.clips.push(await importVideo(v, fps, options.source ?? 'gt', warnings, options.objects ? (options.newId ?? (() => crypto.randomUUID())) : null));
  return result;
}

function roleOf(path: string): { kind: 'frame' | 'mask'; video: string; dir: string } | null {
  if (isJunkPath(path)) return null;
  const s = path.split('/');
  for (let i = 0; i < s.length; i++) {
    const kind = s[i] === DAVIS_FRAMES_DIR ? 'frame' : s[i] === DAVIS_MASKS_DIR ? 'mask' : null;
    if (!kind) continue;
    const nested = s.length === i + 4 && RESOLUTION_DIR.test(s[i + 1]);
    if (s.length !== i + 3 && !nested) continue;
    const video = s[s.length - 2];
    return { kind, video, dir: s.slice(0, -1).join('/') };
  }
  return null;
}

function groupVideos(files: readonly VirtualFile[]): DavisVideo[] {
  const videos = new Map<string, DavisVideo>();
  for (const f of files) {
    const role = roleOf(f.path);
    if (!role) continue;
    if (role.kind === 'frame' ? !isImagePath(f.path) : extension(f.path) !== 'png') continue;
    let v = videos.get(role.video);
    if (!v) {
      v = { name: role.video, frames: [], masks: [] };
      videos.set(role.video, v);
    }
    const dirKey = role.kind === 'frame' ? 'frameDir' : 'maskDir';
    const seenDir = v[dirKey];
    if (seenDir !== undefined && seenDir !== role.dir) {
      throw new ImportError(f.path, `is a second folder for video "${role.video}" (also ${seenDir}/); import one resolution at a time`);
    }
    v[dirKey] = role.dir;
    (role.kind === 'frame' ? v.frames : v.masks).push(f);
  }
  return [...videos.values()].sort((a, b) => naturalCompare(a.name, b.name));
}

/** Files keyed by lower-case stem; two files with one stem (frame1.jpg, frame1.png) are refused. */
function byStem(files: VirtualFile[], dir: string): Map<string, VirtualFile> {
  const out = new Map<string, VirtualFile>();
  for (const f of files.sort((a, b) => naturalCompare(a.path, b.path))) {
    const key = stem(f.path).toLowerCase();
    const other = out.get(key);
    if (other) throw new ImportError(f.path, `has the same frame name as ${other.path} (duplicate frame names in ${dir}/)`);
    out.set(key, f);
  }
  return out;
}

async function importVideo(
  v: DavisVideo,
  fps: number,
  source: LayerSource,
  warnings: string[],
  objectIds: (() => string) | null,
): Promise<ImportResult<VirtualFile>['clips'][number]> {
  const where = v.maskDir ?? v.frameDir!;
  const nameProblem = pathSegmentProblem(v.name);
  if (nameProblem) throw new ImportError(where, `the video name ${nameProblem}`);
  const frameFiles = byStem(v.frames, v.frameDir ?? '');
  const maskFiles = byStem(v.masks, v.maskDir ?? '');
  if (frameFiles.size > 0) {
    for (const [key, m] of maskFiles) {
      if (!frameFiles.has(key)) throw new ImportError(m.path, `has no matching frame ${stem(m.path)}.* in ${v.frameDir}/`);
    }
  }
  const order = [...(frameFiles.size > 0 ? frameFiles : maskFiles).values()];
  const frames: FrameMeta[] = order.map((f, k) => ({ name: stem(f.path), timestampSec: k / fps }));
  for (const f of frames) {
    const problem = pathSegmentProblem(f.name);
    if (problem) throw new ImportError(`${where}/${f.name}`, `the frame name ${problem}`);
  }

  const size = await sizeFromHeaders([...frameFiles.values(), ...maskFiles.values()]);
  if (!size) throw new ImportError(where, 'has no readable frame or mask image to take the frame size from');
  const masks: SourceMasks = new Map();
  const objects = new Map<number, ObjectMeta>();
  const objectFrames: SourceObjects = new Map();
  let voidPixels = 0;
  for (let k = 0; k < frames.length; k++) {
    const file = maskFiles.get(frames[k].name.toLowerCase());
    if (!file) continue;
    const map = decodeIndexedPng(await fileBytes(file), {
      fileName: file.path,
      expectedWidth: size.width,
      expectedHeight: size.height,
      expectedSizeFrom: size.from,
      allowedValues: objectIds ? undefined : DAVIS_VALUES,
    });
    const voids = labelHistogram(map)[LABEL.void];
    if (voids === map.data.length) {
      frames[k].ignored = { reason: 'other', note: 'mask is entirely void (255)' };
      continue;
    }
    voidPixels += voids;
    if (objectIds) {
      const { frame, mask } = objectsFromLabelMap(map, objects, objectIds);
      masks.set(k, mask);
      if (frame.objects.length > 0) objectFrames.set(k, frame);
      continue;
    }
    masks.set(k, voids > 0 ? remapLabels(map, { [LABEL.void]: LABEL.background }) : map);
  }
  if (voidPixels > 0) warnings.push(`${v.maskDir}: ${voidPixels} void (255) pixels were read as background`);
  return {
    annotations: {
      clip: { name: v.name, width: size.width, height: size.height, fps },
      frames,
      sources: new Map([[source, masks]]),
      ...(objectIds
        ? { labels: { kind: 'objects' as const, classes: [] }, objects: [...objects.values()].sort((x, y) => x.number - y.number), objectMasks: new Map([[source, objectFrames]]) }
        : {}),
    },
    frameFiles: frameFiles.size > 0 ? order : undefined,
  };
}
