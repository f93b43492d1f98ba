/**
 * Importing model predictions into an existing clip as a named source `pred:<name>`, from
 * WhereToChange / DAVIS-style PNG folders or a COCO RLE JSON file, for comparison with ground truth.
 *
 * Two steps, so nothing is written unless everything was read and checked:
 * 1. read (readPredictionPngs / readPredictionCoco): decode, check sizes against the clip, match
 *    every mask to a frame, build the layers in memory. Errors are ImportError "<file>: <problem>".
 * 2. commit (commitPrediction): one transaction through the store's writeSourceLayers — all layers
 *    land or none; `gt` can never be written this way; an existing source of the same name is an
 *    error unless `replace` is set. Errors are StoreError.
 *
 * Frame matching (docs/review.md): by default a mask belongs to the frame whose name equals the
 * mask's file stem (PNG) or image frame name (COCO: `frame`, else the stem of `file_name`),
 * ignoring case. A frame's name is Frame.name (the original file stem, stored since schema v3);
 * frames without one (video imports, clips imported before v3) are named frame0000, frame0001, ...
 * by position, which is also what our exports write. `match: 'order'` instead pairs masks with
 * frames by position (PNG files in natural order, COCO images in their frame order) and then needs
 * exactly one mask per frame. Frames without a mask simply have no prediction (scored as empty).
 */
import { MaskFormatError } from '../../masks/errors';
import { labelHistogram } from '../../masks/geometry';
import { LABEL, type LabelMap } from '../../masks/labelMap';
import { encodeLayer, type LayerMasks } from '../../masks/layers';
import { checkSpocLabels } from '../../masks/labelSets';
import { remapLabels } from '../../masks/remap';
import { extension, isJunkPath, naturalCompare, stem, type VirtualFile } from '../files/virtualFile';
import { importCoco } from '../formats/cocoImport';
import { defaultFrameName, frameLayer } from '../formats/model';
import type { OverlapPolicy } from '../formats/stateMasks';
import { ImportError, throwIfAborted } from '../importError';
import { decodeIndexedPng } from '../indexedPng';
import type { SpocDb } from '../../store/db';
import { getClip } from '../../store/clips';
import { StoreError } from '../../store/errors';
import { listFrames } from '../../store/frames';
import { writeSourceLayers } from '../../store/sourceLayers';
import { storedClipRef, withClipWriteLock } from '../../workspace/clipWriteLock';
import type { Clip, Frame, LayerSource } from '../../store/types';

export type PredictionSource = `pred:${string}`;

/** Frame-matching rule: by name (default) or by position. */
export type FrameMatch = 'name' | 'order';

/** The clip a prediction is read for: its size, name and frames. */
export interface PredictionTarget {
  /** `source`: the name of the file the clip was imported from, which a renamed clip still answers to. */
  clip: Pick<Clip, 'id' | 'name' | 'width' | 'height' | 'frameCount' | 'source'>;
  frames: readonly Pick<Frame, 'index' | 'name'>[];
}

/** A prediction read and checked, ready to commit. */
export interface PredictionDraft {
  clipId: string;
  source: PredictionSource;
  /** Frame index -> masks. */
  layers: Map<number, LayerMasks>;
  /** Frame index -> where its masks came from (file path, or "file.json: images[3]"). */
  from: Map<number, string>;
  warnings: string[];
}

const MAX_NAME = 100;
/** Said when a mask holds object ids instead of SPOC states. */
const VOS_HINT = 'import SPOC states (1 actionable, 2 transformed), or score multi-object masks per object with `spoc-studio eval --task vos`';
/** Non-state values a prediction may carry become background (metrics treat them so anyway). */
const TO_BACKGROUND = { 3: 0, 4: 0, 5: 0, 255: 0 } as const;

/**
 * `pred:<name>` from a model name ("sam2-ft" or "pred:sam2-ft"). Throws RangeError when the name
 * is empty, longer than 100 characters, has control characters or surrounding spaces.
 */
export function predictionSource(name: string): PredictionSource {
  return namedSource('pred', name, 'the prediction', 'prediction');
}

/**
 * `<prefix>:<name>` for a named non-gt source (a prediction, a second annotation) under one naming
 * rule; `whole` / `noun` word the messages ("the prediction", "prediction name").
 */
export function namedSource<P extends 'pred' | 'ann'>(prefix: P, name: string, whole: string, noun: string): `${P}:${string}` {
  const bare = name.startsWith(`${prefix}:`) ? name.slice(prefix.length + 1) : name;
  if (!bare) throw new RangeError(`${whole} needs a name (it becomes the source ${prefix}:<name>)`);
  if (bare !== bare.trim()) throw new RangeError(`the ${noun} name "${bare}" starts or ends with a space`);
  if (bare.length > MAX_NAME) throw new RangeError(`the ${noun} name is ${bare.length} characters long (at most ${MAX_NAME})`);
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(bare)) throw new RangeError(`the ${noun} name contains a control character`);
  return `${prefix}:${bare}`;
}

/** A frame's name for matching: its stored name, else its positional name frame0000, ... */
export function frameMatchName(frame: Pick<Frame, 'index' | 'name'>): string {
  return frame.name ?? defaultFrameName(frame.index);
}

/** Lower-case frame name -> frame index. Throws when two frames share a name (a corrupt clip). */
export function frameNameIndex(frames: readonly Pick<Frame, 'index' | 'name'>[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const f of frames) {
    const key = frameMatchName(f).toLowerCase();
    if (out.has(key)) throw new RangeError(`frames ${out.get(key)! + 1} and ${f.index + 1} are both named "${frameMatchName(f)}"`);
    out.set(key, f.index);
  }
  return out;
}

function namesHint(target: PredictionTarget): string {
  const names = [...target.frames].sort((a, b) => a.index - b.index).map(frameMatchName);
  if (names.length === 0) return 'it has no frames';
  const shown = names.length <= 3 ? names.join(', ') : `${names[0]}, ${names[1]}, …, ${names[names.length - 1]}`;
  const positional = target.frames.some((f) => f.name === undefined);
  return `its frames are named ${shown}${positional ? '; frames without a stored name are named by position — try matching by order' : ''}`;
}

function checkTarget(target: PredictionTarget): void {
  if (target.frames.length !== target.clip.frameCount) {
    throw new RangeError(`clip "${target.clip.name}" declares ${target.clip.frameCount} frames but ${target.frames.length} were given`);
  }
}

function missingWarning(target: PredictionTarget, layers: Map<number, unknown>, label: string): string[] {
  const missing = [...target.frames].sort((a, b) => a.index - b.index).filter((f) => !layers.has(f.index));
  if (missing.length === 0) return [];
  return [
    `${label}: ${missing.length} of ${target.frames.length} frames have no prediction (e.g. ${frameMatchName(missing[0])}); they score as empty predictions`,
  ];
}

// ---------------------------------------------------------------------------------------------
// PNG folders

export interface PngPredictionOptions {
  match?: FrameMatch;
  signal?: AbortSignal;
}

/**
 * Reads the prediction masks of one clip from PNG files (a picked folder or zip). Accepted layouts:
 * a folder of PNGs (`<frame>.png`), or a tree holding one folder per video — DAVIS
 * `Annotations/<video>/`, WhereToChange `<verb>_<noun>/pred/masks/<video>/` (our export of a
 * prediction) or `gt/masks/<video>/`, or `<model>/<video>/` —
 * from which the folder named after the clip is taken. Other files (frame JPEGs, metadata) are
 * skipped. Masks are indexed, grayscale or label-coloured PNGs of the clip's size holding 0, 1, 2
 * or 255, and in a WhereToChange mask folder also the release labels 3..5; values other than 1 and
 * 2 become background (with a warning). Any other value is an ImportError naming the file and the
 * labels found (docs/review.md).
 */
export async function readPredictionPngs(
  files: readonly VirtualFile[],
  sourceName: string,
  target: PredictionTarget,
  name: string,
  options: PngPredictionOptions = {},
): Promise<PredictionDraft> {
  const source = wrapName(sourceName, name);
  checkTarget(target);
  const pngs = files.filter((f) => !isJunkPath(f.path) && extension(f.path) === 'png');
  if (pngs.length === 0) throw new ImportError(sourceName, 'has no PNG masks');
  const { dir, masks } = pickFolder(pngs, sourceName, target.clip.name);
  const where = dir || sourceName;
  masks.sort((a, b) => naturalCompare(a.path, b.path));

  const assigned = assignFiles(masks, where, target, options.match ?? 'name');
  const layers = new Map<number, LayerMasks>();
  const from = new Map<number, string>();
  let nonState = 0;
  for (const [index, file] of assigned) {
    throwIfAborted(options.signal);
    let map: LabelMap;
    try {
      map = decodeIndexedPng(new Uint8Array(await file.blob.arrayBuffer()), {
        fileName: file.path,
        expectedWidth: target.clip.width,
        expectedHeight: target.clip.height,
      });
      // Release labels 3..5 belong to the WhereToChange layout; anywhere else (DAVIS Annotations/,
      // a results folder) a value above 2 other than void is an object id, refused, never remapped.
      checkSpocLabels(map, isWtcMaskPlace(file.path) ? 'wtc' : 'davis', file.path, VOS_HINT);
    } catch (err) {
      if (err instanceof MaskFormatError) throw new ImportError(file.path, clipSized(err.problem, target));
      throw err;
    }
    const hist = labelHistogram(map);
    const others = map.data.length - hist[LABEL.background] - hist[LABEL.actionable] - hist[LABEL.transformed];
    if (others > 0) {
      nonState += others;
      map = remapLabels(map, TO_BACKGROUND);
    }
    layers.set(index, encodeLayer(map));
    from.set(index, file.path);
  }
  const warnings = missingWarning(target, layers, where);
  if (nonState > 0) warnings.push(`${where}: ${nonState} pixels labelled 3, 4, 5 or 255 were read as background`);
  return { clipId: target.clip.id, source, layers, from, warnings };
}

function clipSized(problem: string, target: PredictionTarget): string {
  return problem.replace('the frame size', `the size of clip "${target.clip.name}",`);
}

/** A mask file in a WhereToChange mask folder, `<osc>/gt/masks/<video>/` or `<osc>/pred/masks/<video>/`. */
export function isWtcMaskPlace(file: string): boolean {
  return /(^|\/)(gt|pred)\/masks\/[^/]+\/[^/]+$/.test(file);
}

/** A video folder in the WhereToChange prediction place, `<osc>/pred/masks/<video>` (what our export writes). */
export function isPredictionPlace(dir: string): boolean {
  return /(^|\/)pred\/masks\/[^/]+$/.test(dir);
}

/** The one folder of masks to read: the only folder, or the one named after the clip (in pred/masks first). */
function pickFolder(pngs: readonly VirtualFile[], sourceName: string, clipName: string): { dir: string; masks: VirtualFile[] } {
  const byDir = new Map<string, VirtualFile[]>();
  for (const f of pngs) {
    const dir = f.path.slice(0, Math.max(0, f.path.lastIndexOf('/')));
    const list = byDir.get(dir);
    if (list) list.push(f);
    else byDir.set(dir, [f]);
  }
  if (byDir.size === 1) {
    const [[dir, masks]] = byDir;
    return { dir, masks };
  }
  let named = [...byDir.keys()].filter((d) => d.slice(d.lastIndexOf('/') + 1).toLowerCase() === clipName.toLowerCase());
  // A gt export unpacked beside the prediction's: the folder in the prediction place wins.
  if (named.length > 1 && named.filter(isPredictionPlace).length === 1) named = named.filter(isPredictionPlace);
  if (named.length === 1) return { dir: named[0], masks: byDir.get(named[0])! };
  const dirs = (named.length > 1 ? named : [...byDir.keys()]).sort(naturalCompare);
  const shown = dirs.slice(0, 4).map((d) => `${d || '.'}/`).join(', ') + (dirs.length > 4 ? ', …' : '');
  if (named.length > 1) {
    throw new ImportError(sourceName, `has ${named.length} mask folders named after clip "${clipName}" (${shown}); pick one of them`);
  }
  throw new ImportError(sourceName, `holds masks in ${byDir.size} folders (${shown}) and none is named after clip "${clipName}"; pick the clip's folder`);
}

function assignFiles(masks: readonly VirtualFile[], where: string, target: PredictionTarget, match: FrameMatch): Map<number, VirtualFile> {
  const out = new Map<number, VirtualFile>();
  if (match === 'order') {
    const frames = [...target.frames].sort((a, b) => a.index - b.index);
    if (masks.length !== frames.length) {
      throw new ImportError(where, `has ${masks.length} masks but clip "${target.clip.name}" has ${frames.length} frames; matching by order needs one mask per frame`);
    }
    masks.forEach((m, k) => out.set(frames[k].index, m));
    return out;
  }
  const index = frameNameIndex(target.frames);
  const seen = new Map<string, VirtualFile>();
  for (const m of masks) {
    const key = stem(m.path).toLowerCase();
    const other = seen.get(key);
    if (other) throw new ImportError(m.path, `has the same frame name as ${other.path}`);
    seen.set(key, m);
    const k = index.get(key);
    if (k === undefined) throw new ImportError(m.path, `matches no frame of clip "${target.clip.name}" (${namesHint(target)})`);
    out.set(k, m);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// COCO RLE JSON

export interface CocoPredictionOptions {
  match?: FrameMatch;
  /** Pixels the file puts in both states (default: transformed wins, with a warning). */
  overlap?: OverlapPolicy;
  /** Category ids per state when the file's categories are not named actionable / transformed. */
  categories?: { actionable: readonly number[]; transformed: readonly number[] };
}

/**
 * Reads the prediction of one clip from a COCO JSON file (io/formats importCoco: compressed or
 * uncompressed RLE or polygons, validated with JSON paths in errors). A file with several videos
 * must have one named after the clip. Images without annotations are empty predictions. Frame
 * metadata in the file (phases, ignores, timestamps) is not applied: a prediction brings masks only.
 */
export function readPredictionCoco(
  input: string | Uint8Array,
  fileName: string,
  target: PredictionTarget,
  name: string,
  options: CocoPredictionOptions = {},
): PredictionDraft {
  const source = wrapName(fileName, name);
  checkTarget(target);
  const result = importCoco(input, fileName, { source, overlap: options.overlap, categories: options.categories });
  const clips = result.clips.map((c) => c.annotations);
  if (clips.length === 0) throw new ImportError(fileName, 'has no images');
  let a = clips[0];
  if (clips.length > 1) {
    const named = clips.filter((c) => c.clip.name.toLowerCase() === target.clip.name.toLowerCase());
    if (named.length !== 1) {
      const shown = clips.slice(0, 4).map((c) => `"${c.clip.name}"`).join(', ') + (clips.length > 4 ? ', …' : '');
      throw new ImportError(fileName, `holds ${clips.length} videos (${shown}) and none is named after clip "${target.clip.name}"`);
    }
    a = named[0];
  }
  const { width, height } = target.clip;
  if (a.clip.width !== width || a.clip.height !== height) {
    throw new ImportError(fileName, `video "${a.clip.name}" is ${a.clip.width}x${a.clip.height} but clip "${target.clip.name}" is ${width}x${height}`);
  }
  const masks = a.sources.get(source) ?? new Map();
  const frameOf = new Map<number, number>();
  if ((options.match ?? 'name') === 'order') {
    const frames = [...target.frames].sort((x, y) => x.index - y.index);
    if (a.frames.length !== frames.length) {
      throw new ImportError(fileName, `video "${a.clip.name}" has ${a.frames.length} images but clip "${target.clip.name}" has ${frames.length} frames; matching by order needs one image per frame`);
    }
    a.frames.forEach((_, k) => frameOf.set(k, frames[k].index));
  } else {
    const index = frameNameIndex(target.frames);
    a.frames.forEach((f, k) => {
      const i = index.get(f.name.toLowerCase());
      if (i === undefined) throw new ImportError(fileName, `image "${f.name}" of video "${a.clip.name}" matches no frame of clip "${target.clip.name}" (${namesHint(target)})`);
      frameOf.set(k, i);
    });
  }
  const layers = new Map<number, LayerMasks>();
  const from = new Map<number, string>();
  for (const [k, mask] of masks) {
    const i = frameOf.get(k)!;
    try {
      layers.set(i, frameLayer(mask, target.clip));
    } catch (err) {
      throw new ImportError(fileName, `image "${a.frames[k].name}": ${err instanceof Error ? err.message : String(err)}`);
    }
    from.set(i, `${fileName}: ${a.frames[k].name}`);
  }
  const warnings = [...result.warnings, ...missingWarning(target, layers, fileName)];
  return { clipId: target.clip.id, source, layers, from, warnings };
}

function wrapName(fileName: string, name: string): PredictionSource {
  try {
    return predictionSource(name);
  } catch (err) {
    throw new ImportError(fileName, err instanceof Error ? err.message : String(err));
  }
}

// ---------------------------------------------------------------------------------------------
// Commit

export interface CommitPredictionOptions {
  /** Replace an existing prediction of the same name (default: refuse). */
  replace?: boolean;
  /** Recorded in each layer's provenance (default "prediction import"). */
  by?: string;
}

/** What an import of a non-gt source wrote. */
export interface SourceImportResult<S extends Exclude<LayerSource, 'gt'>> {
  source: S;
  /** Frames that got a layer of the source. */
  frames: number;
  /** Layers of the same source that were replaced. */
  replaced: number;
  warnings: string[];
}

export type PredictionImportResult = SourceImportResult<PredictionSource>;

/** Writes a read prediction in one transaction (all or nothing; gt untouched). */
export function commitPrediction(db: SpocDb, draft: PredictionDraft, options: CommitPredictionOptions = {}): Promise<PredictionImportResult> {
  return commitSourceDraft(db, draft, options, 'prediction import');
}

/**
 * Writes a read draft of any non-gt source (`pred:*`, or `ann:*` for a second annotator) in one
 * transaction through writeSourceLayers, each layer's provenance naming its file.
 */
export async function commitSourceDraft<S extends Exclude<LayerSource, 'gt'>>(
  db: SpocDb,
  draft: Omit<PredictionDraft, 'source'> & { source: S },
  options: CommitPredictionOptions,
  defaultBy: string,
): Promise<SourceImportResult<S>> {
  const at = Date.now();
  const by = options.by?.trim() || defaultBy;
  const layers = [...draft.layers].sort((x, y) => x[0] - y[0]).map(([frameIndex, m]) => ({
    frameIndex,
    act: m.act,
    trf: m.trf,
    provenance: { kind: 'imported' as const, by, at, from: draft.from.get(frameIndex) },
  }));
  // Refused while another tab edits the clip: its editor would not know the source changed.
  const clip = await storedClipRef(db, draft.clipId);
  const { written, replaced } = await withClipWriteLock([clip], `Cannot import ${draft.source} into "${clip.name}"`, () =>
    writeSourceLayers(db, draft.clipId, draft.source, layers, { replace: options.replace }),
  );
  return { source: draft.source, frames: written, replaced, warnings: draft.warnings };
}

/** The clip and frames a prediction is matched against, read from the store. */
export async function predictionTarget(db: SpocDb, clipId: string): Promise<PredictionTarget> {
  const clip = await getClip(db, clipId);
  if (!clip) throw new StoreError('not_found', 'Clip was not found; it may have been deleted in another tab.');
  return { clip, frames: await listFrames(db, clipId) };
}

/** Reads PNG prediction masks for a stored clip and commits them as `pred:<name>`. */
export async function importPredictionPngs(
  db: SpocDb,
  clipId: string,
  files: readonly VirtualFile[],
  sourceName: string,
  name: string,
  options: PngPredictionOptions & CommitPredictionOptions = {},
): Promise<PredictionImportResult> {
  const draft = await readPredictionPngs(files, sourceName, await predictionTarget(db, clipId), name, options);
  throwIfAborted(options.signal);
  return commitPrediction(db, draft, options);
}

/** Reads a COCO prediction file for a stored clip and commits it as `pred:<name>`. */
export async function importPredictionCoco(
  db: SpocDb,
  clipId: string,
  input: string | Uint8Array,
  fileName: string,
  name: string,
  options: CocoPredictionOptions & CommitPredictionOptions = {},
): Promise<PredictionImportResult> {
  const draft = readPredictionCoco(input, fileName, await predictionTarget(db, clipId), name, options);
  return commitPrediction(db, draft, options);
}
