/**
 * The WhereToChange release layout, one clip per video:
 *   <osc>/JPEGImages_<rate>fps/<video>/frame*.jpg sampled frames; the release samples at 1 fps
 *                                                 (JPEGImages_1fps), other rates name their own
 *                                                 folder (JPEGImages_5fps, JPEGImages_29.97fps)
 *   <osc>/gt/masks/<video>/frame*.png             optional indexed masks (0 bg, 1 actionable, 2 transformed,
 *                                                 3 background, 4 ambiguous, 5 ignore)
 *   <osc>/pred/masks/<video>/frame*.png           optional prediction masks (where our exports and the CLI
 *                                                 put a prediction), paired with the frames the same way
 * where <osc> is "<verb>_<noun>" (e.g. chopping_avocado). Anything above <osc> (a root folder) is ignored.
 */
import { ImportError } from '../importError';
import { extension, isJunkPath, naturalCompare, stem, type VirtualFile } from '../files/virtualFile';
import { isImagePath } from '../images/imageSequence';

/** The folder of frames sampled at `fps`: JPEGImages_1fps, JPEGImages_5fps, JPEGImages_29.97fps. */
export function wtcFramesDir(fps: number): string {
  if (!(Number.isFinite(fps) && fps > 0)) throw new RangeError(`a frame rate of ${fps} cannot name a JPEGImages_<rate>fps folder`);
  // Three decimals tell real rates apart (29.97 vs 30; the metadata file keeps the exact rate); six
  // for the slowest time-lapses, so the name never rounds to 0 and never turns into "1e-7".
  return `JPEGImages_${Number(fps.toFixed(fps >= 0.01 ? 3 : 6))}fps`;
}

/** The release's folder name, and what a 1 fps clip is exported under. */
export const WTC_FRAMES_DIR = wtcFramesDir(1);
/** How messages name the frame folder when its rate is not known. */
export const WTC_FRAMES_DIR_PATTERN = 'JPEGImages_<rate>fps';

/** The rate a JPEGImages_<rate>fps folder name says, or null for any other name. */
export function fpsOfFramesDir(name: string): number | null {
  const m = /^JPEGImages_(\d+(?:\.\d+)?)fps$/.exec(name);
  if (!m) return null;
  const fps = Number(m[1]);
  return fps > 0 ? fps : null;
}

export interface WtcVideo {
  osc: string;
  video: string;
  /** The rate its frame folder names (JPEGImages_5fps: 5). */
  fps: number;
  /** That folder's name, for messages. */
  framesDir: string;
  frames: VirtualFile[];
  /** gt/masks, keyed by the mask's file stem in lower case, which must equal a frame's stem. */
  masks: Map<string, VirtualFile>;
  /** pred/masks, keyed the same way. */
  predMasks: Map<string, VirtualFile>;
}

type Role = { kind: 'frame'; osc: string; video: string; dir: string; fps: number } | { kind: 'mask'; tree: 'gt' | 'pred'; osc: string; video: string };

function roleOf(path: string): Role | null {
  const s = path.split('/');
  const f = s.length - 3;
  const fps = f >= 1 ? fpsOfFramesDir(s[f]) : null;
  if (fps !== null) return { kind: 'frame', osc: s[f - 1], video: s[f + 1], dir: s[f], fps };
  for (let i = 1; i + 3 < s.length; i++) {
    if (s[i + 1] !== 'masks' || s.length !== i + 4) continue;
    if (s[i] === 'gt' || s[i] === 'pred') return { kind: 'mask', tree: s[i] === 'gt' ? 'gt' : 'pred', osc: s[i - 1], video: s[i + 2] };
  }
  return null;
}

export function looksLikeWtc(files: VirtualFile[]): boolean {
  return files.some((f) => roleOf(f.path)?.kind === 'frame');
}

export function groupWtcVideos(files: VirtualFile[], sourceName: string): WtcVideo[] {
  const videos = new Map<string, WtcVideo>();
  const keyOf = (r: Role) => `${r.osc}/${r.video}`;
  const get = (r: Role) => {
    let v = videos.get(keyOf(r));
    if (!v) {
      v = { osc: r.osc, video: r.video, fps: 0, framesDir: WTC_FRAMES_DIR_PATTERN, frames: [], masks: new Map(), predMasks: new Map() };
      videos.set(keyOf(r), v);
    }
    return v;
  };
  const predFiles: { key: string; file: VirtualFile }[] = [];
  for (const f of files) {
    if (isJunkPath(f.path)) continue;
    const role = roleOf(f.path);
    if (!role) continue;
    if (role.kind === 'frame' && isImagePath(f.path)) {
      const v = get(role);
      // One clip has one rate: the same video sampled twice would be two clips with one name.
      if (v.frames.length > 0 && v.framesDir !== role.dir) {
        throw new ImportError(f.path, `is a frame of video "${v.video}", which also has frames in ${v.osc}/${v.framesDir}/; keep one rate per video (import the other folder separately)`);
      }
      v.fps = role.fps;
      v.framesDir = role.dir;
      v.frames.push(f);
    }
    if (role.kind === 'mask' && extension(f.path) === 'png') {
      // pred/masks never makes a clip (it may hold predictions of clips imported elsewhere); it is
      // attached below to the clips the frames make, and read only with its metadata (wtc.ts).
      if (role.tree === 'pred') {
        predFiles.push({ key: keyOf(role), file: f });
        continue;
      }
      const v = get(role);
      const tree = v.masks;
      const key = stem(f.path).toLowerCase();
      if (tree.has(key)) throw new ImportError(f.path, `duplicates the mask ${tree.get(key)!.path}`);
      tree.set(key, f);
    }
  }
  for (const { key, file } of predFiles) {
    const v = videos.get(key);
    if (!v) continue;
    const stemKey = stem(file.path).toLowerCase();
    if (v.predMasks.has(stemKey)) throw new ImportError(file.path, `duplicates the mask ${v.predMasks.get(stemKey)!.path}`);
    v.predMasks.set(stemKey, file);
  }
  const out = [...videos.values()];
  for (const v of out) {
    if (v.frames.length === 0) {
      const mask = v.masks.values().next().value!;
      throw new ImportError(mask.path, `is a mask of video "${v.video}", which has no frames in ${v.osc}/${WTC_FRAMES_DIR_PATTERN}/${v.video}/`);
    }
    v.frames.sort((a, b) => naturalCompare(a.path, b.path));
    const frameStems = new Set(v.frames.map((f) => stem(f.path).toLowerCase()));
    if (frameStems.size !== v.frames.length) {
      throw new ImportError(`${v.osc}/${v.framesDir}/${v.video}`, 'has two frames with the same name and different extensions');
    }
    for (const [key, mask] of v.masks) {
      if (!frameStems.has(key)) {
        throw new ImportError(mask.path, `has no matching frame ${key}.* in ${v.osc}/${v.framesDir}/${v.video}/`);
      }
    }
  }
  if (out.length === 0) throw new ImportError(sourceName, `has no ${WTC_FRAMES_DIR_PATTERN} folders (such as ${WTC_FRAMES_DIR})`);
  return out.sort((a, b) => naturalCompare(`${a.osc}/${a.video}`, `${b.osc}/${b.video}`));
}
