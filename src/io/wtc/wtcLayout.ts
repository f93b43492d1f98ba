/**
 * The WhereToChange release layout, one clip per video:
 *   <osc>/JPEGImages_1fps/<video>/frame*.jpg      sampled frames (1 fps)
 *   <osc>/gt/masks/<video>/frame*.png             optional indexed masks (0 bg, 1 actionable, 2 transformed,
 *                                                 3 background, 4 ambiguous, 5 ignore)
 * where <osc> is "<verb>_<noun>" (e.g. chopping_avocado). Anything above <osc> (a root folder) is ignored.
 */
import { ImportError } from '../importError';
import { extension, isJunkPath, naturalCompare, stem, type VirtualFile } from '../files/virtualFile';
import { isImagePath } from '../images/imageSequence';

export const WTC_FRAMES_DIR = 'JPEGImages_1fps';

export interface WtcVideo {
  osc: string;
  video: string;
  frames: VirtualFile[];
  /** Keyed by the mask's file stem in lower case, which must equal a frame's stem. */
  masks: Map<string, VirtualFile>;
}

type Role = { kind: 'frame' | 'mask'; osc: string; video: string };

function roleOf(path: string): Role | null {
  const s = path.split('/');
  const f = s.indexOf(WTC_FRAMES_DIR);
  if (f >= 1 && s.length === f + 3) return { kind: 'frame', osc: s[f - 1], video: s[f + 1] };
  for (let i = 1; i + 3 < s.length; i++) {
    if (s[i] === 'gt' && s[i + 1] === 'masks' && s.length === i + 4) return { kind: 'mask', osc: s[i - 1], video: s[i + 2] };
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
      v = { osc: r.osc, video: r.video, frames: [], masks: new Map() };
      videos.set(keyOf(r), v);
    }
    return v;
  };
  for (const f of files) {
    if (isJunkPath(f.path)) continue;
    const role = roleOf(f.path);
    if (!role) continue;
    if (role.kind === 'frame' && isImagePath(f.path)) get(role).frames.push(f);
    if (role.kind === 'mask' && extension(f.path) === 'png') {
      const v = get(role);
      const key = stem(f.path).toLowerCase();
      if (v.masks.has(key)) throw new ImportError(f.path, `duplicates the mask ${v.masks.get(key)!.path}`);
      v.masks.set(key, f);
    }
  }
  const out = [...videos.values()];
  for (const v of out) {
    if (v.frames.length === 0) {
      const mask = v.masks.values().next().value!;
      throw new ImportError(mask.path, `is a mask of video "${v.video}", which has no frames in ${v.osc}/${WTC_FRAMES_DIR}/${v.video}/`);
    }
    v.frames.sort((a, b) => naturalCompare(a.path, b.path));
    const frameStems = new Set(v.frames.map((f) => stem(f.path).toLowerCase()));
    if (frameStems.size !== v.frames.length) {
      throw new ImportError(`${v.osc}/${WTC_FRAMES_DIR}/${v.video}`, 'has two frames with the same name and different extensions');
    }
    for (const [key, mask] of v.masks) {
      if (!frameStems.has(key)) {
        throw new ImportError(mask.path, `has no matching frame ${key}.* in ${v.osc}/${WTC_FRAMES_DIR}/${v.video}/`);
      }
    }
  }
  if (out.length === 0) throw new ImportError(sourceName, `has no ${WTC_FRAMES_DIR} folders`);
  return out.sort((a, b) => naturalCompare(`${a.osc}/${a.video}`, `${b.osc}/${b.video}`));
}
