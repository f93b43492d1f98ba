/**
 * "Export annotations as…": a project's clips — all, the ones the filters show, or one — in one of
 * the field's formats, for any source (gt or a prediction), through the same codecs as the CLI
 * (src/io/formats). Folder formats come as one zip (frame images stored, masks as indexed PNG);
 * COCO is one JSON file; VISOR one JSON per clip, zipped. A zip holds the dataset root itself. Built in memory clip by clip (for whole
 * projects with history, use a project bundle).
 *
 * Names never stop an export: names that cannot be paths and clips that would write the same files
 * are rewritten first (io/formats/exportNames.ts), and the summary lists every rewrite.
 */
import { zipSync } from 'fflate';
import type { SpocDb } from '../../store/db';
import { listClips } from '../../store/clips';
import { listFrames, getFrameImage } from '../../store/frames';
import { listLayers } from '../../store/layers';
import { listClipObjects } from '../../store/objects';
import { getProject } from '../../store/projects';
import type { LayerSource } from '../../store/types';
import { annotationsFromStore, exportFormat, type FormatId, type ImportedClip } from '../../io/formats';
import { resolveExportNames } from '../../io/formats/exportNames';
import type { VirtualFile } from '../../io/files/virtualFile';

export const EXPORT_FORMATS: { id: FormatId; label: string }[] = [
  { id: 'wtc', label: 'WhereToChange folders (zip)' },
  { id: 'davis', label: 'DAVIS folders (zip)' },
  { id: 'coco', label: 'COCO JSON with RLE' },
  { id: 'visor', label: 'VISOR-style polygon JSON (zip)' },
];

export interface ExportRequest {
  projectId: string;
  projectName: string;
  format: FormatId;
  source: LayerSource;
  /** Folder formats only: also write the frame images. */
  images: boolean;
  /** Only these clips (one clip, or what the dashboard filters show); all listed clips when absent. */
  clipIds?: readonly string[];
  onProgress?: (done: number, total: number) => void;
}

export interface ExportResult {
  blob: Blob;
  fileName: string;
  /** How many clips the file holds. */
  clipCount: number;
  /** Names rewritten so the export could be written, one sentence each (empty when none). */
  notes: string[];
}

export async function exportAnnotations(db: SpocDb, req: ExportRequest): Promise<ExportResult> {
  const wanted = req.clipIds && new Set(req.clipIds);
  // listClips leaves out clips in the trash and incomplete imports, even when asked for by id.
  const clips = (await listClips(db, req.projectId)).filter((c) => !wanted || wanted.has(c.id));
  if (clips.length === 0) throw new Error('there are no clips to export (the ones picked may have been deleted meanwhile).');
  const withImages = req.images && (req.format === 'wtc' || req.format === 'davis');
  // An objects project's clips export their objects (classes, tracks, relations); SPOC clips their states.
  const labels = (await getProject(db, req.projectId))?.labels;
  const imported: ImportedClip<VirtualFile>[] = [];
  for (const [i, clip] of clips.entries()) {
    const [frames, layers, objects] = await Promise.all([listFrames(db, clip.id), listLayers(db, clip.id, req.source), listClipObjects(db, clip.id, true)]);
    const annotations = annotationsFromStore({ clip, frames, layers, objects, labels });
    let frameFiles: (VirtualFile | undefined)[] | undefined;
    if (withImages) {
      frameFiles = [];
      for (const f of frames) {
        const img = await getFrameImage(db, clip.id, f.index);
        frameFiles.push(img ? { path: `${annotations.frames[f.index].name}`, blob: img.blob } : undefined);
      }
    }
    imported.push({ annotations, frameFiles });
    req.onProgress?.(i + 1, clips.length);
  }
  const naming = resolveExportNames(req.format, imported.map((c) => c.annotations));
  const named = imported.map((c, k) => ({ ...c, annotations: naming.clips[k] }));
  const options = { wtc: { source: req.source }, davis: { source: req.source }, coco: { source: req.source }, visor: { source: req.source } };
  const files = exportFormat(req.format, named, options);
  const scope = clips.length === 1 && wanted ? `-${safeName(naming.clips[0].clip.name)}` : wanted ? `-${clips.length}-clips` : '';
  const base = safeName(req.projectName) + scope + (req.source === 'gt' ? '' : `-${safeName(req.source)}`);
  const summary = { clipCount: clips.length, notes: naming.notes };
  if (files.length === 1 && files[0].path.endsWith('.json')) {
    return { blob: toBlob(files[0].data, 'application/json'), fileName: `${base}-${req.format}.json`, ...summary };
  }
  const entries: Record<string, Uint8Array> = {};
  // The archive's root is the dataset root (WhereToChange <verb>_<noun>/…, DAVIS JPEGImages/ and
  // Annotations/), as the benchmarks lay it out: unpacked, the folder is what readers and
  // `spoc-studio eval` take. Older exports wrapped it in a folder named after the project; the
  // readers still accept that (docs/formats.md).
  for (const f of files) entries[f.path] = f.data instanceof Blob ? new Uint8Array(await f.data.arrayBuffer()) : f.data;
  // Images and PNGs are compressed already: store, don't deflate.
  const zipped = zipSync(entries, { level: 0 });
  return { blob: toBlob(zipped, 'application/zip'), fileName: `${base}-${req.format}.zip`, ...summary };
}

function toBlob(data: Uint8Array | Blob, type: string): Blob {
  return data instanceof Blob ? data : new Blob([data as Uint8Array<ArrayBuffer>], { type });
}

function safeName(s: string): string {
  return s.replace(/[^\w.-]+/g, '_').replace(/^_+|_+$/g, '') || 'export';
}
