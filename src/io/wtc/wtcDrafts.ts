/**
 * Reads WhereToChange videos (see wtcLayout.ts) into clip drafts: frames at 1 fps, OSC metadata from
 * the "<verb>_<noun>" folder, and each indexed mask as a ground-truth layer. Masks must match their
 * frame's size and hold only the release palette (0..5). Release labels 3 (background) become 0;
 * 4 (ambiguous) and 5 (ignore) are not states, so they are not painted into the layer either, and
 * the count of such pixels is reported back so the importer can say so.
 */
import { LABEL } from '../../masks/labelMap';
import { encodeLayer } from '../../masks/layers';
import { decodeIndexedPng } from '../indexedPng';
import { ImportError, throwIfAborted } from '../importError';
import { checkFrames, type SequenceOptions } from '../images/imageSequence';
import { clipDraft, namedFrames, type DraftContext } from '../clipDrafts';
import { stem } from '../files/virtualFile';
import { parseOscName } from '../../taxonomy/osc';
import type { ClipImportDraft, DraftLayer } from '../../store/importCommit';
import { WTC_FRAMES_DIR, type WtcVideo } from './wtcLayout';

/** WhereToChange frames are sampled at 1 fps. */
export const WTC_FPS = 1;

const RELEASE_VALUES = new Set([0, 1, 2, 3, 4, 5]);

export interface WtcDraft {
  draft: ClipImportDraft;
  /** Pixels labelled ambiguous (4) or ignore (5) in the masks, which the layers do not carry. */
  excludedPixels: number;
}

export async function wtcDraft(ctx: DraftContext, video: WtcVideo, options: SequenceOptions = {}): Promise<WtcDraft> {
  const where = `${video.osc}/${WTC_FRAMES_DIR}/${video.video}`;
  const parsed = parseOscName(video.osc);
  if (!parsed) throw new ImportError(video.osc, 'is not a "<verb>_<noun>" folder name (e.g. chopping_avocado)');
  const seq = await checkFrames(video.frames, options);

  const layers: DraftLayer[] = [];
  let excludedPixels = 0;
  for (let k = 0; k < seq.frames.length; k++) {
    throwIfAborted(options.signal);
    const mask = video.masks.get(stem(seq.frames[k].path).toLowerCase());
    if (!mask) continue;
    const map = decodeIndexedPng(new Uint8Array(await mask.blob.arrayBuffer()), {
      fileName: mask.path,
      expectedWidth: seq.width,
      expectedHeight: seq.height,
      allowedValues: RELEASE_VALUES,
    });
    for (let i = 0; i < map.data.length; i++) {
      const v = map.data[i];
      if (v === LABEL.releaseBackground) map.data[i] = LABEL.background;
      else if (v === LABEL.ambiguous || v === LABEL.ignore) {
        map.data[i] = LABEL.background;
        excludedPixels++;
      }
    }
    const { act, trf } = encodeLayer(map);
    layers.push({ frameIndex: k, source: 'gt', act, trf, provenance: { kind: 'imported', by: ctx.author, at: Date.now(), from: mask.path } });
  }
  if (seq.frames.length === 0) throw new ImportError(where, 'has no frame images');

  const draft = clipDraft(ctx, { verb: parsed.verb, noun: parsed.noun }, {
    name: video.video,
    width: seq.width,
    height: seq.height,
    sampleFps: WTC_FPS,
    source: { kind: 'wtc', fileName: where },
    // Frames are named after their file stems (Frame.name): predictions are matched to frames by it.
    frames: namedFrames(seq.frames.map((f, k) => ({ timestampSec: k / WTC_FPS, image: f.image, mime: f.mime })), seq.frames),
    layers,
  });
  return { draft, excludedPixels };
}
