/**
 * Pure metric code: no DOM, React or storage, so the same functions run in the page, in workers
 * and in Node (CLI, tests). See docs/metrics.md for definitions and reference implementations.
 */
export { type BinaryMask, assertSameSize, emptyMask, maskArea, maskOfLabels, voidMaskOf } from './binaryMask';
export { type Overlap, iouOrOne, jaccard, overlap } from './jaccard';
export {
  type BoundaryScore,
  DAVIS_BOUND_TH,
  boundaryF,
  boundaryMap,
  boundaryRadius,
  squaredDistanceTransform,
} from './boundary';
export { type FrameJF, type SequenceJF, evaluateSequence, jAndF } from './davis';
export { type SequenceStatistics, decay, decayBinEdges, nanMean, recallAbove, sequenceStatistics } from './statistics';
export {
  type Convention,
  type CountedClip,
  type CountedFrame,
  type CoverageCounts,
  type EvalClip,
  type EvalFrame,
  type FrameCounts,
  type MiouScore,
  type Phase,
  type ScoreFilter,
  type SpocColumns,
  type SpocReport,
  type Subset,
  addCounts,
  countClip,
  countEvalFrame,
  countFrame,
  countSymmetric,
  coverage,
  evaluateSpoc,
  frameCounts,
  scoreClips,
  scoreColumns,
  withFrame,
  zeroCounts,
} from './spoc';
export {
  type ClipProgress,
  type ClipProgressOptions,
  type EndStateStats,
  type ProgressSummary,
  type StateAreas,
  clipProgress,
  endStateStats,
  kendallTau,
  progressCurve,
  progressRatio,
  stateAreas,
  summarizeProgress,
} from './progress';
export {
  type EgoExpression,
  type EgoExpressionResult,
  type EgoMaskScores,
  evaluateExpression,
  summarizeEgoMask,
} from './egomask';
export {
  type BoxTrack,
  type BoxXYXY,
  type GroundingQuery,
  type GroundingResult,
  type GroundingSummary,
  type Interval,
  RECALL_THRESHOLDS,
  boxIoU,
  evaluateGrounding,
  intervalLength,
  recallAtThresholds,
  summarizeGrounding,
  temporalIoU,
  xywhToXyxy,
} from './grounding';
export {
  type AgreementFrameInput,
  type ClipAgreement,
  type FrameAgreement,
  type FrameDisputes,
  clipAgreement,
  disputesFromCounts,
  frameAgreement,
} from './agreement';
