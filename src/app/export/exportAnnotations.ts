/**
 * "Export annotations as…": a project's clips in one of the field's formats, for any source (gt or
 * a prediction), through the same codecs as the CLI (src/io/formats). Folder formats come as one
 * zip (frame images stored, masks as indexed PNG); COCO is one JSON file; VISOR one JSON per clip,
 * zipped. Built in memory clip by clip (for whole projects with history, use a project bundle).
 */
import { zipSync } from 'fflate';
import type { SpocDb } from '../../store/db';
import { listClips } from '../../store/clips';
import { listFrames, getFrameImage } from '../../store/frames';
import { listLayers } from '../../store/layers';
import type { LayerSource } from '../../store/types';
import { annotationsFromStore, exportFormat, type FormatId, type ImportedClip } from '../../io/formats';
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
  onProgress?: (done: number, total: number) => void;
}

export async function exportAnnotations(db: SpocDb, req: ExportRequest): Promise<{ blob: Blob; fileName: string }> {
  const clips = await listClips(db, req.projectId);
  const withImages = req.images && (req.format === 'wtc' || req.format === 'davis');
  const imported: ImportedClip<VirtualFile>[] = [];
  for (const [i, clip] of clips.entries()) {
    const [frames, layers] = await Promise.all([listFrames(db, clip.id), listLayers(db, clip.id, req.source)]);
    const annotations = annotationsFromStore({ clip, frames, layers });
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
  const options = { wtc: { source: req.source }, davis: { source: req.source }, coco: { source: req.source }, visor: { source: req.source } };
  const files = exportFormat(req.format, imported, options);
  const base = safeName(req.projectName) + (req.source === 'gt' ? '' : `-${safeName(req.source)}`);
  if (files.length === 1 && files[0].path.endsWith('.json')) {
    return { blob: toBlob(files[0].data, 'application/json'), fileName: `${base}-${req.format}.json` };
  }
  const entries: Record<string, Uint8Array> = {};
  for (const f of files) entries[`${base}/${f.path}`] = f.data instanceof Blob ? new Uint8Array(await f.data.arrayBuffer()) : f.data;
  // Images and PNGs are compressed already: store, don't deflate.
  const zipped = zipSync(entries, { level: 0 });
  return { blob: toBlob(zipped, 'application/zip'), fileName: `${base}-${req.format}.zip` };
}

function toBlob(data: Uint8Array | Blob, type: string): Blob {
  return data instanceof Blob ? data : new Blob([data as Uint8Array<ArrayBuffer>], { type });
}

function safeName(s: string): string {
  return s.replace(/[^\w.-]+/g, '_').replace(/^_+|_+$/g, '') || 'export';
}
