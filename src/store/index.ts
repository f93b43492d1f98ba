/**
 * Public API of the project store. Everything else in src/store (key ranges, touch, row builders)
 * is internal and may change without notice.
 */
export type * from './types';
export { CLIP_STATUSES, FRAME_VERDICTS } from './types';

export { SpocDb, openSpocDb, installedSchemaVersion, DEFAULT_DB_NAME, type SpocDbOptions } from './db';
export { SCHEMA_VERSION, MIGRATION_ISSUES_KEY, type MigrationIssue } from './schema';
export { StoreError, isQuotaError, type StoreErrorCode } from './errors';
export { rleArea } from './rleArea';

export {
  listProjects,
  getProject,
  createProject,
  newProjectRow,
  updateProject,
  deleteProject,
  DEFAULT_PROJECT_SETTINGS,
  type NewProject,
  type ProjectPatch,
} from './projects';
export {
  listClips,
  listClipsByStatus,
  getClip,
  updateClip,
  setClipStatus,
  getThumbnail,
  putThumbnail,
  deleteClip,
  clipTables,
  type ClipPatch,
} from './clips';
export {
  listFrames,
  getFrame,
  getFrameImage,
  setFramePhase,
  setFrameIgnored,
  setFrameReviewed,
  type IgnoreInput,
} from './frames';
export {
  getLayer,
  listLayers,
  listFrameLayers,
  layerAreas,
  listLayerSources,
  putLayer,
  deleteLayers,
  saveLayerEdit,
  saveFrameEdits,
  type FrameEdits,
  type LayerAreas,
  type LayerEdit,
} from './layers';
export { writeSourceLayers, type SourceLayersOptions, type SourceLayersResult } from './sourceLayers';
export { putFlagDismissal, listFlagDismissals, deleteFlagDismissal } from './reviewFlags';
export { applyClipStep, listClipEvents, lastActors, type ClipStep } from './clipEvents';
export {
  addComment,
  replyToComment,
  setCommentResolved,
  listComments,
  commentThreads,
  type NewComment,
  type CommentThread,
} from './comments';
export { putFrameVerdict, listFrameVerdicts, listFrameVerdictHistory, latestVerdicts, type NewFrameVerdict } from './frameVerdicts';
export { isLayerSource } from './validate';
export { appendRevision, listRevisions, listClipRevisions } from './revisions';
export { clipProgress, projectStats, countProgress, type ClipProgress, type ProjectStats } from './progress';
export {
  commitClipImport,
  commitClipImports,
  type CommitOptions,
  draftBytes,
  type ClipImportDraft,
  type DraftFrame,
  type DraftLayer,
} from './importCommit';
export {
  requestPersistence,
  readQuota,
  quotaWarning,
  formatBytes,
  QUOTA_WARN_RATIO,
  QUOTA_CRITICAL_RATIO,
  type QuotaInfo,
  type QuotaWarning,
  type StorageLike,
} from './quota';
export {
  META_KEYS,
  getMeta,
  setMeta,
  deleteMeta,
  getUserName,
  setUserName,
  shouldOfferDemo,
  markDemoOffered,
} from './meta';
