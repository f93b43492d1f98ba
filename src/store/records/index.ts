/**
 * One validator per row type (docs/architecture.md "Where rows are validated"). The repositories,
 * the import commit and the bundle reader all check rows with these; nothing else decides what a
 * stored row may hold.
 */
export { RecordCheck, describe, hasOwn, listKeys, unknownKeys, type JsonObject } from './check';
export { checkClip, checkSourceVideo, sourceVideoProblem, SOURCE_KINDS, SUBSETS } from './clip';
export { checkFrame, checkIgnored, FRAME_WORDS, PHASES } from './frame';
export { checkLayer, checkInstances, checkProvenance, PROVENANCE_KINDS } from './layer';
export { isLayerSource, layerSource, mask, maskArea, rle, type ClipShape, type RowMode } from './masks';
export { checkProject, checkSettings } from './project';
export { checkClipEvent, checkComment, checkFlagDismissal, checkFrameVerdict, MAX_COMMENT_TEXT, MAX_FLAG_REASON, MAX_VERDICT_NOTE } from './review';
export { checkRevision } from './revision';
export { checkClipObject, checkLayerObjects, checkRevisionObjects, MAX_OBJECTS } from './objects';
export { checkLayerRelations } from './relations';
