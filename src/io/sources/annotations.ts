/**
 * A second annotator's masks of a clip, imported as the source `ann:<name>` for agreement review.
 * Reading reuses the prediction importer (same layouts, checks, frame matching and messages naming
 * the file); only the source name differs, so a second annotation is never mistaken for a model's
 * output and never lands in gt. One transaction through writeSourceLayers, like a prediction.
 */
import type { VirtualFile } from '../files/virtualFile';
import { ImportError, throwIfAborted } from '../importError';
import type { SpocDb } from '../../store/db';
import {
  commitSourceDraft,
  namedSource,
  predictionTarget,
  readPredictionCoco,
  readPredictionPngs,
  type CocoPredictionOptions,
  type CommitPredictionOptions,
  type PngPredictionOptions,
  type PredictionDraft,
  type SourceImportResult,
} from './predictions';

export type AnnotationSource = `ann:${string}`;

/**
 * `ann:<name>` from an annotator's name ("bob" or "ann:bob"). Throws RangeError when the name is
 * empty, longer than 100 characters, has control characters or surrounding spaces.
 */
export function annotationSource(name: string): AnnotationSource {
  return namedSource('ann', name, 'the second annotation', 'annotation');
}

export function isAnnotationSource(source: string): source is AnnotationSource {
  return source.startsWith('ann:') && source.length > 'ann:'.length;
}

export interface AnnotationDraft extends Omit<PredictionDraft, 'source'> {
  source: AnnotationSource;
}

function named(fileName: string, name: string): AnnotationSource {
  try {
    return annotationSource(name);
  } catch (err) {
    throw new ImportError(fileName, err instanceof Error ? err.message : String(err));
  }
}

/** The prediction reader's warnings, worded for an annotation. */
const reword = (warnings: readonly string[]) =>
  warnings.map((w) => w.replace(/have no prediction (\(e\.g\. [^)]*\)); they score as empty predictions/, 'have no mask in this annotation $1; they are not compared'));

async function readPngs(db: SpocDb, clipId: string, files: readonly VirtualFile[], sourceName: string, name: string, options: PngPredictionOptions): Promise<AnnotationDraft> {
  const source = named(sourceName, name);
  // The prediction reader checks its own name rule; the annotation's name already passed ours.
  const draft = await readPredictionPngs(files, sourceName, await predictionTarget(db, clipId), source.slice('ann:'.length), options);
  return { ...draft, source, warnings: reword(draft.warnings) };
}

async function readCoco(db: SpocDb, clipId: string, input: string | Uint8Array, fileName: string, name: string, options: CocoPredictionOptions): Promise<AnnotationDraft> {
  const source = named(fileName, name);
  const draft = readPredictionCoco(input, fileName, await predictionTarget(db, clipId), source.slice('ann:'.length), options);
  return { ...draft, source, warnings: reword(draft.warnings) };
}

export type AnnotationImportResult = SourceImportResult<AnnotationSource>;

/** Writes a read annotation in one transaction (all or nothing; gt untouched). */
export function commitAnnotation(db: SpocDb, draft: AnnotationDraft, options: CommitPredictionOptions = {}): Promise<AnnotationImportResult> {
  return commitSourceDraft(db, draft, options, 'annotation import');
}

/** Reads PNG masks (a folder, DAVIS / WhereToChange tree) of a stored clip and commits them as `ann:<name>`. */
export async function importAnnotationPngs(
  db: SpocDb,
  clipId: string,
  files: readonly VirtualFile[],
  sourceName: string,
  name: string,
  options: PngPredictionOptions & CommitPredictionOptions = {},
): Promise<AnnotationImportResult> {
  const draft = await readPngs(db, clipId, files, sourceName, name, options);
  throwIfAborted(options.signal);
  return commitAnnotation(db, draft, options);
}

/** Reads a COCO JSON of a stored clip and commits it as `ann:<name>`. */
export async function importAnnotationCoco(
  db: SpocDb,
  clipId: string,
  input: string | Uint8Array,
  fileName: string,
  name: string,
  options: CocoPredictionOptions & CommitPredictionOptions = {},
): Promise<AnnotationImportResult> {
  return commitAnnotation(db, await readCoco(db, clipId, input, fileName, name, options), options);
}
