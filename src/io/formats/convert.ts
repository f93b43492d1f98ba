/**
 * One entry point per direction over all formats, so `spoc-studio convert --from A --to B IN OUT`
 * (and the app's export menu) is: files in -> importFormat -> exportFormat -> files out.
 * Folder formats take every file of the input tree; JSON formats take the .json files in it (COCO:
 * one dataset per file; VISOR: one video per file). Frame images travel along: a folder import
 * keeps each frame's file, and a folder export writes it under the new layout unchanged.
 */
import { extension, isJunkPath, naturalCompare, type VirtualFile } from '../files/virtualFile';
import { mimeFor } from '../files/zipArchive';
import { ImportError } from '../importError';
import { exportCocoFile, type CocoExportOptions } from './cocoExport';
import { importCoco, type CocoImportOptions } from './cocoImport';
import { exportDavis, importDavis, type DavisExportOptions, type DavisImportOptions } from './davis';
import { fileBytes } from './folderFiles';
import type { FrameImage, ImportResult, ImportedClip, OutFile } from './model';
import { exportVisorFile, importVisor, type VisorExportOptions, type VisorImportOptions } from './visor';
import { exportWtc, importWtc, type WtcExportOptions, type WtcImportOptions } from './wtc';

export const FORMAT_IDS = ['wtc', 'davis', 'coco', 'visor'] as const;
export type FormatId = (typeof FORMAT_IDS)[number];

export interface ImportOptionsByFormat {
  wtc?: WtcImportOptions;
  davis?: DavisImportOptions;
  coco?: CocoImportOptions;
  visor?: VisorImportOptions;
}

export interface ExportOptionsByFormat {
  wtc?: Omit<WtcExportOptions, 'frameImages'>;
  davis?: Omit<DavisExportOptions, 'frameImages'>;
  coco?: CocoExportOptions;
  visor?: VisorExportOptions;
}

/** Reads clips in `format` from the files of a folder or zip (`sourceName` names it in messages). */
export async function importFormat(
  format: FormatId,
  files: readonly VirtualFile[],
  sourceName: string,
  options: ImportOptionsByFormat = {},
): Promise<ImportResult<VirtualFile>> {
  switch (format) {
    case 'wtc':
      return importWtc(files, sourceName, options.wtc);
    case 'davis':
      return importDavis(files, sourceName, options.davis);
    case 'coco':
    case 'visor': {
      const jsons = files.filter((f) => extension(f.path) === 'json' && !isJunkPath(f.path)).sort((a, b) => naturalCompare(a.path, b.path));
      if (jsons.length === 0) throw new ImportError(sourceName, `has no .json file to read as ${format.toUpperCase()}`);
      const out: ImportResult<VirtualFile> = { clips: [], warnings: [] };
      for (const f of jsons) {
        const bytes = await fileBytes(f);
        const r = format === 'coco' ? importCoco(bytes, f.path, options.coco) : importVisor(bytes, f.path, options.visor);
        out.clips.push(...r.clips);
        out.warnings.push(...r.warnings);
      }
      checkUniqueNames(out.clips, sourceName);
      return out;
    }
  }
}

/** Writes clips in `format`; folder formats write the frame images the clips were imported with. */
export function exportFormat(format: FormatId, clips: readonly ImportedClip<VirtualFile>[], options: ExportOptionsByFormat = {}): OutFile[] {
  let files: OutFile[];
  switch (format) {
    case 'coco':
      return [exportCocoFile(clips.map((c) => c.annotations), options.coco)];
    case 'visor':
      files = clips.map((c) => exportVisorFile(c.annotations, options.visor));
      break;
    case 'wtc':
      files = clips.flatMap((c) => exportWtc(c.annotations, { ...options.wtc, frameImages: frameImagesOf(c) }));
      break;
    case 'davis':
      files = clips.flatMap((c) => exportDavis(c.annotations, { ...options.davis, frameImages: frameImagesOf(c) }));
      break;
  }
  const seen = new Set<string>();
  for (const f of files) {
    if (seen.has(f.path)) throw new RangeError(`two clips would both write "${f.path}"`);
    seen.add(f.path);
  }
  return files;
}

function frameImagesOf(c: ImportedClip<VirtualFile>): (FrameImage | undefined)[] | undefined {
  return c.frameFiles?.map((f) => f && { data: f.blob, mime: f.blob.type || mimeFor(f.path) });
}

/** Clip names become folder and file names; two with one name would overwrite each other. */
function checkUniqueNames(clips: readonly ImportedClip<unknown>[], where: string): void {
  const seen = new Set<string>();
  for (const c of clips) {
    const name = c.annotations.clip.name;
    if (seen.has(name)) throw new ImportError(where, `holds two videos named "${name}"; clip names must be unique`);
    seen.add(name);
  }
}
