/**
 * The review room's data side: automatic flags, prediction import, error maps and diffs.
 * See docs/review.md.
 */
export * from './flags';
export { loadClipFlags, saveFlagDismissal, undoFlagDismissal, type ClipFlags } from './flagStore';
export { loadClipFlagsInChunks, type ChunkedFlagOptions } from './flagLoader';
export {
  ACTION_SPECS,
  CLIP_ACTIONS,
  STATUS_LABELS,
  availableActions,
  openChangeRequest,
  transition,
  type ClipAction,
  type TransitionResult,
} from './lifecycle';
export { approveClip, takeClipStep } from './reviewSteps';
export {
  approvalRefusal,
  checkApproval,
  frameRanges,
  framesWithoutVerdict,
  submitWarning,
  unansweredFrames,
  type ApprovalCheck,
  type ApprovalFacts,
} from './reviewGate';
export { loadApprovalFacts, loadUnansweredFrames } from './reviewGateLoader';
export {
  commitPrediction,
  frameMatchName,
  frameNameIndex,
  importPredictionCoco,
  importPredictionPngs,
  predictionSource,
  predictionTarget,
  readPredictionCoco,
  readPredictionPngs,
  type CocoPredictionOptions,
  type CommitPredictionOptions,
  type FrameMatch,
  type PngPredictionOptions,
  type PredictionDraft,
  type PredictionImportResult,
  type PredictionSource,
  type PredictionTarget,
} from './predictions';
export {
  DIFF_BITS,
  ERROR_CLASS,
  ERROR_COLOURS,
  diffMaps,
  errorMap,
  frameCountsOf,
  paintErrorMap,
  summarizeErrors,
  zeroErrorCounts,
  type ErrorClass,
  type ErrorClassName,
  type ErrorCounts,
  type ErrorMap,
  type ErrorSummary,
  type MapDiff,
  type Rgba,
  type StateDiff,
  type StateErrors,
} from './errorMap';
export { approvalBlocker, nextUnreviewed, rejectedFrames, rejectedFramesNote, verdictTally, type Verdicts } from './verdicts';
export { annotatorVersion, isReviewerRevision, reviewBaseline, type AnnotatorVersion, type ReviewBaseline } from './annotatorVersion';
export { loadFrameReviewDiff, type FrameReviewDiff } from './annotatorVersionLoader';
export { frameIouRows, nextInRanking, rankByWorstIou, type FrameIou, type IouKey } from './worstIou';
export { loadFrameIous } from './worstIouLoader';
