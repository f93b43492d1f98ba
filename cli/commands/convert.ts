/**
 * `spoc-studio convert --from FORMAT --to FORMAT IN OUT`: reads IN with src/io/formats importFormat
 * and writes OUT with exportFormat, the same code the app uses. Folder formats (WhereToChange,
 * DAVIS) read a folder or a .zip and write a folder; JSON formats (COCO, VISOR) read a .json file or
 * a folder of them and write a .json file (VISOR: one per clip, so a folder for several clips).
 * Input files are opened as file-backed Blobs (fs.openAsBlob), so frame images are read only when
 * they are copied.
 *
 * Broken input is a data error naming the file below IN: the folder is read through InputTree
 * (links never lead out of IN), frame images get the app's header checks (checkFrames), and the
 * shared readers' errors become DataErrors in cli/io.ts asDataError. Everything is read and checked
 * before the first byte is written; should a write fail after all, the files already written are
 * removed again.
 */
import type { VirtualFile } from '../../src/io/files/virtualFile';
import { ImportError } from '../../src/io/importError';
import { checkFrames } from '../../src/io/images/imageSequence';
import {
  FORMAT_IDS,
  OVERLAP_POLICIES,
  exportFormat,
  importFormat,
  type ExportOptionsByFormat,
  type FormatId,
  type ImportOptionsByFormat,
  type ImportedClip,
  type LayerSource,
  type OutFile,
  type OverlapPolicy,
} from '../../src/io/formats';
import { isLayerSource } from '../../src/store/validate';
import { MAX_SIDE } from '../../src/masks/labelMap';
import { flag, parseChoice, parseCommandArgs, parseNumber, parseSize, requireString, stringOption } from '../args';
import { CONVERT_HELP } from '../help';
import { DataError, EXIT, UsageError, asDataError, displayPath, resolvePath, type CliIo } from '../io';
import { FOLDER_FORMATS, FORMAT_NAMES, checkOutput, readInput, writeOutput } from './convertFiles';

export interface ConvertOptions {
  from: FormatId;
  to: FormatId;
  input: string;
  output: string;
  /** Layer to convert; default: the one source the input has, else gt. */
  source: LayerSource | null;
  fps: number | null;
  size: { width: number; height: number } | null;
  osc: { verb: string; noun: string } | null;
  overlap: OverlapPolicy | null;
  ignored: 'void' | 'painted' | null;
  /** Read the input as objects with classes and tracks (VISOR, COCO, DAVIS; our objects exports say so themselves). */
  objects: boolean;
  force: boolean;
}

export function parseConvertArgs(argv: readonly string[]): ConvertOptions | 'help' {
  const parsed = parseCommandArgs(
    'convert',
    argv,
    {
      from: { type: 'string' },
      to: { type: 'string' },
      source: { type: 'string' },
      fps: { type: 'string' },
      size: { type: 'string' },
      verb: { type: 'string' },
      noun: { type: 'string' },
      overlap: { type: 'string' },
      ignored: { type: 'string' },
      objects: { type: 'boolean' },
      force: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    true,
  );
  if (flag(parsed, 'help')) return 'help';
  const from = parseChoice(requireString(parsed, 'from', 'convert'), 'from', FORMAT_IDS, 'convert');
  const to = parseChoice(requireString(parsed, 'to', 'convert'), 'to', FORMAT_IDS, 'convert');
  const [input, output, ...extra] = parsed.positionals;
  if (input === undefined || output === undefined) throw new UsageError('needs the input and the output: convert --from A --to B IN OUT', 'convert');
  if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}" (convert takes one IN and one OUT)`, 'convert');
  const sourceText = stringOption(parsed, 'source');
  if (sourceText !== undefined && !isLayerSource(sourceText)) throw new UsageError(`--source must be gt, proposal or pred:<name>; got "${sourceText}"`, 'convert');
  const fpsText = stringOption(parsed, 'fps');
  const sizeText = stringOption(parsed, 'size');
  const verb = stringOption(parsed, 'verb');
  const noun = stringOption(parsed, 'noun');
  if ((verb === undefined) !== (noun === undefined)) throw new UsageError('--verb and --noun go together', 'convert');
  const overlapText = stringOption(parsed, 'overlap');
  const ignoredText = stringOption(parsed, 'ignored');
  const size = sizeText === undefined ? null : parseSize(sizeText, 'size', 'convert', MAX_SIDE);
  return {
    from,
    to,
    input,
    output,
    source: (sourceText as LayerSource | undefined) ?? null,
    fps: fpsText === undefined ? null : parseNumber(fpsText, 'fps', 'convert', 0.001, 1000),
    size: size && { width: size[0], height: size[1] },
    osc: verb !== undefined && noun !== undefined ? { verb, noun } : null,
    overlap: overlapText === undefined ? null : parseChoice(overlapText, 'overlap', OVERLAP_POLICIES, 'convert'),
    ignored: ignoredText === undefined ? null : parseChoice(ignoredText, 'ignored', ['void', 'painted'] as const, 'convert'),
    objects: flag(parsed, 'objects'),
    force: flag(parsed, 'force'),
  };
}

export async function convertCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const options = parseConvertArgs(argv);
  if (options === 'help') {
    io.stdout.write(CONVERT_HELP);
    return EXIT.ok;
  }
  await runConvert(options, io);
  return EXIT.ok;
}

export interface ConvertSummary {
  clips: number;
  frames: number;
  files: number;
  source: LayerSource;
  warnings: string[];
}

export async function runConvert(options: ConvertOptions, io: CliIo): Promise<ConvertSummary> {
  const { from, to } = options;
  const inAbs = resolvePath(io, options.input);
  const outAbs = resolvePath(io, options.output);
  const { files, single } = await readInput(inAbs, options.input, from);
  const showInput = (name: string): string => (name === options.input || name === single ? options.input : displayPath(options.input, name));

  const importOptions: ImportOptionsByFormat = {};
  const src = options.source ?? undefined;
  if (from === 'wtc') importOptions.wtc = { source: src };
  // Without --objects, COCO and VISOR still read our objects exports as objects (the files say so).
  const objects = options.objects || undefined;
  if (from === 'davis') importOptions.davis = { source: src, fps: options.fps ?? undefined, objects };
  if (from === 'coco') importOptions.coco = { source: src, fps: options.fps ?? undefined, overlap: options.overlap ?? undefined, objects };
  if (from === 'visor') importOptions.visor = { source: src, size: options.size ?? undefined, overlap: options.overlap ?? undefined, objects };
  let clips: ImportedClip<VirtualFile>[];
  let warnings: string[];
  try {
    ({ clips, warnings } = await importFormat(from, files, options.input, importOptions));
    await checkFrameImages(clips);
  } catch (err) {
    throw dataError(err, showInput);
  }
  if (clips.length === 0) throw new DataError(`${options.input}: holds no ${FORMAT_NAMES[from]} clips`);
  const source = options.source ?? onlySource(clips) ?? 'gt';

  const exportOptions: ExportOptionsByFormat = {
    wtc: { source, osc: options.osc ?? undefined },
    davis: { source, ignored: options.ignored ?? undefined },
    coco: { source },
    visor: { source },
  };
  let out: OutFile[];
  try {
    out = exportFormat(to, clips, exportOptions);
  } catch (err) {
    throw dataError(err, showInput);
  }

  // Where the files go: JSON formats write one file when OUT names a .json file.
  const toFile = !FOLDER_FORMATS.includes(to) && options.output.toLowerCase().endsWith('.json');
  if (toFile && out.length > 1) {
    throw new UsageError(`${FORMAT_NAMES[to]} writes one file per clip and the input has ${clips.length} clips; give a folder for OUT, not "${options.output}"`, 'convert');
  }
  if (FOLDER_FORMATS.includes(to) && options.output.toLowerCase().endsWith('.json')) {
    throw new UsageError(`${FORMAT_NAMES[to]} output is a folder; "${options.output}" looks like a file`, 'convert');
  }
  await checkOutput(outAbs, options.output, toFile, options.force);

  await writeOutput(out, files, options, outAbs, toFile, showInput);

  const frames = clips.reduce((n, c) => n + c.annotations.frames.length, 0);
  for (const w of warnings) io.stderr.write(`warning: ${w}\n`);
  io.stdout.write(
    `read ${clips.length} ${clips.length === 1 ? 'clip' : 'clips'} (${frames} frames, source ${source}) from ${options.input} as ${FORMAT_NAMES[from]}\n` +
      `wrote ${out.length} ${out.length === 1 ? 'file' : 'files'} to ${options.output} as ${FORMAT_NAMES[to]}\n`,
  );
  if (!FOLDER_FORMATS.includes(from) && FOLDER_FORMATS.includes(to)) {
    io.stdout.write(`note: ${FORMAT_NAMES[from]} carries no frame images, so ${options.output} holds masks${to === 'wtc' ? ' and metadata' : ''} only\n`);
  }
  const tagged = clips.filter((c) => [...(c.annotations.instances?.get(source)?.values() ?? [])].some((t) => t.length > 0)).length;
  if (to === 'davis' && tagged > 0) {
    io.stdout.write(`note: DAVIS masks cannot carry instance tags (their index is the state); the tags of ${tagged} ${tagged === 1 ? 'clip' : 'clips'} were not written\n`);
  }
  return { clips: clips.length, frames, files: out.length, source, warnings };
}

/** The single source every clip has masks for, if there is exactly one across the input. */
function onlySource(clips: readonly ImportedClip<VirtualFile>[]): LayerSource | null {
  const sources = new Set<LayerSource>();
  for (const c of clips) for (const [s, masks] of c.annotations.sources) if (masks.size > 0) sources.add(s);
  return sources.size === 1 ? [...sources][0] : null;
}

function dataError(err: unknown, showInput: (name: string) => string): unknown {
  const data = asDataError(err, showInput);
  if (data) return data;
  // The exporters refuse a clip they cannot write (no verb and noun for a WhereToChange folder, two
  // clips writing one path) with a RangeError naming the clip: a problem of this input, not a bug.
  if (err instanceof RangeError) return new DataError(err.message.replace('(pass the osc option)', '(pass --verb and --noun)'));
  return err;
}

/**
 * The frame images of folder formats pass the checks the app's import makes (checkFrames: a
 * readable header, a size within the limits, one size per clip) and have the size the masks were
 * read at, so `convert` never copies a frame the app would refuse.
 */
async function checkFrameImages(clips: readonly ImportedClip<VirtualFile>[]): Promise<void> {
  for (const { annotations, frameFiles } of clips) {
    const { width, height } = annotations.clip;
    for (const image of frameFiles ?? []) {
      if (!image) continue;
      // One image at a time, so the frame named is the one that differs from the clip, not from frame 0.
      const seq = await checkFrames([image]);
      if (seq.width !== width || seq.height !== height) {
        throw new ImportError(image.path, `is ${seq.width}x${seq.height} but the clip's metadata or masks say ${width}x${height}`);
      }
    }
  }
}
