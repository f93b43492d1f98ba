/**
 * The evaluation behind `spoc-studio eval --task vos`: davis2017-evaluation's `DAVISEvaluation.evaluate`
 * over the sequences of vos/layout.ts, one frame at a time (read, decode, score, drop). The per-object
 * arithmetic is src/metrics/vos.ts; this file reads files and turns the reference's stops into
 * data errors that name the file.
 */
import { decodeIndexedPng } from '../../src/io/indexedPng';
import type { LabelMap } from '../../src/masks/labelMap';
import {
  MAX_UNSUPERVISED_OBJECTS,
  VOS_VOID,
  VosSequenceScorer,
  type VosGlobal,
  type VosObjectResult,
  type VosProtocol,
  largestId,
  objectCount,
  vosGlobal,
} from '../../src/metrics/vos';
import type { InputTree } from '../inputTree';
import { NODE_PNG } from '../nativePng';
import { DataError, asDataError } from '../io';
import type { VosGt, VosSequence } from './layout';

export interface VosSequenceResult {
  name: string;
  /** Ids of the scored frames (semi-supervised: without the first and the last). */
  frames: string[];
  gtObjects: number;
  /** Largest predicted id over the scored frames. */
  predObjects: number;
  objects: VosObjectResult[];
}

export interface VosRun {
  protocol: VosProtocol;
  davisCompat: boolean;
  set: string;
  gt: VosGt;
  predDir: string;
  sequences: VosSequenceResult[];
  global: VosGlobal;
  frameCount: number;
  warnings: string[];
}

export interface VosRunOptions {
  protocol: VosProtocol;
  davisCompat: boolean;
  set: string;
  onFrame?: (done: number, total: number) => void;
}

function decode(tree: InputTree, rel: string, bytes: Uint8Array, size?: { width: number; height: number; from: string }): LabelMap {
  try {
    // Index = object id; RGB files are refused (the reference reads the palette index).
    return decodeIndexedPng(bytes, {
      fileName: tree.show(rel),
      rgbColors: null,
      expectedWidth: size?.width,
      expectedHeight: size?.height,
      expectedSizeFrom: size?.from,
      native: NODE_PNG,
    });
  } catch (err) {
    throw asDataError(err) ?? err;
  }
}

async function read(tree: InputTree, rel: string, missing: () => string): Promise<Uint8Array> {
  const bytes = await tree.readFile(rel);
  if (!bytes) throw new DataError(`${tree.show(rel)}: ${missing()}`);
  return bytes;
}

export async function runVosEvaluation(gt: VosGt, pred: InputTree, options: VosRunOptions): Promise<VosRun> {
  const { protocol } = options;
  const semi = protocol === 'semi-supervised';
  const warnings = gt.notes.map((n) => `gt: ${n}`);
  const total = gt.sequences.reduce((n, s) => n + (semi ? Math.max(0, s.frames.length - 2) : s.frames.length), 0);
  let done = 0;
  const sequences: VosSequenceResult[] = [];
  for (const seq of gt.sequences) {
    sequences.push(await evaluateSequence(gt, pred, seq, options, warnings, () => options.onFrame?.(++done, total)));
  }
  const all = sequences.flatMap((s) => s.objects);
  return { protocol, davisCompat: options.davisCompat, set: options.set, gt, predDir: pred.shown, sequences, global: vosGlobal(all), frameCount: total, warnings };
}

async function evaluateSequence(gt: VosGt, pred: InputTree, seq: VosSequence, options: VosRunOptions, warnings: string[], tick: () => void): Promise<VosSequenceResult> {
  const semi = options.protocol === 'semi-supervised';
  const firstRel = seq.frames[0].rel;
  const firstFile = gt.tree.show(firstRel);
  const first = decode(gt.tree, firstRel, (await gt.tree.readFile(firstRel))!);
  const size = { width: first.width, height: first.height, from: firstFile };
  // The number of objects is the largest id of the first GT frame (davis.py get_all_masks).
  const gtObjects = objectCount(first);
  if (semi && seq.frames.length < 3) {
    throw new DataError(
      `${gt.tree.show(seq.frames[0].rel.slice(0, seq.frames[0].rel.lastIndexOf('/')))}: has ${seq.frames.length} frame(s); the semi-supervised protocol leaves out the first and the last frame and needs at least 3`,
    );
  }
  const scored = semi ? seq.frames.slice(1, -1) : seq.frames;
  const scorer = new VosSequenceScorer(options.protocol, gtObjects);
  const laterIds = new Set<number>();
  for (const frame of scored) {
    const gtMap = frame === seq.frames[0] ? first : decode(gt.tree, frame.rel, (await gt.tree.readFile(frame.rel))!, size);
    const predRel = `${seq.name}/${frame.id}.png`;
    const predMap = decode(
      pred,
      predRel,
      await read(
        pred,
        predRel,
        () =>
          `missing; a ${options.protocol} result needs a mask for every GT frame${semi ? ' but the first and the last' : ''} (${gt.tree.show(frame.rel)}), as davis2017-evaluation does`,
      ),
      size,
    );
    const top = largestId(predMap);
    if (semi && top > gtObjects) {
      throw new DataError(
        `${pred.show(predRel)}: holds object id ${top} but the sequence has ${gtObjects} object(s) in its first GT frame (${firstFile}); ` +
          `semi-supervised results may only use the GT's ids${top === VOS_VOID ? ' (255 is not void in a result)' : ''}, as davis2017-evaluation requires`,
      );
    }
    if (!semi && top > MAX_UNSUPERVISED_OBJECTS) {
      throw new DataError(
        `${pred.show(predRel)}: holds object id ${top}; unsupervised results may have at most ${MAX_UNSUPERVISED_OBJECTS} objects (davis2017-evaluation's max_n_proposals)${top === VOS_VOID ? ' and 255 is not void in a result' : ''}`,
      );
    }
    const gtTop = objectCount(gtMap);
    if (gtTop > gtObjects) laterIds.add(gtTop);
    scorer.addFrame(gtMap, predMap);
    tick();
  }
  if (laterIds.size > 0) {
    warnings.push(
      `gt: ${seq.name}: frames hold object ids up to ${Math.max(...laterIds)} but the first frame (${firstFile}) only ${gtObjects}; ` +
        'as in davis2017-evaluation, the objects that are not in the first frame are read as background',
    );
  }
  return { name: seq.name, frames: scored.map((f) => f.id), gtObjects, predObjects: scorer.predictedObjects, objects: scorer.finish(options.davisCompat) };
}
