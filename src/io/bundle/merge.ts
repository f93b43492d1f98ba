/**
 * Merging a bundle's clip into a clip the store already has (same clip id): recognising identical
 * work, describing differences for the person who decides, and building what "both" adds.
 *
 * Work is compared by content, never by timestamps or seq numbers (which differ between machines):
 * clip fields people edit, frame metadata, frame image sizes, every layer's RLE per source and
 * frame (with its objects' masks, presence, keyframe marks and provenance), the revision log (author,
 * time, action, box, patches and owners, in order), review flag dismissals, the lifecycle log (every
 * field but the store-local seq and the id, in order), comments (by id, every field), the frame
 * verdict log (every field but the store-local seq and the id, in order) and objects (by id, every
 * field). The project's label schema is compared by labelSchemaDifferences.
 */
import { schemaOf, type LabelClass } from '../../objects/labelSchema';
import type { Clip, ClipComment, ClipObject, FlagDismissal, Frame, Layer, LayerSource, Project, Revision } from '../../store/types';
import type { BundleClipEvent, BundleFrameVerdict } from './rows';

export type ConflictChoice = 'mine' | 'theirs' | 'both';

/** One side of a clip, as far as merging cares. */
export interface ClipSide {
  clip: Clip;
  frames: Frame[];
  /** Per frame: image type and size in bytes (compared instead of hashing local images). */
  images: { mime: string; bytes: number }[];
  layers: Layer[];
  /** Ascending seq. */
  revisions: Revision[];
  reviewFlags: FlagDismissal[];
  /** The lifecycle log, oldest first (local rows keep their seq; it is ignored when comparing). */
  clipEvents: BundleClipEvent[];
  comments: ClipComment[];
  /** The frame verdict log, oldest first (local rows keep their seq; it is ignored when comparing). */
  frameVerdicts: BundleFrameVerdict[];
  /** The clip's objects, removed ones included. */
  objects: ClipObject[];
}

export interface SideSummary {
  status: Clip['status'];
  /** Sources with layers or revisions, gt first. */
  sources: LayerSource[];
  /** gt frames with anything painted. */
  paintedFrames: number;
  revisions: number;
  lastEdit?: { at: number; author: string };
  phases: number;
  ignored: number;
  /** Lifecycle steps and comments (roots and replies). */
  reviewSteps: number;
  comments: number;
  /** Objects not removed. */
  objects: number;
}

export interface ClipConflict {
  clipId: string;
  name: string;
  /** Human-readable differences, most important first. */
  differences: string[];
  /**
   * How the histories relate: the bundle continues this clip's history (`theirs-newer`), this clip
   * continues the bundle's (`mine-newer`), both have the same history (other fields differ), or
   * they split (`diverged`).
   */
  relation: 'theirs-newer' | 'mine-newer' | 'same-history' | 'diverged';
  mine: SideSummary;
  theirs: SideSummary;
  /** What "both" does for this clip: add their differing sources under new names, or (sizes differ) add a copy. */
  both: { kind: 'sources'; sources: { from: LayerSource; to: LayerSource }[] } | { kind: 'copy'; name: string };
}

/** JSON with sorted keys and no undefined: equal content gives equal text whatever the key order. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) => {
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      const o = v as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(o).sort()) out[k] = o[k];
      return out;
    }
    return v;
  });
}

const CLIP_WORK_FIELDS = ['name', 'width', 'height', 'frameCount', 'sampleFps', 'source', 'osc', 'subset', 'status', 'assignee'] as const;

function clipWork(c: Clip): string {
  // A kept source video is not work: linking it (store/videoFiles.ts) must not make a clip differ.
  const { video: _video, ...source } = c.source;
  return canonical(Object.fromEntries(CLIP_WORK_FIELDS.map((k) => [k, k === 'source' ? source : c[k]])));
}

function layerWork(l: Layer): string {
  // `objects` absent (layers without objects) leaves the text as it was before objects existed.
  return canonical({ act: l.act, trf: l.trf, instances: l.instances, objects: l.objects });
}

/**
 * A revision's content without its seq (a store-local number), id or clip id (and, within one
 * source's work, its source). The id is left out because a bundle written before rows had ids gets
 * new ones on reading: the same work must still compare equal (docs/sync.md "Row identity").
 */
export function revisionWork(r: Revision, withSource = true): string {
  const { seq: _seq, id: _id, clipId: _clip, source, ...rest } = r;
  return canonical(withSource ? { ...rest, source } : rest);
}

/** A lifecycle step's content: everything but its seq (a store-local number), id (see revisionWork) and clip id. */
export function eventWork(e: BundleClipEvent): string {
  const { id: _id, clipId: _clip, ...rest } = e;
  delete (rest as { seq?: number }).seq;
  return canonical(rest);
}

/** The key "both" matches lifecycle steps by (docs/formats.md): when, who, which action. */
export function eventKey(e: BundleClipEvent): string {
  return canonical([e.at, e.by, e.action]);
}

/** A frame verdict's content: everything but its seq (a store-local number), id (see revisionWork) and clip id. */
export function verdictWork(v: BundleFrameVerdict): string {
  const { id: _id, clipId: _clip, ...rest } = v;
  delete (rest as { seq?: number }).seq;
  return canonical(rest);
}

function commentWork(c: ClipComment): string {
  return canonical({ ...c, clipId: undefined });
}

/** An object's content: every field but its clip id (number, name, class, attributes, times, removal). */
function objectWork(o: ClipObject): string {
  return canonical({ ...o, clipId: undefined });
}

function sourcesOf(side: ClipSide): LayerSource[] {
  const set = new Set<LayerSource>();
  for (const l of side.layers) set.add(l.source);
  for (const r of side.revisions) set.add(r.source);
  const order = (s: LayerSource) => (s === 'gt' ? 0 : s === 'proposal' ? 1 : 2);
  return [...set].sort((a, b) => order(a) - order(b) || a.localeCompare(b));
}

function summarise(side: ClipSide): SideSummary {
  const last = side.revisions.at(-1);
  const s: SideSummary = {
    status: side.clip.status,
    sources: sourcesOf(side),
    paintedFrames: side.layers.filter((l) => l.source === 'gt' && l.actArea + l.trfArea > 0).length,
    revisions: side.revisions.length,
    phases: side.frames.filter((f) => f.phase).length,
    ignored: side.frames.filter((f) => f.ignored).length,
    reviewSteps: side.clipEvents.length,
    comments: side.comments.length,
    objects: side.objects.filter((o) => o.deletedAt === undefined).length,
  };
  if (last) s.lastEdit = { at: last.at, author: last.author };
  return s;
}

/** Work of one source: its layers by frame and its revisions in order. */
function sourceWork(side: ClipSide, source: LayerSource): { layers: Map<number, string>; revisions: string[] } {
  const layers = new Map<number, string>();
  for (const l of side.layers) if (l.source === source) layers.set(l.frameIndex, layerWork(l));
  return { layers, revisions: side.revisions.filter((r) => r.source === source).map((r) => revisionWork(r, false)) };
}

function sameSourceWork(a: ReturnType<typeof sourceWork>, b: ReturnType<typeof sourceWork>): boolean {
  if (a.layers.size !== b.layers.size || a.revisions.length !== b.revisions.length) return false;
  for (const [k, v] of a.layers) if (b.layers.get(k) !== v) return false;
  return a.revisions.every((r, i) => r === b.revisions[i]);
}

function framesDiffering(a: Map<number, string>, b: Map<number, string>): number {
  let n = 0;
  for (const k of new Set([...a.keys(), ...b.keys()])) if (a.get(k) !== b.get(k)) n++;
  return n;
}

function isPrefix(a: readonly string[], b: readonly string[]): boolean {
  return a.length <= b.length && a.every((x, i) => x === b[i]);
}

/** True when both sides hold the same work (see the module comment); then nothing needs importing. */
export function sameWork(mine: ClipSide, theirs: ClipSide): boolean {
  return differences(mine, theirs).length === 0;
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** Differences between the two sides, for people; empty when the work is the same. */
export function differences(mine: ClipSide, theirs: ClipSide): string[] {
  const out: string[] = [];
  const m = mine.clip;
  const t = theirs.clip;
  if (m.width !== t.width || m.height !== t.height || m.frameCount !== t.frameCount) {
    out.push(`different frames: here ${m.width}x${m.height}, ${plural(m.frameCount, 'frame')}; bundle ${t.width}x${t.height}, ${plural(t.frameCount, 'frame')}`);
  }
  for (const s of new Set([...sourcesOf(mine), ...sourcesOf(theirs)])) {
    const a = sourceWork(mine, s);
    const b = sourceWork(theirs, s);
    if (sameSourceWork(a, b)) continue;
    const inMine = a.layers.size > 0 || a.revisions.length > 0;
    const inTheirs = b.layers.size > 0 || b.revisions.length > 0;
    if (!inMine) out.push(`${s}: only in the bundle (${plural(b.layers.size, 'frame')})`);
    else if (!inTheirs) out.push(`${s}: only here (${plural(a.layers.size, 'frame')})`);
    else {
      const n = framesDiffering(a.layers, b.layers);
      const parts = [];
      if (n > 0) parts.push(`masks differ on ${plural(n, 'frame')}`);
      if (!a.revisions.every((r, i) => r === b.revisions[i]) || a.revisions.length !== b.revisions.length) {
        parts.push(`history: ${plural(a.revisions.length, 'revision')} here, ${b.revisions.length} in the bundle`);
      }
      out.push(`${s}: ${parts.join('; ')}`);
    }
  }
  const frameDiff = (pick: (f: Frame) => unknown) => {
    let n = 0;
    const len = Math.max(mine.frames.length, theirs.frames.length);
    for (let i = 0; i < len; i++) if (canonical(pick(mine.frames[i] ?? ({} as Frame))) !== canonical(pick(theirs.frames[i] ?? ({} as Frame)))) n++;
    return n;
  };
  const phases = frameDiff((f) => f.phase);
  if (phases) out.push(`phases differ on ${plural(phases, 'frame')}`);
  const ignored = frameDiff((f) => f.ignored);
  if (ignored) out.push(`ignored frames differ on ${plural(ignored, 'frame')}`);
  const reviewed = frameDiff((f) => f.reviewed);
  if (reviewed) out.push(`"reviewed" marks differ on ${plural(reviewed, 'frame')}`);
  const times = frameDiff((f) => f.timestampSec);
  if (times) out.push(`frame times differ on ${plural(times, 'frame')}`);
  if (m.status !== t.status) out.push(`status: ${m.status} here, ${t.status} in the bundle`);
  for (const k of ['name', 'osc', 'subset', 'assignee', 'sampleFps', 'source'] as const) {
    if (canonical(m[k]) !== canonical(t[k])) out.push(`${k === 'osc' ? 'object state change' : k} differs`);
  }
  const flagKey = (f: FlagDismissal) => `${f.source}\u0000${f.flagId}`;
  const myFlags = new Map(mine.reviewFlags.map((f) => [flagKey(f), canonical({ ...f, clipId: undefined })]));
  const flagsDiffer =
    mine.reviewFlags.length !== theirs.reviewFlags.length || theirs.reviewFlags.some((f) => myFlags.get(flagKey(f)) !== canonical({ ...f, clipId: undefined }));
  if (flagsDiffer) out.push(`review flag dismissals differ (${mine.reviewFlags.length} here, ${theirs.reviewFlags.length} in the bundle)`);
  const myEvents = mine.clipEvents.map(eventWork);
  const eventsDiffer = myEvents.length !== theirs.clipEvents.length || theirs.clipEvents.some((e, i) => eventWork(e) !== myEvents[i]);
  if (eventsDiffer) out.push(`review history differs (${plural(mine.clipEvents.length, 'step')} here, ${theirs.clipEvents.length} in the bundle)`);
  const myComments = new Map(mine.comments.map((c) => [c.id, commentWork(c)]));
  const commentsDiffer = mine.comments.length !== theirs.comments.length || theirs.comments.some((c) => myComments.get(c.id) !== commentWork(c));
  if (commentsDiffer) out.push(`comments differ (${mine.comments.length} here, ${theirs.comments.length} in the bundle)`);
  const myVerdicts = mine.frameVerdicts.map(verdictWork);
  const verdictsDiffer = myVerdicts.length !== theirs.frameVerdicts.length || theirs.frameVerdicts.some((v, i) => verdictWork(v) !== myVerdicts[i]);
  if (verdictsDiffer) out.push(`frame verdicts differ (${mine.frameVerdicts.length} here, ${theirs.frameVerdicts.length} in the bundle)`);
  const objects = objectDifferences(mine.objects, theirs.objects);
  if (objects) out.push(objects);
  const images = mine.images.length !== theirs.images.length || mine.images.some((im, i) => im.bytes !== theirs.images[i].bytes || im.mime !== theirs.images[i].mime);
  if (images) out.push('frame images differ');
  // Anything the checks above miss still counts (a field added later): compare the whole clip work.
  if (out.length === 0 && clipWork(m) !== clipWork(t)) out.push('clip details differ');
  return out;
}

/** Objects compare by id, every field: "objects differ (…)", or null when both sides hold the same rows. */
function objectDifferences(mine: readonly ClipObject[], theirs: readonly ClipObject[]): string | null {
  const myObjects = new Map(mine.map((o) => [o.id, objectWork(o)]));
  const theirIds = new Set(theirs.map((o) => o.id));
  let onlyTheirs = 0;
  let changed = 0;
  for (const o of theirs) {
    const local = myObjects.get(o.id);
    if (local === undefined) onlyTheirs++;
    else if (local !== objectWork(o)) changed++;
  }
  const onlyMine = mine.filter((o) => !theirIds.has(o.id)).length;
  if (onlyTheirs + changed + onlyMine === 0) return null;
  const parts = [onlyTheirs > 0 ? `${onlyTheirs} only in the bundle` : '', onlyMine > 0 ? `${onlyMine} only here` : '', changed > 0 ? `${changed} with other name, class or attributes` : ''].filter(Boolean);
  return `objects differ (${mine.length} here, ${theirs.length} in the bundle: ${parts.join(', ')})`;
}

/**
 * How two projects' label schemas differ (kind; classes by id, every field; the order of the
 * classes does not count); empty when they are the same. A class id only means something within its
 * schema ("12" is a knife in one ontology, a spoon in another), so a bundle whose schema differs is
 * not merged into an existing project (importBundle refuses it).
 */
export function labelSchemaDifferences(mine: Pick<Project, 'labels'>, theirs: Pick<Project, 'labels'>): string[] {
  const a = schemaOf(mine);
  const b = schemaOf(theirs);
  if (a.kind !== b.kind) return [`this is ${article(a.kind)} ${a.kind} project, the bundle's is ${article(b.kind)} ${b.kind} project`];
  const myClasses = new Map(a.classes.map((c) => [c.id, c]));
  const theirClasses = new Map(b.classes.map((c) => [c.id, c]));
  const name = (c: LabelClass) => `"${c.name}" (${c.id})`;
  const list = (cs: LabelClass[]) => (cs.length > 3 ? `${cs.slice(0, 3).map(name).join(', ')} and ${cs.length - 3} more` : cs.map(name).join(', '));
  const onlyTheirs = b.classes.filter((c) => !myClasses.has(c.id));
  const onlyMine = a.classes.filter((c) => !theirClasses.has(c.id));
  const changed = b.classes.filter((c) => myClasses.has(c.id) && canonical(myClasses.get(c.id)) !== canonical(c));
  const out: string[] = [];
  if (onlyTheirs.length > 0) out.push(`classes only in the bundle: ${list(onlyTheirs)}`);
  if (onlyMine.length > 0) out.push(`classes only here: ${list(onlyMine)}`);
  if (changed.length > 0) out.push(`classes defined differently: ${list(changed)}`);
  return out;
}

function article(kind: string): string {
  return /^[aeiou]/i.test(kind) ? 'an' : 'a';
}

/** The label their work is filed under when both are kept: the exporter's user name, else the bundle's name. */
export function bundleLabel(exportedBy: string | undefined, bundleName: string): string {
  const raw = exportedBy?.trim() || bundleName.replace(/\.spoc\.zip$|\.zip$/i, '');
  return raw.replace(/\s+/g, ' ').trim().slice(0, 60) || 'bundle';
}

/** gt -> pred:<label>, proposal -> pred:<label>/proposal, pred:x -> pred:<label>/x, ann:x -> ann:<label>/x. */
export function theirSourceName(source: LayerSource, label: string): LayerSource {
  if (source === 'gt') return `pred:${label}`;
  if (source === 'proposal') return `pred:${label}/proposal`;
  if (source.startsWith('ann:')) return `ann:${label}/${source.slice('ann:'.length)}`;
  return `pred:${label}/${source.slice('pred:'.length)}`;
}

export interface BothPlan {
  /** Their layers and revisions, re-targeted to this clip and to the new source names. */
  layers: Layer[];
  revisions: Revision[];
  /** Their flag dismissals this clip lacks (on renamed sources, or on sources both have the same). */
  reviewFlags: FlagDismissal[];
  sources: { from: LayerSource; to: LayerSource }[];
  /** Their lifecycle steps this clip lacks, in their order (appended after mine). */
  clipEvents: BundleClipEvent[];
  /** Their comments this clip lacks (by id). */
  comments: ClipComment[];
  /** Their comments whose id this clip has with different content (mine kept; reported). */
  keptComments: number;
  /** Their frame verdicts this clip lacks, in their order (appended after mine). */
  frameVerdicts: BundleFrameVerdict[];
  /** Their objects this clip lacks (by id). */
  objects: ClipObject[];
  /** Their objects whose id this clip has with different content (mine kept; reported). */
  keptObjects: number;
}

/**
 * What "both" adds to my clip: each of their sources that differs from mine is added — under its own
 * name when I do not have it, else under theirSourceName (made unique; a source already holding
 * exactly that work is recognised and skipped). Sources identical to mine add nothing.
 */
export function planBoth(mine: ClipSide, theirs: ClipSide, label: string): BothPlan {
  const plan: BothPlan = { layers: [], revisions: [], reviewFlags: [], sources: [], clipEvents: [], comments: [], keptComments: 0, frameVerdicts: [], objects: [], keptObjects: 0 };
  const renamed = new Map<LayerSource, LayerSource>();
  const taken = new Set(sourcesOf(mine));
  for (const s of sourcesOf(theirs)) {
    const their = sourceWork(theirs, s);
    const my = sourceWork(mine, s);
    if (sameSourceWork(my, their)) continue;
    let to: LayerSource | null = s;
    if (taken.has(s)) {
      const base = theirSourceName(s, label);
      to = null;
      for (let k = 1; k < 1000; k++) {
        const name = (k === 1 ? base : `${base} (${k})`) as LayerSource;
        if (!taken.has(name)) {
          to = name;
          break;
        }
        if (sameSourceWork(sourceWork(mine, name), their)) break; // already imported before
      }
      if (to === null) continue;
    }
    taken.add(to);
    renamed.set(s, to);
    plan.sources.push({ from: s, to });
    for (const l of theirs.layers) if (l.source === s) plan.layers.push({ ...l, clipId: mine.clip.id, source: to });
    for (const r of theirs.revisions) if (r.source === s) plan.revisions.push({ ...r, clipId: mine.clip.id, source: to });
  }
  // Dismissals follow their source; on a source whose work is the same on both sides they are
  // decisions about the same flags, so the ones this clip lacks are added (same key: mine kept).
  const mineKeys = new Set(mine.reviewFlags.map((f) => `${f.source}\u0000${f.flagId}`));
  for (const f of theirs.reviewFlags) {
    const source = renamed.get(f.source) ?? f.source;
    if (!renamed.has(f.source) && !sameSourceWork(sourceWork(mine, f.source), sourceWork(theirs, f.source))) continue;
    if (mineKeys.has(`${source}\u0000${f.flagId}`)) continue;
    plan.reviewFlags.push({ ...f, clipId: mine.clip.id, source });
  }
  // Lifecycle steps match by (at, by, action), counted: a key I hold n times matches n of theirs, so
  // a repeated step of theirs is never absorbed by one of mine.
  const myEventKeys = new Map<string, number>();
  for (const e of mine.clipEvents) myEventKeys.set(eventKey(e), (myEventKeys.get(eventKey(e)) ?? 0) + 1);
  for (const e of theirs.clipEvents) {
    const k = eventKey(e);
    const left = myEventKeys.get(k) ?? 0;
    if (left > 0) myEventKeys.set(k, left - 1);
    else plan.clipEvents.push({ ...e, clipId: mine.clip.id });
  }
  // Comments match by id (UUIDs): theirs I lack are added; the same id with other content keeps mine.
  const myComments = new Map(mine.comments.map((c) => [c.id, commentWork(c)]));
  for (const c of theirs.comments) {
    const local = myComments.get(c.id);
    if (local === undefined) plan.comments.push({ ...c, clipId: mine.clip.id });
    else if (local !== commentWork(c)) plan.keptComments++;
  }
  // Frame verdicts match by content (frame, verdict, who, when, note), counted as lifecycle steps are;
  // the store picks the verdict in force by time, so appending theirs after mine is safe.
  const myVerdicts = new Map<string, number>();
  for (const v of mine.frameVerdicts) myVerdicts.set(verdictWork(v), (myVerdicts.get(verdictWork(v)) ?? 0) + 1);
  for (const v of theirs.frameVerdicts) {
    const k = verdictWork(v);
    const left = myVerdicts.get(k) ?? 0;
    if (left > 0) myVerdicts.set(k, left - 1);
    else plan.frameVerdicts.push({ ...v, clipId: mine.clip.id });
  }
  // Objects match by id (UUIDs), as comments do: theirs I lack are added (the layers and revisions
  // above may name them); the same id with other content keeps mine — it is the same object, so
  // their masks added under a renamed source still name it.
  const myObjects = new Map(mine.objects.map((o) => [o.id, objectWork(o)]));
  for (const o of theirs.objects) {
    const local = myObjects.get(o.id);
    if (local === undefined) plan.objects.push({ ...o, clipId: mine.clip.id });
    else if (local !== objectWork(o)) plan.keptObjects++;
  }
  return plan;
}

export function conflictSummary(mine: ClipSide, theirs: ClipSide, label: string): ClipConflict {
  const a = mine.revisions.map((r) => revisionWork(r));
  const b = theirs.revisions.map((r) => revisionWork(r));
  const relation: ClipConflict['relation'] =
    a.length === b.length && isPrefix(a, b) ? 'same-history' : isPrefix(a, b) ? 'theirs-newer' : isPrefix(b, a) ? 'mine-newer' : 'diverged';
  const sameFrames = mine.clip.width === theirs.clip.width && mine.clip.height === theirs.clip.height && mine.clip.frameCount === theirs.clip.frameCount;
  return {
    clipId: mine.clip.id,
    name: mine.clip.name,
    differences: differences(mine, theirs),
    relation,
    mine: summarise(mine),
    theirs: summarise(theirs),
    both: sameFrames ? { kind: 'sources', sources: planBoth(mine, theirs, label).sources } : { kind: 'copy', name: copyName(theirs.clip.name, label) },
  };
}

export function copyName(name: string, label: string): string {
  return `${name} (from ${label})`;
}

/**
 * Rows of my clip that "both" does not replace but that differ in the bundle (reported, never silent).
 * Sources, lifecycle steps, comments and objects are merged by "both" (comments and objects it kept
 * are counted in BothPlan).
 */
export function keptDifferences(mine: ClipSide, theirs: ClipSide): string[] {
  return differences(mine, theirs).filter((d) => !/^(gt|proposal|pred:|review history differs|comments differ|frame verdicts differ|objects differ)/.test(d));
}
