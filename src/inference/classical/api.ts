/**
 * The classical (weight-free) worker's API over the app's one worker RPC (src/rpc/,
 * docs/workers.md): ids keep overlapping calls apart, pixel buffers travel as transferred typed
 * arrays, failures come back as errors with their name and message, never as a dead worker.
 */
import type { Box, LabelMap, RgbaImage } from '../../masks/labelMap';
import type { GrabCutOptions, RegionOptions } from './segment';
import type { FlowOptions, FlowPropagation } from './flow';
import type { ShiftEstimate, ShiftQuery } from './motion';
import type { Refit, RefitOptions } from './refit';
import type { ClassifierOptions, StatePrediction, TrainingFrame } from './stateClassifier';

export type ClassicalMethods = {
  /** Loads OpenCV (if not yet) and reports how long that took. */
  warmUp: { params: Record<string, never>; result: { loadMs: number } };
  grabCut: { params: { image: RgbaImage; box: Box; options?: GrabCutOptions }; result: { mask: Uint8Array; ms: number } };
  regionFromClick: { params: { image: RgbaImage; point: { x: number; y: number }; options?: RegionOptions }; result: { mask: Uint8Array; ms: number } };
  scissorsPath: { params: { image: RgbaImage; points: { x: number; y: number }[] }; result: { path: { x: number; y: number }[]; ms: number } };
  scissorsRegion: { params: { image: RgbaImage; points: { x: number; y: number }[] }; result: { path: { x: number; y: number }[]; mask: Uint8Array; ms: number } };
  propagateByFlow: { params: { prev: RgbaImage; next: RgbaImage; labels: LabelMap; options?: FlowOptions }; result: FlowPropagation & { ms: number } };
  /** Where each masked object of `a` went on `b` (motion.ts). */
  estimateShifts: { params: { a: RgbaImage; b: RgbaImage; queries: ShiftQuery[] }; result: { shifts: ShiftEstimate[]; ms: number } };
  /** GrabCut re-fit of a carried label map to its frame (refit.ts). */
  refitLabels: { params: { image: RgbaImage; carried: LabelMap; options?: RefitOptions }; result: Refit & { ms: number } };
  classifyStates: {
    params: { train: TrainingFrame[]; target: RgbaImage; targetMask?: Uint8Array; options?: ClassifierOptions };
    result: StatePrediction & { trainMs: number; predictMs: number; samples: number };
  };
};

export type ClassicalMethod = keyof ClassicalMethods;
