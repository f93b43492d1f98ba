/**
 * Records kept in IndexedDB. Plain data only (no classes), so rows survive structured cloning,
 * bundles and a later sync server unchanged. Ids are UUIDs (store/ids.ts) for the same reason:
 * two machines can create rows independently and merge them without renumbering. The logs
 * (revisions, clip events, frame verdicts) also have a `seq`, a number local to this browser
 * (docs/sync.md "Row identity").
 */

import type { LabelSchema } from '../objects/labelSchema';

/**
 * COCO compressed RLE as the store sees it. Structurally the same as `CocoRle` in masks/rle.ts;
 * declared here so the store neither decodes masks nor waits on that module. Column-major,
 * `size` is [height, width] as in pycocotools.
 */
export interface Rle {
  size: [number, number];
  counts: string;
}

/** Verbs are free text from the project's taxonomy ("cut", "peel", ...). */
export type Verb = string;

export interface VerbThresholds {
  /** Score threshold for a pixel/region to count as the state. */
  tau: number;
  /** Margin between the two states' scores before a region is labelled. */
  delta: number;
}

export interface ProjectSettings {
  /** Frames sampled per second of video on import; the SPOC release uses 1 fps. */
  sampleFps: number;
  thresholds: Record<Verb, VerbThresholds>;
}

export interface Project {
  id: string;
  name: string;
  createdAt: number;
  updatedAt: number;
  settings: ProjectSettings;
  /**
   * When the project was moved to the trash (store/trash.ts): hidden from the project list with
   * everything under it, rows kept until the trash is emptied. Not indexed, so no schema change.
   */
  deletedAt?: number;
  /**
   * The label schema (objects/labelSchema.ts): SPOC or objects project, classes, attributes, hands.
   * Absent on projects made before schemas existed: those are SPOC projects with no classes
   * (`schemaOf`). Not indexed, so no schema change.
   */
  labels?: LabelSchema;
}

export type ClipSourceKind = 'video' | 'images' | 'zip' | 'wtc' | 'demo' | 'bundle';

export interface ClipSource {
  kind: ClipSourceKind;
  fileName: string;
  durationSec?: number;
  videoCodec?: string;
  /**
   * The source video kept in the Origin Private File System (store/videoFiles.ts), for watching at
   * the native rate and decoding the frames between the sampled ones. Absent for clips imported
   * before videos were kept and for clips not made from a video. Not indexed: no schema change.
   */
  video?: SourceVideoRef;
}

/** A kept source video: the file is `videos/<sha256>` in OPFS, shared by every clip made from it. */
export interface SourceVideoRef {
  sha256: string;
  size: number;
  /** MIME type as the browser gave it ("video/mp4"), possibly empty. */
  type: string;
  fileName: string;
  /** The video's own frame rate, or null when it could not be measured. */
  nativeFps: number | null;
  durationSec: number;
  /** The video's first presentation time: clip time t is video time startSec + t. */
  startSec: number;
}

/** Object state change: the verb, the object, and the text of both states. */
export interface Osc {
  verb: Verb;
  noun: string;
  actionable: string;
  transformed: string;
}

export type ClipSubset = 'seen' | 'novel';

export const CLIP_STATUSES = [
  'todo',
  'in_progress',
  'submitted',
  'in_review',
  'approved',
  'changes_requested',
] as const;
export type ClipStatus = (typeof CLIP_STATUSES)[number];

export interface Clip {
  id: string;
  projectId: string;
  name: string;
  createdAt: number;
  updatedAt: number;
  width: number;
  height: number;
  frameCount: number;
  sampleFps: number;
  source: ClipSource;
  osc: Osc;
  subset: ClipSubset;
  status: ClipStatus;
  assignee?: string;
  /**
   * Present only while a large import is being written in several bounded transactions
   * (store/importCommit.ts); cleared by the last one. A clip still carrying it after the import
   * ended (a crash, a closed tab) is incomplete: lists skip it, the editor refuses it and the
   * dashboard offers to remove it. Not indexed, so no schema version change.
   */
  importing?: ClipImportMarker;
  /**
   * When the clip was moved to the trash (store/trash.ts): its rows are kept, but lists, exports,
   * metrics and progress skip it until it is restored; emptying the trash deletes them. Not indexed.
   */
  deletedAt?: number;
}

export interface ClipImportMarker {
  startedAt: number;
  /** The frames the import meant to write; frame images actually stored tell how far it got. */
  framesExpected: number;
}

export type FramePhase = 'initial' | 'transitioning' | 'end';

/** The guideline reasons a frame may be ignored for (taxonomy/verbs.ts describes each). */
export const IGNORE_REASONS = ['not_visible', 'too_blurry', 'indistinguishable', 'mixed', 'other'] as const;
export type IgnoreReason = (typeof IGNORE_REASONS)[number];

export interface FrameIgnored {
  reason: IgnoreReason;
  note?: string;
  by?: string;
  at: number;
}

/** One sampled frame's metadata. Pixels live in FrameImage so listing frames never loads them. */
export interface Frame {
  clipId: string;
  index: number;
  timestampSec: number;
  /**
   * The frame's original file stem ("frame0007"), unique per clip ignoring case; v3, set by importers
   * that read files (folders, zips, WhereToChange). Absent for video imports and rows written before
   * v3: those frames are named frame0000, frame0001, ... by position (io/formats defaultFrameName).
   */
  name?: string;
  phase?: FramePhase;
  ignored?: FrameIgnored;
  /** Set when someone looked at the frame and found nothing to paint (an empty mask is an answer). */
  reviewed?: boolean;
}

export interface FrameImage {
  clipId: string;
  index: number;
  blob: Blob;
  mime: string;
  width: number;
  height: number;
}

export interface Thumbnail {
  clipId: string;
  blob: Blob;
}

/**
 * `gt` is the truth being annotated; `proposal` is what assists suggest; `pred:<name>` are imported model outputs;
 * `ann:<name>` is a second annotator's masks of the same clip, imported for agreement review (never written to gt).
 */
export type LayerSource = 'gt' | 'proposal' | `pred:${string}` | `ann:${string}`;

export type ProvenanceKind = 'manual' | 'imported' | 'proposal' | 'propagated' | 'interpolated' | 'demo';

/** Who or what produced a layer, from which inputs: filters and reviewers rely on it. */
export interface Provenance {
  kind: ProvenanceKind;
  /** User name, model name or importer id. */
  by: string;
  at: number;
  /** What it was derived from: a keyframe, a file, a model run id. */
  from?: string;
  /** 0..1 where the producer has one (propagation, interpolation, a model score). */
  confidence?: number;
}

/**
 * One frame's masks for one source: actionable and transformed as two binary COCO RLEs
 * (label 1 and label 2 of the label map).
 */
export interface Layer {
  clipId: string;
  frameIndex: number;
  source: LayerSource;
  act: Rle;
  trf: Rle;
  /** Instance tags of the frame (annotator/instances.ts), checked by store/records/layer.ts. */
  instances?: LayerInstances;
  /**
   * The objects on this frame (schema v9, docs/objects.md): each object's pixels, presence and
   * keyframe mark. Masks of different objects never overlap; in a SPOC project every owned pixel
   * is actionable or transformed in `act` / `trf` (pixels of neither object stay unassigned).
   */
  objects?: LayerObject[];
  /**
   * Typed relations between the frame's objects (docs/objects.md "Relations"): today VISOR's
   * hand–object contact, one answer per hand. Both ends are objects listed in `objects`.
   */
  relations?: LayerRelation[];
  provenance: Provenance;
  updatedAt: number;
  /** Pixel counts, denormalised so dashboards and sparklines never decode or even load the RLE. */
  actArea: number;
  trfArea: number;
}

/** Whether an object is seen on a frame (VISOR's and DAVIS' cases); an object with pixels is visible. */
export const PRESENCES = ['visible', 'occluded', 'out_of_view', 'absent'] as const;
export type Presence = (typeof PRESENCES)[number];

/** One object on one frame of a layer. */
export interface LayerObject {
  /** The object (table `objects`). */
  id: string;
  /** Its pixels on this frame, a COCO RLE of the frame's size; empty when it is not visible. */
  rle: Rle;
  /** Pixel count of `rle`, denormalised as the layer's areas are. */
  area: number;
  /** Absent means inferred: visible with pixels, absent without. */
  presence?: Presence;
  /** A keyframe someone drew (interpolation fills the frames between keyframes). */
  keyframe?: true;
  /** Every instance of the object's class on this frame is annotated (VISOR's flag). */
  exhaustive?: true;
  /** Where the pixels came from when not the layer's own provenance (propagated, interpolated, with confidence). */
  provenance?: Provenance;
}

/**
 * VISOR's hand–object contact answers: the hand touches an object (`objectId`), touches nothing,
 * touches something that is not annotated ("none of the above"), or nobody can tell.
 */
export const CONTACT_ANSWERS = ['contact', 'no_contact', 'none_of_the_above', 'inconclusive'] as const;
export type ContactAnswer = (typeof CONTACT_ANSWERS)[number];

/** The relation types a layer can carry; text and temporal relations add theirs here. */
export const RELATION_TYPES = ['contact'] as const;
export type RelationType = (typeof RELATION_TYPES)[number];

/**
 * One relation on one frame, from a subject object to another object. For `contact` the subject is
 * a hand (a class with a `hand` role; checked by the app, which knows the schema), at most one
 * contact relation per hand and frame, and `objectId` is present exactly when `answer` is `contact`.
 */
export interface LayerRelation {
  type: RelationType;
  /** The object the relation is about (for contact: the hand). */
  subjectId: string;
  answer: ContactAnswer;
  /** The other object (for contact: the one the hand touches), when the answer names one. */
  objectId?: string;
  /** Who answered when not the layer's own provenance (a model's guess, with confidence). */
  provenance?: Provenance;
}

/**
 * An object of a clip followed across its frames (schema v9, table `objects`, docs/objects.md): its
 * identity, class, name and attributes. Its pixels per frame live in the layers (`Layer.objects`)
 * and their history in the revisions. Mutable like a clip row; never deleted while the clip lives
 * (`deletedAt`), so its id keeps naming it in history, relations and text attached later.
 */
export interface ClipObject {
  /** Random UUID (v4), minted where the object was made: globally unique for sync and bundles. */
  id: string;
  clipId: string;
  /** Shown number, 1.. per clip ("carrot 2"); not an identity (two machines may pick the same). */
  number: number;
  name: string;
  /** A class of the project's schema; absent for SPOC objects without a class. */
  classId?: string;
  /** Values of the class's attributes, by attribute id. */
  attributes?: Record<string, boolean | string>;
  createdAt: number;
  createdBy: string;
  updatedAt: number;
  deletedAt?: number;
}

/** An instance tag: a seed pixel (integer image coordinates) and its instance number, 1.. */
export interface LayerInstanceTag {
  id: number;
  x: number;
  y: number;
}

/**
 * A layer's instances: `tags` as the editor writes them ({ tags: [{ id, x, y }] }). Other keys
 * (plain JSON another tool put there) are kept as they are.
 */
export interface LayerInstances {
  tags?: LayerInstanceTag[];
  [key: string]: unknown;
}

/** What callers hand in: the store computes the areas and the timestamp itself, so they cannot disagree with the RLE. */
export type LayerInput = Omit<Layer, 'actArea' | 'trfArea' | 'updatedAt'>;

export interface RevisionBox {
  x: number;
  y: number;
  w: number;
  h: number;
}

/**
 * Append-only history of one layer: the changed box before and after. Basis of undo across reloads,
 * reviewer diffs and crash recovery. `before`/`after` are RLEs of the box only (size [box.h, box.w]).
 */
export interface Revision {
  /** Local order of the log in this browser (auto-increment); never leaves it as an identity. */
  seq: number;
  /** The row's identity everywhere: a time-ordered UUID (v7), unique (schema v8). */
  id: string;
  clipId: string;
  frameIndex: number;
  source: LayerSource;
  author: string;
  at: number;
  /** Name of the action that made the change ("brush", "sam.click", "fill", ...). */
  action: string;
  box: RevisionBox;
  /** Nonzero (actionable or transformed) pixels of the box before the change. */
  before: Rle;
  /** Nonzero pixels of the box after the change. */
  after: Rle;
  /** Transformed (2) pixels of the box before the change; absent means none (older rows, or single-class edits). */
  beforeTrf?: Rle;
  /** Transformed (2) pixels of the box after the change. */
  afterTrf?: Rle;
  /**
   * Owners of the box's pixels before and after (schema v9, masks/ownerMap.ts): one RLE of the box's
   * size per object present. Absent on both sides means the change moved no pixel between objects.
   */
  objectsBefore?: RevisionObject[];
  objectsAfter?: RevisionObject[];
  /**
   * The frame's whole relation list before and after (docs/objects.md "Relations in the editor"),
   * when the step changed it: a contact answer (its box is one unchanged pixel), or a pixel edit that
   * dropped a relation whose end lost its place. Both or neither; undo after a reload reads them.
   */
  relationsBefore?: LayerRelation[];
  relationsAfter?: LayerRelation[];
  /**
   * The sync server's cursor for this row (docs/sync.md "The browser client"): set when a push was
   * accepted or the row was pulled; absent for rows that never reached a server. Not indexed, no
   * schema change; left out of bundles (store/clipRows.ts), being one server's number.
   */
  cursor?: string;
}

/** One object's pixels inside a revision's box. */
export interface RevisionObject {
  id: string;
  rle: Rle;
}

/** What writers hand in: the store numbers the row, and gives it an id unless it keeps one it already has. */
export type RevisionInput = Omit<Revision, 'seq' | 'id'> & { id?: string };

/** App-level key/values (user name, demo offered, ...): one row per key. */
export interface MetaEntry {
  key: string;
  value: unknown;
}

/**
 * v3: a reviewer dismissed an automatic review flag (src/review/flags). Keyed by the flag's stable id
 * (a hash of kind, frame, state and box), so the flag stays dismissed when the flags are recomputed;
 * an edit that changes the flagged region gives a new id, and the flag comes back for a fresh look.
 */
export interface FlagDismissal {
  clipId: string;
  /** The layer the flag was computed on (usually gt). */
  source: LayerSource;
  flagId: string;
  /** Flag kind, opaque to the store ("reversal", "speck", ...), kept for listings. */
  kind: string;
  frameIndex: number;
  box?: RevisionBox;
  reason: string;
  by: string;
  at: number;
}

/**
 * One step of a clip's review lifecycle (schema v4, table `clipEvents`): who moved the clip from
 * which status to which, when, and the note (a reviewer's change request). Append-only.
 * `action` is one of src/review/lifecycle.ts CLIP_ACTIONS, opaque to the store.
 */
export interface ClipEvent {
  /** Local order (auto-increment); see Revision. */
  seq: number;
  /** Time-ordered UUID (v7), unique (schema v8); see Revision. */
  id: string;
  clipId: string;
  action: string;
  from: ClipStatus;
  to: ClipStatus;
  by: string;
  at: number;
  note?: string;
  /** The sync server's cursor for this row, if it reached one; see Revision. */
  cursor?: string;
}
export type ClipEventInput = Omit<ClipEvent, 'seq' | 'id'> & { seq?: number; id?: string };

/**
 * A comment pinned to a point of a frame (schema v4, table `comments`), in frame pixels. A reply has
 * `parentId` (the thread's root; threads are one level deep) and the root's point; `resolved` is
 * kept on the root.
 */
export interface ClipComment {
  id: string;
  clipId: string;
  frameIndex: number;
  x: number;
  y: number;
  author: string;
  at: number;
  text: string;
  parentId?: string;
  resolved: boolean;
}

export const FRAME_VERDICTS = ['accept', 'reject', 'clear'] as const;
/** `clear` withdraws the frame's verdict (it is unreviewed again); the row stays in the history. */
export type FrameVerdictKind = (typeof FRAME_VERDICTS)[number];

/**
 * A reviewer's verdict on one frame (schema v5, table `frameVerdicts`): accept, reject (usually
 * with a note saying what is wrong) or clear. Append-only: a frame's latest row by time (then by
 * `seq`) is its verdict, the earlier ones its history.
 */
export interface FrameVerdict {
  /** Local order (auto-increment); see Revision. */
  seq: number;
  /** Time-ordered UUID (v7), unique (schema v8); see Revision. */
  id: string;
  clipId: string;
  frameIndex: number;
  verdict: FrameVerdictKind;
  note?: string;
  by: string;
  at: number;
  /** The sync server's cursor for this row, if it reached one; see Revision. */
  cursor?: string;
}
export type FrameVerdictInput = Omit<FrameVerdict, 'seq' | 'id'> & { seq?: number; id?: string };

// ---- strokes in progress (store/gestureDrafts.ts) ----

/** The pointer event as the tools receive it (annotator/tools/types.ts PointerInput). */
export interface DraftPointer {
  x: number;
  y: number;
  button: number;
  shift: boolean;
  alt: boolean;
  clickCount?: number;
}

/** Tools whose gesture runs from pointer-down to pointer-up (and a flood fill's single click). */
export type DraftTool = 'brush' | 'eraser' | 'lasso' | 'move' | 'fill';

/** What the tool read when the gesture started (annotator/tools/types.ts ToolContext). */
export interface DraftStart {
  tool: DraftTool;
  /** The value painted: 0 erases; 1 / 2 the states; in an objects project the session's object slot. */
  activeClass: number;
  /** Objects projects: the object painted (slots are local to a session; the id is what a replay needs). */
  object?: string;
  /** Objects projects: the objects locked or hidden at pointer-down, which the stroke must not change. */
  locked?: string[];
  protect: boolean;
  brushSize: number;
  hitRadius: number;
  /** Who painted: the name in force at pointer-down. */
  author: string;
}

export interface GestureDraftRow {
  clipId: string;
  /** Gesture number: increasing per clip (a millisecond clock, bumped past the last one). */
  gesture: number;
  /** 0 for the pointer-down row (the one carrying `start`), then one per event. */
  seq: number;
  frameIndex: number;
  kind: 'down' | 'move' | 'up';
  p: DraftPointer;
  at: number;
  start?: DraftStart;
}

export type GestureDraftKey = [string, number, number];
