/**
 * `spoc-studio demo`: generated clips with their exact ground truth in the WhereToChange layout, and
 * optionally a seeded, degraded copy of the GT as predictions, so `eval` can be tried on anything.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { encode as encodeJpeg } from 'jpeg-js';
import { DEMO_KINDS, createDemoClip, createRng, sampleTimes, type DemoKind } from '../../src/demo';
import { encodeIndexedPng } from '../../src/io/indexedPng';
import { MAX_SIDE } from '../../src/masks/labelMap';
import { subsetOf } from '../../src/taxonomy';
import { WTC_FRAMES_DIR } from '../../src/io/formats/wtcLayout';
import { flag, parseChoice, parseCommandArgs, parseInteger, parseNumber, parseSize, requireString, stringOption } from '../args';
import { DEMO_HELP } from '../help';
import { DataError, EXIT, UsageError, displayPath, fsProblem, resolvePath, type CliIo } from '../io';
import { applyNoise, chooseNoise, type NoiseChoice } from '../noise';

export const DEMO_FPS = 1;
const JPEG_QUALITY = 90;
const MAX_FRAMES = 3600;
const MAX_CLIPS = 1000;

export interface DemoOptions {
  out: string;
  seed: number;
  /** null: cycle grating, peeling, slicing. */
  kind: DemoKind | null;
  frames: number;
  width: number;
  height: number;
  clips: number;
  predOut: string | null;
  predNoise: number;
  /** Skip the JPEG frames (benchmarks that only need masks). Not a command-line option. */
  skipImages?: boolean;
}

export function frameName(index: number): string {
  return `frame${String(index).padStart(4, '0')}`;
}

export function parseDemoArgs(argv: readonly string[]): DemoOptions | 'help' {
  const parsed = parseCommandArgs('demo', argv, {
    out: { type: 'string' },
    seed: { type: 'string' },
    kind: { type: 'string' },
    frames: { type: 'string' },
    size: { type: 'string' },
    clips: { type: 'string' },
    'pred-out': { type: 'string' },
    'pred-noise': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if (flag(parsed, 'help')) return 'help';
  const out = requireString(parsed, 'out', 'demo');
  const seedText = stringOption(parsed, 'seed');
  const kindText = stringOption(parsed, 'kind');
  const framesText = stringOption(parsed, 'frames');
  const sizeText = stringOption(parsed, 'size');
  const clipsText = stringOption(parsed, 'clips');
  const predOut = stringOption(parsed, 'pred-out') ?? null;
  const noiseText = stringOption(parsed, 'pred-noise');
  if (noiseText !== undefined && predOut === null) throw new UsageError('--pred-noise needs --pred-out DIR (where to write the predictions)', 'demo');
  if (predOut === '') throw new UsageError('--pred-out needs a folder name', 'demo');
  const [width, height] = sizeText === undefined ? [640, 360] : parseSize(sizeText, 'size', 'demo', MAX_SIDE);
  return {
    out,
    seed: seedText === undefined ? 1 : parseInteger(seedText, 'seed', 'demo', -(2 ** 31), 2 ** 32 - 1),
    kind: kindText === undefined ? null : parseChoice(kindText, 'kind', DEMO_KINDS, 'demo'),
    frames: framesText === undefined ? 20 : parseInteger(framesText, 'frames', 'demo', 1, MAX_FRAMES),
    width,
    height,
    clips: clipsText === undefined ? 1 : parseInteger(clipsText, 'clips', 'demo', 1, MAX_CLIPS),
    predOut,
    predNoise: noiseText === undefined ? 0.3 : parseNumber(noiseText, 'pred-noise', 'demo', 0, 1),
  };
}

export async function demoCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const options = parseDemoArgs(argv);
  if (options === 'help') {
    io.stdout.write(DEMO_HELP);
    return EXIT.ok;
  }
  await writeDemo(options, io);
  return EXIT.ok;
}

async function put(abs: string, shown: string, bytes: Uint8Array | string): Promise<void> {
  try {
    await mkdir(path.dirname(abs), { recursive: true });
    await writeFile(abs, bytes);
  } catch (err) {
    throw new DataError(`${shown}: cannot write (${fsProblem(err)})`);
  }
}

export interface DemoClipSummary {
  osc: string;
  video: string;
  frames: number;
  predWritten: number;
  noise: Record<NoiseChoice['op'], number>;
}

/** Writes every clip; returns what was written (also printed on stdout). */
export async function writeDemo(options: DemoOptions, io: CliIo): Promise<DemoClipSummary[]> {
  const outAbs = resolvePath(io, options.out);
  const predAbs = options.predOut === null ? null : resolvePath(io, options.predOut);
  const summaries: DemoClipSummary[] = [];
  for (let k = 0; k < options.clips; k++) {
    const seed = options.seed + k;
    const kind = options.kind ?? DEMO_KINDS[k % DEMO_KINDS.length];
    let clip;
    try {
      clip = createDemoClip({ seed, kind, width: options.width, height: options.height, durationSec: options.frames / DEMO_FPS });
    } catch (err) {
      if (err instanceof RangeError) throw new UsageError(err.message, 'demo');
      throw err;
    }
    const { verb, noun, actionable, transformed } = clip.meta;
    const osc = `${verb}_${noun.trim().replace(/\s+/g, '_')}`;
    const video = `demo-${seed}`;
    const times = sampleTimes(clip.durationSec, DEMO_FPS).slice(0, options.frames);
    const names = times.map((_, i) => frameName(i));
    const rng = createRng(seed >>> 0).fork('pred-noise');
    const noise: DemoClipSummary['noise'] = { exact: 0, erode: 0, dilate: 0, swap: 0, drop: 0 };
    let predWritten = 0;

    for (let i = 0; i < times.length; i++) {
      const t = times[i];
      if (!options.skipImages) {
        const rgba = clip.renderAt(t, { frameIndex: i });
        const jpeg = encodeJpeg({ data: rgba.data, width: rgba.width, height: rgba.height }, JPEG_QUALITY).data;
        const rel = `${osc}/${WTC_FRAMES_DIR}/${video}/${names[i]}.jpg`;
        await put(path.join(outAbs, rel), displayPath(options.out, rel), jpeg);
      }
      const gt = clip.groundTruthAt(t);
      const gtRel = `${osc}/gt/masks/${video}/${names[i]}.png`;
      await put(path.join(outAbs, gtRel), displayPath(options.out, gtRel), encodeIndexedPng(gt));
      if (predAbs !== null && options.predOut !== null) {
        const choice = chooseNoise(rng, options.predNoise, gt.width, gt.height);
        noise[choice.op]++;
        const predMap = applyNoise(gt, choice);
        if (predMap) {
          const predRel = `${osc}/pred/masks/${video}/${names[i]}.png`;
          await put(path.join(predAbs, predRel), displayPath(options.predOut, predRel), encodeIndexedPng(predMap));
          predWritten++;
        }
      }
    }

    // The app's WhereToChange metadata schema (src/io/formats/wtcMeta.ts), so `convert` and the
    // app's importer read what `demo` writes; `eval` reads it too.
    const meta = {
      format: 'spoc-studio/wtc-meta',
      version: 1,
      video,
      verb,
      noun,
      actionable,
      transformed,
      subset: subsetOf(verb, noun),
      fps: DEMO_FPS,
      width: options.width,
      height: options.height,
      source: 'gt',
      frames: names.map((name, k) => ({ name, timestamp_sec: times[k], phase: clip.phaseAt(times[k]) })),
    };
    const metaRel = `${osc}/meta/${video}.json`;
    await put(path.join(outAbs, metaRel), displayPath(options.out, metaRel), JSON.stringify(meta, null, 2) + '\n');

    const summary: DemoClipSummary = { osc, video, frames: times.length, predWritten, noise };
    summaries.push(summary);
    io.stdout.write(
      `wrote ${displayPath(options.out, `${osc}/`)}{${options.skipImages ? '' : `${WTC_FRAMES_DIR},`}gt/masks,meta} ${video}: ` +
        `${times.length} frames ${options.width}x${options.height}, ${verb} ${noun} (${meta.subset})\n`,
    );
    if (options.predOut !== null) {
      io.stdout.write(
        `  predictions ${displayPath(options.predOut, `${osc}/pred/masks/${video}/`)}: ${predWritten} frames ` +
          `(${noise.exact} exact, ${noise.erode} eroded, ${noise.dilate} dilated, ${noise.swap} states swapped), ${noise.drop} left out\n`,
      );
    }
  }
  io.stdout.write(`\nNext: spoc-studio eval --gt ${options.out} --pred ${options.predOut ?? options.out}\n`);
  return summaries;
}
