/**
 * Builds the store's ClipImportDraft from what an importer read: clip fields with OSC metadata
 * pre-filled from the taxonomy, frames, and (for WhereToChange folders) ground-truth layers.
 * Nothing here writes; the caller commits the drafts in one transaction.
 */
import type { ClipImportDraft, DraftFrame, DraftLayer } from '../store/importCommit';
import type { ClipSource, SourceVideoRef } from '../store/types';
import { clipNameProblem, oscNameProblem, safeSegment, uniqueName } from '../store/clipNames';
import { describeOsc, subsetOf, type Subset } from '../taxonomy/osc';
import type { SampledVideo } from './video/sampleVideo';
import type { ImageSequence } from './images/imageSequence';
import { stem } from './files/virtualFile';

export interface DraftContext {
  projectId: string;
  /** The local user name, recorded as the author of imported layers. */
  author: string;
}

/** What the user typed in the import form; empty descriptions are filled from the taxonomy. */
export interface OscChoice {
  verb: string;
  noun: string;
  actionable?: string;
  transformed?: string;
  subset?: Subset;
}

export interface ClipShape {
  name: string;
  width: number;
  height: number;
  sampleFps: number;
  source: ClipSource;
  frames: DraftFrame[];
  layers?: DraftLayer[];
}

export function clipDraft(ctx: DraftContext, osc: OscChoice, shape: ClipShape): ClipImportDraft {
  const described = describeOsc(osc.verb, osc.noun);
  return {
    projectId: ctx.projectId,
    clip: {
      projectId: ctx.projectId,
      name: shape.name,
      width: shape.width,
      height: shape.height,
      frameCount: shape.frames.length,
      sampleFps: shape.sampleFps,
      source: shape.source,
      osc: {
        verb: described.verb,
        noun: described.noun,
        actionable: osc.actionable?.trim() || described.actionable,
        transformed: osc.transformed?.trim() || described.transformed,
      },
      subset: osc.subset ?? subsetOf(described.verb, described.noun),
      status: shape.layers && shape.layers.length > 0 ? 'in_progress' : 'todo',
    },
    frames: shape.frames,
    layers: shape.layers,
  };
}

export function withoutExtension(name: string): string {
  const base = name.slice(name.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(0, dot) : base;
}

/** `kept`: the reference to the source video kept in OPFS (store/videoFiles.ts), when it could be kept. */
export function videoDraft(ctx: DraftContext, osc: OscChoice, file: File, video: SampledVideo, sampleFps: number, kept?: SourceVideoRef): ClipImportDraft {
  return clipDraft(ctx, osc, {
    name: withoutExtension(file.name),
    width: video.meta.width,
    height: video.meta.height,
    sampleFps,
    source: { kind: 'video', fileName: file.name, durationSec: video.meta.durationSec, videoCodec: video.meta.codec, ...(kept ? { video: kept } : {}) },
    frames: video.frames.map((f) => ({ timestampSec: f.timestampSec, image: f.image, mime: f.mime })),
  });
}

export function imageSequenceDraft(
  ctx: DraftContext,
  osc: OscChoice,
  sourceName: string,
  kind: 'images' | 'zip',
  seq: ImageSequence,
  sampleFps: number,
): ClipImportDraft {
  return clipDraft(ctx, osc, {
    name: withoutExtension(sourceName),
    width: seq.width,
    height: seq.height,
    sampleFps,
    source: { kind, fileName: sourceName },
    frames: namedFrames(seq.frames.map((f, k) => ({ timestampSec: k / sampleFps, image: f.image, mime: f.mime })), seq.frames),
  });
}

/**
 * Names frames after their files' stems (Frame.name), which predictions and exports are matched by.
 * All or nothing: if any stem could not be stored as a name (empty, surrounding spaces, over 200
 * characters, or two equal ignoring case) no frame is named, and every frame falls back to its
 * positional name frame0000, frame0001, ... — a mix could give two frames the same name.
 */
export function namedFrames(frames: DraftFrame[], files: readonly { path: string }[]): DraftFrame[] {
  const names = files.map((f) => stem(f.path));
  const lower = new Set(names.map((n) => n.toLowerCase()));
  const usable = names.length === frames.length && lower.size === names.length && names.every((n) => n.length > 0 && n.length <= 200 && n === n.trim());
  return usable ? frames.map((f, k) => ({ ...f, name: names[k] })) : frames;
}

/**
 * Why the verb and object typed in the import form cannot be stored, as a sentence, or null. They
 * name the WhereToChange folder <verb>_<noun> of every export, so "other…" with an empty verb name,
 * a verb of two words or an object with "/" are refused before anything is read or written.
 */
export function oscChoiceProblem(osc: Pick<OscChoice, 'verb' | 'noun'>): string | null {
  return oscNameProblem(osc);
}

/**
 * Renames drafts, in order, so that each clip name is usable as a file name and differs (ignoring
 * case) from every name in `taken` — the project's clips, trash included — and from the drafts
 * before it: the same video imported twice becomes "demo" and "demo-2". Adds the names to `taken`
 * and returns one remark per rename, for the person importing.
 */
export function nameDraftsApart(drafts: readonly ClipImportDraft[], taken: Set<string>): string[] {
  const remarks: string[] = [];
  for (const d of drafts) {
    const file = d.clip.source.fileName;
    let name = d.clip.name.trim();
    const problem = clipNameProblem(name);
    if (problem) {
      name = safeSegment(name, 'clip');
      remarks.push(`${problem} The clip from "${file}" is named "${name}" instead.`);
    }
    const unique = uniqueName(name, taken);
    if (unique !== name) {
      remarks.push(
        `A clip named "${name}" is already in this project, so the clip from "${file}" is named "${unique}". ` +
          'If the same file was imported twice by mistake, move one to the trash from its card.',
      );
    }
    d.clip.name = unique;
    taken.add(unique.toLowerCase());
  }
  return remarks;
}
