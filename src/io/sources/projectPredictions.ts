/**
 * One prediction for a whole project: a folder or zip holding one folder of PNG masks per clip (the
 * layouts the per-clip import reads: WhereToChange `<verb>_<noun>/pred/masks/<video>/` as our export
 * writes it, or `gt/masks/<video>/`; DAVIS `Annotations/<video>/`; `<model>/<video>/`), each folder
 * matched to the clip of its name, ignoring case, or else to the clip whose video bore that name (a clip
 * renamed in the app) (docs/review.md, "A prediction for the whole project").
 *
 * All or nothing per import: every matched folder is read and checked by the per-clip reader
 * (readPredictionPngs in predictions.ts) before anything is written; any error leaves the store as
 * it was, and the report lists every error (file and problem), not only the first. Then every
 * clip's layers are written in one transaction.
 */
import { isJunkPath, extension, naturalCompare, stem, type VirtualFile } from '../files/virtualFile';
import { ImportCancelled, ImportError, throwIfAborted } from '../importError';
import type { SpocDb } from '../../store/db';
import { StoreError } from '../../store/errors';
import { writeSourceLayers } from '../../store/sourceLayers';
import { touchTables } from '../../store/touch';
import { withClipWriteLock } from '../../workspace/clipWriteLock';
import { isPredictionPlace, predictionSource, readPredictionPngs, type PredictionDraft, type PredictionSource, type PredictionTarget } from './predictions';

export interface MatchedClip {
  clipId: string;
  clipName: string;
  /** The folder its masks came from (path inside the picked folder or zip). */
  folder: string;
  draft: PredictionDraft;
}

export interface ProjectPredictionReport {
  source: PredictionSource;
  matched: MatchedClip[];
  /** Prediction folders whose name is no clip's. */
  unmatchedFolders: string[];
  /** Clips no folder was found for (every frame a missing prediction). */
  clipsWithout: string[];
  /** "<file>: <problem>", every one found; any error means nothing is written. */
  errors: string[];
  warnings: string[];
}

/** Folder path → its PNG files (the folder's own, not its sub-folders'). */
function pngFolders(files: readonly VirtualFile[]): Map<string, VirtualFile[]> {
  const out = new Map<string, VirtualFile[]>();
  for (const f of files) {
    if (isJunkPath(f.path) || extension(f.path) !== 'png') continue;
    const dir = f.path.slice(0, Math.max(0, f.path.lastIndexOf('/')));
    const list = out.get(dir);
    if (list) list.push(f);
    else out.set(dir, [f]);
  }
  return out;
}

const lastSegment = (dir: string): string => dir.slice(dir.lastIndexOf('/') + 1);

/**
 * Each clip by the name of the video (or folder) it was imported from, lower-cased: only names that
 * one clip alone answers to, and that are no clip's current name (a video imported twice is ambiguous).
 */
function videoNames(targets: readonly PredictionTarget[]): Map<string, PredictionTarget> {
  const current = new Set(targets.map((t) => t.clip.name.toLowerCase()));
  const out = new Map<string, PredictionTarget | null>();
  for (const t of targets) {
    const name = stem(t.clip.source.fileName).toLowerCase();
    if (!name || current.has(name)) continue;
    out.set(name, out.has(name) ? null : t);
  }
  return new Map([...out].filter((e): e is [string, PredictionTarget] => e[1] !== null));
}

/**
 * Reads and checks a project's prediction from the picked files; writes nothing. `targets` are the
 * project's clips with their frames (predictionTarget). Throws ImportError only for a bad name or
 * input that holds no PNG at all; everything else goes to the report.
 */
export async function readProjectPredictions(
  files: readonly VirtualFile[],
  sourceName: string,
  targets: readonly PredictionTarget[],
  name: string,
  options: { signal?: AbortSignal } = {},
): Promise<ProjectPredictionReport> {
  let source: PredictionSource;
  try {
    source = predictionSource(name);
  } catch (err) {
    throw new ImportError(sourceName, err instanceof Error ? err.message : String(err));
  }
  const folders = pngFolders(files);
  if (folders.size === 0) throw new ImportError(sourceName, 'has no PNG masks');
  const report: ProjectPredictionReport = { source, matched: [], unmatchedFolders: [], clipsWithout: [], errors: [], warnings: [] };
  const byName = new Map(targets.map((t) => [t.clip.name.toLowerCase(), t]));
  const byVideo = videoNames(targets);
  const candidates = new Map<PredictionTarget, string[]>();
  const byVideoName = new Map<PredictionTarget, string[]>();
  for (const dir of [...folders.keys()].sort(naturalCompare)) {
    const folderName = lastSegment(dir).toLowerCase();
    const named = dir ? byName.get(folderName) : undefined;
    const filed = dir && !named ? byVideo.get(folderName) : undefined;
    if (!dir) report.errors.push(`${sourceName}: holds masks directly (e.g. ${folders.get(dir)![0].path}); a project's prediction has one folder per clip, named after it`);
    else if (named) candidates.set(named, [...(candidates.get(named) ?? []), dir]);
    else if (filed) byVideoName.set(filed, [...(byVideoName.get(filed) ?? []), dir]);
    else report.unmatchedFolders.push(dir);
  }
  // A clip renamed in the app still answers to its video's name, the name a model's output
  // usually carries; a folder named after the clip as it is now wins over one named after its video.
  for (const [target, dirs] of byVideoName) {
    if (candidates.has(target)) report.unmatchedFolders.push(...dirs);
    else {
      candidates.set(target, dirs);
      report.warnings.push(`${dirs.join(', ')}: matched to clip "${target.clip.name}" by the name of its video (${target.clip.source.fileName})`);
    }
  }
  report.unmatchedFolders.sort(naturalCompare);
  for (const target of targets) {
    throwIfAborted(options.signal);
    let dirs = candidates.get(target) ?? [];
    if (dirs.length === 0) {
      report.clipsWithout.push(target.clip.name);
      continue;
    }
    // A folder in the prediction place wins over namesakes elsewhere (a gt export unpacked beside it).
    if (dirs.length > 1 && dirs.filter(isPredictionPlace).length === 1) dirs = dirs.filter(isPredictionPlace);
    if (dirs.length > 1) {
      report.errors.push(`${dirs.join(', ')}: ${dirs.length} folders are named after clip "${target.clip.name}"; keep one`);
      continue;
    }
    try {
      const draft = await readPredictionPngs(folders.get(dirs[0])!, dirs[0], target, source, options);
      report.matched.push({ clipId: target.clip.id, clipName: target.clip.name, folder: dirs[0], draft });
      report.warnings.push(...draft.warnings);
    } catch (err) {
      if (err instanceof ImportError) report.errors.push(err.message);
      else if (err instanceof ImportCancelled) throw err;
      else report.errors.push(`${dirs[0]}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  return report;
}

export interface ProjectPredictionCommit {
  /** Replace the clips' existing layers of the same source (default: refuse, nothing written). */
  replace?: boolean;
  /** Recorded in each layer's provenance. */
  by?: string;
}

/**
 * Writes every matched clip's layers in ONE transaction: all clips land or none. Refuses a report
 * with errors or with nothing matched (StoreError 'invalid'; nothing written).
 */
export async function commitProjectPredictions(db: SpocDb, report: ProjectPredictionReport, options: ProjectPredictionCommit = {}): Promise<{ clips: number; frames: number }> {
  if (report.errors.length > 0) throw new StoreError('invalid', `${report.errors.length} error(s) in the prediction; nothing was imported.`);
  if (report.matched.length === 0) throw new StoreError('invalid', 'No prediction folder is named after a clip of this project; nothing was imported.');
  const at = Date.now();
  const by = options.by?.trim() || 'prediction import';
  const clips = report.matched.map((m) => ({ id: m.clipId, name: m.clipName }));
  return withClipWriteLock(clips, `Cannot import ${report.source}`, () =>
    db.transaction('rw', [db.layers, ...touchTables(db)], async () => {
      let frames = 0;
      for (const m of report.matched) {
        const layers = [...m.draft.layers]
          .sort((x, y) => x[0] - y[0])
          .map(([frameIndex, masks]) => ({ frameIndex, act: masks.act, trf: masks.trf, provenance: { kind: 'imported' as const, by, at, from: m.draft.from.get(frameIndex) } }));
        frames += (await writeSourceLayers(db, m.clipId, report.source, layers, { replace: options.replace })).written;
      }
      return { clips: report.matched.length, frames };
    }),
  );
}
