/**
 * Reads a folder given on the command line without ever leaving it. Symbolic links are followed
 * only when their real target (fs.realpath) lies inside the folder; a link that leads out, a link
 * to nothing, a link to itself and a link back to a folder that contains it (a loop, which would
 * make a walk endless) are data errors naming the link. A folder where a file name is expected
 * (`frame0001.png/`) is named too, instead of being skipped or walked into.
 *
 * Every path here is `rel`: relative to the folder, forward slashes, '' for the folder itself.
 */
import type { Dirent } from 'node:fs';
import { lstat, readFile, readdir, readlink, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { isJunkPath } from '../src/io/files/virtualFile';
import { DataError, displayPath, fsProblem } from './io';

export type EntryKind = 'dir' | 'file';

export interface TreeEntry {
  name: string;
  /** Path below the root, forward slashes. */
  rel: string;
  kind: EntryKind;
}

/** Extensions of the files the CLI reads; a folder so named is a mistake worth reporting. */
const FILE_EXTENSIONS = /\.(png|jpe?g|webp|bmp|json)$/i;

const errorCode = (err: unknown): string | undefined => (err as NodeJS.ErrnoException)?.code;

export class InputTree {
  private constructor(
    /** Absolute path of the folder as given (it may itself be a link; the user chose it). */
    readonly abs: string,
    /** The folder as typed on the command line; every message starts from it. */
    readonly shown: string,
    private readonly realRoot: string,
  ) {}

  /** Opens a folder the caller has already checked exists. */
  static async open(abs: string, shown: string): Promise<InputTree> {
    try {
      return new InputTree(abs, shown, await realpath(abs));
    } catch (err) {
      throw new DataError(`${shown}: cannot read the folder (${fsProblem(err)})`);
    }
  }

  show(rel: string): string {
    return displayPath(this.shown, rel);
  }

  absOf(rel: string): string {
    return rel ? path.join(this.abs, ...rel.split('/')) : this.abs;
  }

  /** 'dir', 'file', or null when nothing is there. Links on the way are checked. */
  async kindOf(rel: string): Promise<EntryKind | null> {
    const chain = await this.resolve(rel);
    if (!chain) return null;
    const st = await stat(chain[chain.length - 1]);
    return st.isDirectory() ? 'dir' : st.isFile() ? 'file' : null;
  }

  /** The folder's sub-folders and files, junk names left out, in readdir order. `skip` names are not looked at. */
  async list(rel: string, skip: (name: string) => boolean = () => false): Promise<TreeEntry[]> {
    const chain = await this.resolve(rel);
    if (!chain) throw new DataError(`${this.show(rel)}: no such folder`);
    const dirReal = chain[chain.length - 1];
    let entries: Dirent[];
    try {
      entries = await readdir(dirReal, { withFileTypes: true });
    } catch (err) {
      throw new DataError(`${this.show(rel)}: ${errorCode(err) === 'ENOTDIR' ? 'is a file, not a folder' : `cannot read the folder (${fsProblem(err)})`}`);
    }
    const out: TreeEntry[] = [];
    for (const e of entries) {
      if (isJunkPath(e.name) || skip(e.name)) continue;
      const childRel = rel ? `${rel}/${e.name}` : e.name;
      let isDir = e.isDirectory();
      let isFile = e.isFile();
      if (e.isSymbolicLink()) {
        const st = await stat(await this.follow(childRel, path.join(dirReal, e.name), chain));
        isDir = st.isDirectory();
        isFile = st.isFile();
      }
      if (isDir && FILE_EXTENSIONS.test(e.name)) {
        throw new DataError(`${this.show(childRel)}: is a folder, but its name says it is a file; expected a file here`);
      }
      if (!isDir && !isFile) {
        // Pipes, sockets and devices: reading one could block forever.
        if (FILE_EXTENSIONS.test(e.name)) throw new DataError(`${this.show(childRel)}: is not a regular file (a pipe, socket or device)`);
        continue;
      }
      out.push({ name: e.name, rel: childRel, kind: isDir ? 'dir' : 'file' });
    }
    return out;
  }

  /** A file's bytes, or null when there is none. A folder in its place, or a bad link, is a DataError. */
  async readFile(rel: string): Promise<Uint8Array | null> {
    const chain = await this.resolve(rel);
    if (!chain) return null;
    try {
      return new Uint8Array(await readFile(chain[chain.length - 1]));
    } catch (err) {
      if (errorCode(err) === 'EISDIR') throw new DataError(`${this.show(rel)}: is a folder, not a file`);
      throw new DataError(`${this.show(rel)}: cannot read (${fsProblem(err)})`);
    }
  }

  /**
   * Real paths of the root and of every folder on the way to `rel` (the last is rel's own real
   * path), checking each link met; null when some part does not exist.
   */
  private async resolve(rel: string): Promise<string[] | null> {
    const chain = [this.realRoot];
    const parts = rel.split('/').filter(Boolean);
    for (let i = 0; i < parts.length; i++) {
      const here = path.join(chain[chain.length - 1], parts[i]);
      const hereRel = parts.slice(0, i + 1).join('/');
      let st;
      try {
        st = await lstat(here);
      } catch (err) {
        if (errorCode(err) === 'ENOENT' || errorCode(err) === 'ENOTDIR') return null;
        throw new DataError(`${this.show(hereRel)}: cannot read (${fsProblem(err)})`);
      }
      chain.push(st.isSymbolicLink() ? await this.follow(hereRel, here, chain) : here);
    }
    return chain;
  }

  /** Where the link at `linkAbs` really leads, if that is allowed; `chain` holds the real folders that contain it. */
  private async follow(linkRel: string, linkAbs: string, chain: readonly string[]): Promise<string> {
    const shown = this.show(linkRel);
    let target: string;
    try {
      target = await realpath(linkAbs);
    } catch (err) {
      if (errorCode(err) === 'ENOENT') {
        const to = await readlink(linkAbs).catch(() => '?');
        throw new DataError(`${shown}: is a broken symbolic link (it points to "${to}", which does not exist)`);
      }
      if (errorCode(err) === 'ELOOP') throw new DataError(`${shown}: is a symbolic link loop (it leads back to itself and never reaches a file or folder)`);
      throw new DataError(`${shown}: cannot follow the symbolic link (${fsProblem(err)})`);
    }
    if (!isWithin(target, this.realRoot)) {
      throw new DataError(`${shown}: is a symbolic link that leads outside ${this.shown} (to ${target}); links out of the input folder are not followed`);
    }
    // Following a link to a folder that contains the link would walk the same files forever.
    const contained = chain.find((folder) => isWithin(folder, target));
    if (contained !== undefined) {
      const loopRel = path.relative(this.realRoot, target).split(path.sep).join('/');
      throw new DataError(`${shown}: is a symbolic link loop: it points back to ${this.show(loopRel)}, a folder that contains it`);
    }
    return target;
  }
}

/** Whether `p` is `root` or lies below it (both real, absolute paths). */
function isWithin(p: string, root: string): boolean {
  return p === root || p.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
}
