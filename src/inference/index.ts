/**
 * What the rest of the app imports from inference/. Everything here is safe on the UI thread:
 * no onnxruntime, no tokenizer (those load only inside the worker).
 */
export { createWorkerClient } from './runtime/createWorkerClient';
export { InferenceClient, type CallOptions } from './runtime/inferenceClient';
export { loadParamsFromManifest } from './runtime/fromManifest';
export {
  ERRORS,
  InferenceError,
  type Api,
  type EmbedResult,
  type FileSource,
  type InitParams,
  type LoadedModel,
  type LoadParams,
  type Progress,
  type RuntimeInfo,
  type RuntimeStats,
  type SamEncodeResult,
} from './runtime/protocol';
export type { Backend, BackendPreference } from './runtime/backend';
export { FAMILY_FILES, MODEL_FAMILIES, ManifestError, parseManifest, parseManifestText, resolveModelUrl, type Manifest, type ManifestEntry, type ModelFamily } from './models/manifest';
export type { GoldenSpec, SelfTestResult } from './models/golden';
export type { SamBox, SamPoint, SamPrompt } from './models/samGeometry';
export type { BinaryMask } from './models/samPostprocess';
export type { SamCandidate, SamDecodeResult, SamTimings } from './models/samTypes';
export { labelProposal, SPOC_EQ1_DEFAULTS, type Eq1Params, type ProposalState } from './spoc/eq1';
export { cosine, l2Normalize, stateScores, type StateScores } from './spoc/similarity';
export { applyDynamics, causalOrdering, isCausallyOrdered, resolveAmbiguity, type ConstrainedFrame, type TrackFrame } from './spoc/dynamics';
export { nms, SPOC_NMS_DEFAULTS, type NmsOptions, type Proposal } from './spoc/nms';
export { boxIou, cropMask, maskIou, type CroppedMask } from './spoc/croppedMask';
export { pointGrid } from './spoc/pointGrid';
export { maskedCrop, CLIP_MEAN_RGB, type MaskedCropOptions } from './spoc/maskedCrop';
export {
  DEFAULT_TRACK_IOU,
  linkTracks,
  paintProposals,
  prelabelClip,
  type PaintItem,
  type PrelabelFrame,
  type PrelabelFrameResult,
  type PrelabelOptions,
  type PrelabelRecord,
  type PrelabelResult,
} from './prelabel';
