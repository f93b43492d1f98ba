/**
 * The app's WhereToChange import: the format codec (io/formats/wtc.ts) reads the release layout and
 * our metadata JSON — OSC, frame order, names, phases, ignores, masks with the release palette — and
 * this module only adds what the app needs before committing: every frame image is size-checked and
 * decoded (checkFrames), must match the size the masks were read at, and becomes a ClipImportDraft.
 * One reading of the format, shared with `spoc-studio convert`, so the app and the CLI agree.
 */
import { importWtc } from './wtc';
import { storeRowsFromAnnotations } from './storeRows';
import type { VirtualFile } from '../files/virtualFile';
import { ImportError, throwIfAborted } from '../importError';
import { checkFrames, type SequenceOptions } from '../images/imageSequence';
import { clipDraft, namedFrames, type DraftContext } from '../clipDrafts';
import type { ClipImportDraft, DraftLayer } from '../../store/importCommit';

export interface WtcDrafts {
  drafts: ClipImportDraft[];
  /** What the user should know although the import succeeds (e.g. ambiguous pixels read as background). */
  remarks: string[];
}

export interface WtcDraftOptions extends SequenceOptions {
  /** Progress per video: "<osc>/<video>", frames checked, total. */
  onVideoProgress?: (video: string, done: number, total: number) => void;
}

export async function wtcDrafts(ctx: DraftContext, files: readonly VirtualFile[], sourceName: string, options: WtcDraftOptions = {}): Promise<WtcDrafts> {
  const { clips, warnings } = await importWtc(files, sourceName);
  const drafts: ClipImportDraft[] = [];
  const now = Date.now();
  for (const { annotations, frameFiles } of clips) {
    throwIfAborted(options.signal);
    const rows = storeRowsFromAnnotations(annotations, now);
    const osc = annotations.clip.osc;
    const label = osc ? `${osc.verb}_${osc.noun}/${annotations.clip.name}` : annotations.clip.name;
    // The codec pairs every WhereToChange frame with its image; a gap would be a codec bug, not bad input.
    const images = (frameFiles ?? []).filter((f): f is VirtualFile => f !== undefined);
    if (images.length !== rows.frames.length) throw new ImportError(label, `has ${rows.frames.length} frames but ${images.length} images`);
    const seq = await checkFrames(images, { ...options, onProgress: (done, total) => options.onVideoProgress?.(label, done, total) });
    if (seq.frames.length === 0) throw new ImportError(label, 'has no frame images');
    if (seq.width !== rows.clip.width || seq.height !== rows.clip.height) {
      throw new ImportError(
        seq.frames[0].path,
        `is ${seq.width}x${seq.height} but the clip's masks or metadata say ${rows.clip.width}x${rows.clip.height}`,
      );
    }
    // A prediction export alone makes no clip; one unpacked beside its gt export comes along with it.
    if (!annotations.sources.has('gt') && rows.layers.some((l) => l.source !== 'gt')) {
      throw new ImportError(label, "its metadata names a prediction source and there is no ground truth; import predictions from the project page or the clip's review panel instead");
    }
    const layers: DraftLayer[] = rows.layers.map((l) => ({
      ...l,
      provenance: { kind: 'imported', by: ctx.author, at: now, from: `${label} (${sourceName})` },
    }));
    const frames = rows.frames.map((f, k) => ({
      timestampSec: f.timestampSec,
      image: seq.frames[k].image,
      mime: seq.frames[k].mime,
      ...(f.phase ? { phase: f.phase } : {}),
      ...(f.ignored ? { ignored: f.ignored } : {}),
      ...(f.reviewed ? { reviewed: true } : {}),
    }));
    drafts.push(
      clipDraft(
        ctx,
        { verb: osc?.verb ?? '', noun: osc?.noun ?? '', actionable: osc?.actionable, transformed: osc?.transformed, subset: rows.clip.subset },
        {
          name: rows.clip.name,
          width: rows.clip.width,
          height: rows.clip.height,
          sampleFps: rows.clip.sampleFps,
          source: { kind: 'wtc', fileName: label },
          // Frames are named after their file stems (Frame.name): predictions are matched to frames by it.
          frames: namedFrames(frames, seq.frames),
          layers,
        },
      ),
    );
  }
  return { drafts, remarks: warnings };
}
