/**
 * Finds the mask files under a folder given on the command line and says which layout it uses.
 * Only names are listed here; no mask is read.
 *
 * Accepted layouts (see docs/cli.md):
 *   WhereToChange  <osc>/gt/masks/<video>/*.png     (the release layout; <osc> = <verb>_<noun>)
 *                  <osc>/pred/masks/<video>/*.png   (predictions next to the release layout)
 *                  <osc>/<video>/*.png              (predictions written flat per OSC)
 *   DAVIS          <video>/*.png                    (also Annotations/480p/<video>/*.png from a DAVIS root)
 * The GT side reads gt/masks (or the flat form); the prediction side prefers pred/masks, then
 * gt/masks (a second annotation in release layout, or the GT itself), then the flat form.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { naturalCompare, stem } from '../src/io/files/virtualFile';
import { fpsOfFramesDir } from '../src/io/formats/wtcLayout';
import { InputTree } from './inputTree';
import { DataError, UsageError, resolvePath, type CliIo } from './io';

export type LayoutKind = 'wtc' | 'davis';
export type MaskRole = 'gt' | 'pred';
/** Where a video's masks sit relative to the folder that holds its video folders. */
export type MaskPattern = '<osc>/gt/masks/<video>/' | '<osc>/pred/masks/<video>/' | '<osc>/<video>/' | '<video>/';

export interface MaskFrame {
  /** File name without extension, e.g. "frame0003". */
  stem: string;
  /** Matching key: the stem in lower case. */
  key: string;
  /** Path relative to the folder given on the command line, forward slashes. */
  rel: string;
  /** Absolute path. */
  abs: string;
}

export interface MaskVideo {
  /** "<osc>/<video>" (WhereToChange) or "<video>" (DAVIS). */
  key: string;
  osc: string | null;
  video: string;
  pattern: MaskPattern;
  /** Folder of the masks, relative to the folder given on the command line. */
  relDir: string;
  /** Sorted in natural order (frame2 before frame10). */
  frames: MaskFrame[];
  /** Where this video's metadata would be (relative), whether or not it exists. */
  metaRel: string;
}

export interface MaskSet {
  /** The folder as given on the command line (used in every message). */
  dirArg: string;
  /** Absolute path of that folder. */
  abs: string;
  /** The folder, read without following links out of it (files are read through it). */
  tree: InputTree;
  kind: LayoutKind;
  /** Human-readable layout, e.g. "WhereToChange layout (<osc>/gt/masks/<video>/*.png)". */
  description: string;
  /** Sorted by key in natural order. */
  videos: MaskVideo[];
  frameCount: number;
  /** Folders that were skipped, and why. */
  notes: string[];
}

/** Frame folders: WhereToChange's JPEGImages_<rate>fps (any rate) and DAVIS's JPEGImages. */
const isFrameDir = (name: string) => name === 'JPEGImages' || fpsOfFramesDir(name) !== null;
const isReservedInOsc = (name: string) => isFrameDir(name) || ['meta', 'gt', 'pred'].includes(name);

interface Listing {
  dirs: string[];
  pngs: string[];
}

/**
 * Sub-folders and .png files of a folder, natural order. Links are followed inside the folder only
 * (InputTree). Frame folders are not even looked at: eval never reads them, so a link there (frames
 * kept on another disk) is no concern of ours.
 */
async function listDir(tree: InputTree, rel: string): Promise<Listing> {
  const dirs: string[] = [];
  const pngs: string[] = [];
  for (const e of await tree.list(rel, isFrameDir)) {
    if (e.kind === 'dir') dirs.push(e.name);
    else if (e.name.toLowerCase().endsWith('.png')) pngs.push(e.name);
  }
  dirs.sort(naturalCompare);
  pngs.sort((a, b) => naturalCompare(stem(a), stem(b)));
  return { dirs, pngs };
}

/** Scans `dirArg` for masks. Usage errors for a missing folder or a wrong level; data errors for clashes. */
export async function scanMasks(io: CliIo, dirArg: string, role: MaskRole, command = 'eval'): Promise<MaskSet> {
  const abs = resolvePath(io, dirArg);
  let s;
  try {
    s = await stat(abs);
  } catch {
    throw new UsageError(`--${role} ${dirArg}: no such folder`, command);
  }
  if (!s.isDirectory()) throw new UsageError(`--${role} ${dirArg}: is a file, not a folder`, command);
  const tree = await InputTree.open(abs, dirArg);
  const show = (rel: string): string => tree.show(rel);

  const notes: string[] = [];
  const firstTop = await listDir(tree, '');
  if (firstTop.pngs.length > 0 && firstTop.dirs.length === 0) {
    throw new UsageError(
      `--${role} ${dirArg}: holds mask files directly (e.g. ${firstTop.pngs[0]}); give the folder above it, which holds one folder per video`,
      command,
    );
  }
  // An export of an older SPOC Studio wraps the dataset root in a folder named after the project.
  const root = await wrappedRoot(tree, firstTop);
  if (root) notes.push(`${show(root)}: read as the dataset root (the only folder of ${show('')}, as older SPOC Studio exports wrap it)`);
  const top = root ? await listDir(tree, root) : firstTop;
  const under = (rel: string): string => (root ? `${root}/${rel}` : rel);
  let base = root ?? '';
  // A DAVIS dataset root: use its Annotations folder (480p when there are several resolutions).
  if (top.dirs.includes('Annotations')) {
    const ann = await listDir(tree, under('Annotations'));
    if (ann.dirs.includes('480p')) base = under('Annotations/480p');
    else if (ann.dirs.length === 1 && ann.pngs.length === 0 && (await listDir(tree, under(`Annotations/${ann.dirs[0]}`))).pngs.length === 0) {
      base = under(`Annotations/${ann.dirs[0]}`);
    } else base = under('Annotations');
  }
  const children = base ? (await listDir(tree, base)).dirs : top.dirs;
  const relOf = (...parts: string[]): string => [base, ...parts].filter(Boolean).join('/');

  const videos: MaskVideo[] = [];
  let davisExample: string | null = null;
  let wtcExample: string | null = null;

  const addVideo = async (osc: string | null, video: string, dirRel: string, pattern: MaskPattern, pngs?: string[]): Promise<void> => {
    const names = pngs ?? (await listDir(tree, dirRel)).pngs;
    if (names.length === 0) {
      notes.push(`${show(dirRel)}: no .png masks, skipped`);
      return;
    }
    const frames: MaskFrame[] = [];
    const byKey = new Map<string, string>();
    for (const name of names) {
      const st = stem(name);
      const key = st.toLowerCase();
      const rel = `${dirRel}/${name}`;
      const clash = byKey.get(key);
      if (clash !== undefined) throw new DataError(`${show(rel)}: has the same frame name as ${show(clash)}`);
      byKey.set(key, rel);
      frames.push({ stem: st, key, rel, abs: path.join(abs, rel) });
    }
    const metaRel = osc === null ? relOf('meta', `${video}.json`) : relOf(osc, 'meta', `${video}.json`);
    videos.push({ key: osc === null ? video : `${osc}/${video}`, osc, video, pattern, relDir: dirRel, frames, metaRel });
  };

  /**
   * GT videos that have a metadata file and no masks at all: a clip the app exported with nothing
   * painted. Its metadata lists the frames (all-background GT or ignored: src/metrics/evalFrames.ts).
   */
  const addUnpainted = async (osc: string, oscRel: string): Promise<number> => {
    if ((await tree.kindOf(`${oscRel}/meta`)) !== 'dir') return 0;
    let added = 0;
    for (const e of await tree.list(`${oscRel}/meta`)) {
      if (e.kind !== 'file' || !e.name.toLowerCase().endsWith('.json')) continue;
      const video = stem(e.name);
      if (videos.some((v) => v.osc === osc && v.video === video)) continue;
      videos.push({ key: `${osc}/${video}`, osc, video, pattern: '<osc>/gt/masks/<video>/', relDir: `${oscRel}/gt/masks/${video}`, frames: [], metaRel: `${oscRel}/meta/${e.name}` });
      added++;
    }
    return added;
  };

  for (const child of children) {
    if (child === 'meta') continue;
    const childRel = relOf(child);
    const sub = await listDir(tree, childRel);
    if (sub.pngs.length > 0) {
      davisExample ??= childRel;
      await addVideo(null, child, childRel, '<video>/', sub.pngs);
      continue;
    }
    const hasGt = sub.dirs.includes('gt') && (await tree.kindOf(`${childRel}/gt/masks`)) === 'dir';
    const hasPred = sub.dirs.includes('pred') && (await tree.kindOf(`${childRel}/pred/masks`)) === 'dir';
    const masksDir = role === 'gt' ? (hasGt ? 'gt/masks' : null) : hasPred ? 'pred/masks' : hasGt ? 'gt/masks' : null;
    if (masksDir) {
      wtcExample ??= childRel;
      const pattern: MaskPattern = masksDir === 'gt/masks' ? '<osc>/gt/masks/<video>/' : '<osc>/pred/masks/<video>/';
      for (const video of (await listDir(tree, `${childRel}/${masksDir}`)).dirs) {
        await addVideo(child, video, `${childRel}/${masksDir}/${video}`, pattern);
      }
      if (role === 'gt') await addUnpainted(child, childRel);
      continue;
    }
    let flat = 0;
    for (const video of sub.dirs) {
      if (isReservedInOsc(video)) continue;
      const videoRel = `${childRel}/${video}`;
      const pngs = (await listDir(tree, videoRel)).pngs;
      if (pngs.length === 0) continue;
      flat++;
      await addVideo(child, video, videoRel, '<osc>/<video>/', pngs);
    }
    if (flat > 0) {
      wtcExample ??= childRel;
      continue;
    }
    if (role === 'gt' && (await addUnpainted(child, childRel)) > 0) {
      wtcExample ??= childRel;
      continue;
    }
    if (hasPred && role === 'gt') notes.push(`${show(childRel)}: has pred/masks but no gt/masks, skipped`);
    else notes.push(`${show(childRel)}: no masks found, skipped`);
  }

  if (davisExample !== null && wtcExample !== null) {
    throw new UsageError(
      `--${role} ${dirArg}: mixes layouts: ${show(davisExample)} holds masks directly (DAVIS <video>/), ` +
        `${show(wtcExample)} holds video folders (WhereToChange <osc>/); give one kind per folder`,
      command,
    );
  }
  if (videos.length === 0) {
    // Several folders, one of them holding the layout one level down: say which one to give.
    const below = await layoutOneLevelDown(tree, children.map((c) => relOf(c)));
    throw new DataError(
      below
        ? `${show('')}: no masks found; ${show(below.folder)} holds WhereToChange folders (${show(below.masks)}): give that folder instead`
        : `${show('')}: no masks found; expected <osc>/gt/masks/<video>/*.png, <osc>/pred/masks/<video>/*.png, ` +
            `<osc>/<video>/*.png (WhereToChange) or <video>/*.png (DAVIS)`,
    );
  }
  videos.sort((a, b) => naturalCompare(a.key, b.key));
  const kind: LayoutKind = davisExample !== null ? 'davis' : 'wtc';
  const patterns = [...new Set(videos.map((v) => v.pattern))].sort();
  const prefix = base ? `${base}/` : '';
  const description =
    (kind === 'davis' ? 'DAVIS layout (' : 'WhereToChange layout (') + patterns.map((p) => `${prefix}${p}*.png`).join(' + ') + ')';
  return {
    dirArg,
    abs,
    tree,
    kind,
    description,
    videos,
    frameCount: videos.reduce((n, v) => n + v.frames.length, 0),
    notes,
  };
}

/**
 * The folder to read as the dataset root when `top` holds nothing but one folder that is not itself
 * a clip's <osc> folder and holds a layout below it (a DAVIS Annotations folder, or <osc> folders
 * with gt/masks or pred/masks): an older SPOC Studio export, unpacked. Null otherwise.
 */
async function wrappedRoot(tree: InputTree, top: Listing): Promise<string | null> {
  const dirs = top.dirs.filter((d) => d !== 'meta');
  if (top.pngs.length > 0 || dirs.length !== 1 || top.dirs.includes('Annotations')) return null;
  const only = await listDir(tree, dirs[0]);
  if (only.pngs.length > 0 || only.dirs.some((d) => d === 'gt' || d === 'pred')) return null;
  if (only.dirs.includes('Annotations')) return dirs[0];
  return (await layoutOneLevelDown(tree, dirs)) ? dirs[0] : null;
}

/** The first child folder whose own children hold `gt/masks` or `pred/masks` (a wrapped layout), if any. */
async function layoutOneLevelDown(tree: InputTree, folders: readonly string[]): Promise<{ folder: string; masks: string } | null> {
  for (const folder of folders) {
    for (const osc of (await listDir(tree, folder)).dirs) {
      for (const masks of ['gt/masks', 'pred/masks']) {
        if ((await tree.kindOf(`${folder}/${osc}/${masks}`)) === 'dir') return { folder, masks: `${folder}/${osc}/${masks}` };
      }
    }
  }
  return null;
}
