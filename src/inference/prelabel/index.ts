export { prelabelClip, type PrelabelFrame, type PrelabelFrameResult, type PrelabelOptions, type PrelabelRecord, type PrelabelResult } from './prelabelClip';
export { DEFAULT_TRACK_IOU, linkTracks } from './tracker';
export { paintProposals, type PaintItem } from './paint';
