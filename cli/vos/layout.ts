/**
 * Where `spoc-studio eval --task vos` finds its masks: davis2017-evaluation's folder rules
 * (davis.py, results.py). Only names are listed here; no mask is read.
 *
 *   GT    a DAVIS root: Annotations/<resolution>/<seq>/*.png (semi-supervised) or
 *         Annotations_unsupervised/<resolution>/<seq>/*.png (unsupervised), the sequences listed in
 *         ImageSets/<year>/<set>.txt (year 2019 for unsupervised test-dev / test-challenge, else 2017)
 *         or, without that file, every sequence folder found;
 *         or a folder of sequence folders, <seq>/*.png.
 *   Pred  <results>/<seq>/<frame>.png, one file per GT frame the protocol scores.
 * Frames are the GT masks of a sequence sorted by name (np.sort of the glob: code-point order);
 * a frame's id is its file name without ".png".
 */
import { stat } from 'node:fs/promises';
import type { VosProtocol } from '../../src/metrics/vos';
import { InputTree } from '../inputTree';
import { DataError, UsageError, resolvePath, type CliIo } from '../io';

export interface VosFrame {
  /** File name without ".png" (the name the result must have). */
  id: string;
  /** Path relative to the GT folder given on the command line. */
  rel: string;
}

export interface VosSequence {
  name: string;
  frames: VosFrame[];
}

export interface VosGt {
  dirArg: string;
  tree: InputTree;
  /** The folder holding the sequence folders, relative ('' = the folder itself). */
  base: string;
  /** Where the sequence list came from ("ImageSets/2017/val.txt", "--sequences", or "every sequence folder"). */
  listedBy: string;
  sequences: VosSequence[];
  notes: string[];
}

export interface VosLayoutOptions {
  protocol: VosProtocol;
  set: string;
  resolution: string;
  /** Explicit sequence names (--sequences), else the ImageSets list or every folder. */
  sequences?: readonly string[];
}

const codePointOrder = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export async function openFolder(io: CliIo, dirArg: string, option: string): Promise<InputTree> {
  const abs = resolvePath(io, dirArg);
  let s;
  try {
    s = await stat(abs);
  } catch {
    throw new UsageError(`--${option} ${dirArg}: no such folder`, 'eval');
  }
  if (!s.isDirectory()) throw new UsageError(`--${option} ${dirArg}: is a file, not a folder`, 'eval');
  return InputTree.open(abs, dirArg);
}

/** The sequences and frames of the ground truth. */
export async function scanVosGt(io: CliIo, dirArg: string, options: VosLayoutOptions): Promise<VosGt> {
  const tree = await openFolder(io, dirArg, 'gt');
  const top = await tree.list('');
  const names = new Set(top.map((e) => e.name));
  const notes: string[] = [];
  let base = '';
  let listFile: string | null = null;
  if (names.has('Annotations') || names.has('Annotations_unsupervised') || names.has('ImageSets')) {
    const folder = options.protocol === 'unsupervised' ? 'Annotations_unsupervised' : 'Annotations';
    base = `${folder}/${options.resolution}`;
    if ((await tree.kindOf(base)) !== 'dir') {
      throw new DataError(
        `${tree.show(base)}: no such folder; the ${options.protocol} protocol reads its ground truth from ${folder}/${options.resolution}/<sequence>/ of a DAVIS root (davis2017-evaluation); give a folder of sequence folders to use other annotations`,
      );
    }
    const year = options.protocol === 'unsupervised' && (options.set === 'test-dev' || options.set === 'test-challenge') ? '2019' : '2017';
    listFile = `ImageSets/${year}/${options.set}.txt`;
  } else if (top.some((e) => e.kind === 'file' && e.name.endsWith('.png'))) {
    throw new UsageError(`--gt ${dirArg}: holds mask files directly; give the folder above it, which holds one folder per sequence`, 'eval');
  }

  let sequenceNames: string[];
  let listedBy: string;
  if (options.sequences) {
    sequenceNames = [...options.sequences];
    listedBy = '--sequences';
  } else if (listFile && (await tree.kindOf(listFile)) === 'file') {
    const text = new TextDecoder().decode((await tree.readFile(listFile))!);
    sequenceNames = text.split('\n').map((l) => l.trim()).filter((l) => l !== '');
    listedBy = listFile;
  } else {
    const found: string[] = [];
    for (const e of await tree.list(base)) {
      if (e.kind !== 'dir') continue;
      const pngs = (await tree.list(e.rel)).filter((f) => f.kind === 'file' && f.name.endsWith('.png'));
      if (pngs.length > 0) found.push(e.name);
      else notes.push(`${tree.show(e.rel)}: no .png masks, skipped`);
    }
    sequenceNames = found.sort(codePointOrder);
    listedBy = 'every sequence folder';
    if (listFile) notes.push(`${tree.show(listFile)}: not found; every sequence folder of ${tree.show(base)} is evaluated`);
  }
  if (sequenceNames.length === 0) throw new DataError(`${tree.show(base)}: no sequence folders with .png masks`);

  const sequences: VosSequence[] = [];
  for (const name of sequenceNames) {
    const rel = base ? `${base}/${name}` : name;
    if ((await tree.kindOf(rel)) !== 'dir') throw new DataError(`${tree.show(rel)}: no such sequence folder (listed by ${listedBy})`);
    const files = (await tree.list(rel)).filter((f) => f.kind === 'file' && f.name.endsWith('.png')).map((f) => f.name);
    if (files.length === 0) throw new DataError(`${tree.show(rel)}: no .png masks`);
    files.sort(codePointOrder);
    sequences.push({ name, frames: files.map((f) => ({ id: f.slice(0, -'.png'.length), rel: `${rel}/${f}` })) });
  }
  return { dirArg, tree, base, listedBy, sequences, notes };
}
