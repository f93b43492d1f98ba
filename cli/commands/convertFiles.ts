/**
 * The file side of `spoc-studio convert`: reading IN (a folder through InputTree, a .zip, or one
 * JSON file) into VirtualFiles, refusing to overwrite OUT without --force, and writing the exported
 * files so that a failed write leaves nothing of this run behind.
 */
import { access, mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { constants, openAsBlob } from 'node:fs';
import path from 'node:path';
import { readZip, mimeFor } from '../../src/io/files/zipArchive';
import { naturalCompare, type VirtualFile } from '../../src/io/files/virtualFile';
import type { FormatId, OutFile } from '../../src/io/formats';
import { InputTree } from '../inputTree';
import { DataError, UsageError, asDataError, displayPath, fsProblem } from '../io';

export const FOLDER_FORMATS: readonly FormatId[] = ['wtc', 'davis'];
export const FORMAT_NAMES: Record<FormatId, string> = { wtc: 'WhereToChange', davis: 'DAVIS', coco: 'COCO', visor: 'VISOR' };
const MAX_INPUT_FILES = 2_000_000;

async function statOrNull(abs: string) {
  try {
    return await stat(abs);
  } catch {
    return null;
  }
}

/**
 * The files of IN as VirtualFiles (paths relative to IN, forward slashes). The readers name files
 * by these paths; messages show them below IN as typed (`single`: the name that stands for IN
 * itself when IN is one JSON file).
 */
export async function readInput(abs: string, shown: string, format: FormatId): Promise<{ files: VirtualFile[]; single: string | null }> {
  const st = await statOrNull(abs);
  if (!st) throw new UsageError(`${shown}: no such file or folder`, 'convert');
  if (st.isDirectory()) return { files: await listTree(await InputTree.open(abs, shown)), single: null };
  if (FOLDER_FORMATS.includes(format)) {
    if (!shown.toLowerCase().endsWith('.zip')) throw new UsageError(`${shown} is a file; ${FORMAT_NAMES[format]} input is a folder (or a .zip of one)`, 'convert');
    try {
      return { files: await readZip(await openAsBlob(abs), shown), single: null };
    } catch (err) {
      throw asDataError(err) ?? err;
    }
  }
  if (!shown.toLowerCase().endsWith('.json')) throw new UsageError(`${shown} is not a .json file; ${FORMAT_NAMES[format]} input is a .json file or a folder of them`, 'convert');
  const name = path.basename(abs);
  return { files: [{ path: name, blob: await openAsBlob(abs, { type: 'application/json' }) }], single: name };
}

/** Every file below the folder, in natural order, opened lazily; links never lead out of it (InputTree). */
async function listTree(tree: InputTree): Promise<VirtualFile[]> {
  const out: VirtualFile[] = [];
  const walk = async (rel: string): Promise<void> => {
    const entries = await tree.list(rel);
    entries.sort((a, b) => naturalCompare(a.name, b.name));
    for (const e of entries) {
      if (e.kind === 'dir') {
        await walk(e.rel);
        continue;
      }
      if (out.length >= MAX_INPUT_FILES) throw new DataError(`${tree.shown}: holds more than ${MAX_INPUT_FILES} files`);
      const abs = tree.absOf(e.rel);
      try {
        // openAsBlob reads nothing yet; an unreadable file would fail later, deep in a reader, unnamed.
        await access(abs, constants.R_OK);
        out.push({ path: e.rel, blob: await openAsBlob(abs, { type: mimeFor(e.rel) }) });
      } catch (err) {
        throw new DataError(`${tree.show(e.rel)}: cannot read (${fsProblem(err)})`);
      }
    }
  };
  await walk('');
  return out;
}

/** Refuses to overwrite unless --force: an existing output file, or a folder that is not empty. */
export async function checkOutput(abs: string, shown: string, toFile: boolean, force: boolean): Promise<void> {
  const st = await statOrNull(abs);
  if (!st) return;
  if (toFile) {
    if (st.isDirectory()) throw new UsageError(`${shown} is a folder; give a .json file name`, 'convert');
    if (!force) throw new UsageError(`${shown} exists; pass --force to overwrite it`, 'convert');
    return;
  }
  if (!st.isDirectory()) throw new UsageError(`${shown} is a file; the output must be a folder`, 'convert');
  if (!force && (await readdir(abs)).length > 0) throw new UsageError(`${shown} is not empty; pass --force to write into it (files of the same name are overwritten)`, 'convert');
}

/**
 * Writes the exported files. A failure midway removes what this run created (new files and the
 * folders made for them), so a failed convert leaves no half output; files that --force overwrote
 * stay overwritten, which the message says.
 */
export async function writeOutput(
  out: readonly OutFile[],
  inputFiles: readonly VirtualFile[],
  options: { output: string; force: boolean },
  outAbs: string,
  toFile: boolean,
  showInput: (name: string) => string,
): Promise<void> {
  const sourceOf = new Map<Blob, string>(inputFiles.map((f) => [f.blob, f.path]));
  const created: string[] = [];
  const madeDirs: string[] = [];
  let overwritten = 0;
  try {
    for (const f of out) {
      const target = toFile ? outAbs : path.join(outAbs, ...f.path.split('/'));
      const shown = toFile ? options.output : displayPath(options.output, f.path);
      let bytes: Uint8Array;
      try {
        bytes = f.data instanceof Blob ? new Uint8Array(await f.data.arrayBuffer()) : f.data;
      } catch (err) {
        const source = f.data instanceof Blob ? sourceOf.get(f.data) : undefined;
        throw new DataError(`${source ? showInput(source) : shown}: cannot read it to copy it to ${shown} (${(err as Error).message}); was it changed or removed meanwhile?`);
      }
      try {
        const made = await mkdir(path.dirname(target), { recursive: true });
        if (made) madeDirs.push(made);
        const existed = options.force && (await statOrNull(target)) !== null;
        await writeFile(target, bytes);
        if (existed) overwritten++;
        else created.push(target);
      } catch (err) {
        throw new DataError(`${shown}: cannot write (${fsProblem(err)})`);
      }
    }
  } catch (err) {
    await Promise.all([...madeDirs, ...created].map((p) => rm(p, { recursive: true, force: true }).catch(() => undefined)));
    const note =
      created.length > 0 ? `; removed the ${created.length} ${created.length === 1 ? 'file' : 'files'} written before the failure` : '; nothing was written';
    const kept = overwritten > 0 ? ` (${overwritten} existing ${overwritten === 1 ? 'file was' : 'files were'} already overwritten because of --force)` : '';
    throw err instanceof DataError ? new DataError(`${err.message}${note}${kept}`) : err;
  }
}
