/**
 * Automatic review flags: pure functions over a clip's frames (metadata, per-frame areas and,
 * where decoded, label maps) that send the reviewer to the frames and regions worth a look.
 * Definitions and defaults: docs/review.md; every threshold: FLAG_DEFAULTS.
 */
import { labelArea, labelBbox } from '../../masks/geometry';
import type { LabelMap } from '../../masks/labelMap';
import { MaskFormatError } from '../../masks/errors';
import { decodeLayer, parseLayer } from '../../masks/layers';
import type { Frame, Layer } from '../../store/types';
import { regionFlags } from './regionFlags';
import { areaJumpFlags, ReversalScanner, reversalFlags, unannotatedFlags, vanishedFlags } from './temporalFlags';
import { FLAG_KINDS, SEVERITY_ORDER, type Flag, type FlagFrame, type FlagKind, type FlagOptions } from './types';

export * from './types';
export { regionFlags, speckFlags, holeFlags, enclosedFlags } from './regionFlags';
export { areaJumpFlags, ReversalScanner, reversalFlags, unannotatedFlags, vanishedFlags } from './temporalFlags';
export { applyDismissals, dismissFlag, flagId, hash53, makeFlag, type DismissContext, type DismissedFlag, type FlagKey, type SplitFlags } from './flagId';
export { classMap, components, erode, selectClass, type Component, type Components, type PixelClass } from './components';

/**
 * Every flag of a clip, sorted by frame, then severity (errors first), then kind and position.
 * Region flags (speck, hole, enclosed) and reversals need decoded maps and skip ignored frames;
 * the others work from areas alone.
 */
export function computeFlags(frames: readonly FlagFrame[], options: FlagOptions = {}): Flag[] {
  const kinds = new Set<FlagKind>(options.kinds ?? FLAG_KINDS);
  const out: Flag[] = [];
  if (kinds.has('unannotated')) out.push(...unannotatedFlags(frames));
  if (kinds.has('reversal')) out.push(...reversalFlags(frames, options));
  if (kinds.has('area_jump')) out.push(...areaJumpFlags(frames, options));
  if (kinds.has('vanished')) out.push(...vanishedFlags(frames, options));
  if (kinds.has('speck') || kinds.has('hole') || kinds.has('enclosed')) {
    for (const f of frames) if (!f.ignored && f.map) out.push(...regionFlags(f.map, f.index, options));
  }
  return sortFlags(out);
}

/**
 * computeFlags over frames that arrive a few at a time, in frame order, each with its decoded map:
 * region flags and reversals are computed as frames arrive, then the map is dropped (its areas and
 * state boxes kept), so memory holds one slice of decoded frames plus `lookback` eroded masks — not
 * the whole clip (a 300-frame 4K clip would be 2.5 GB of label maps). finish() gives exactly what
 * computeFlags gives for the same frames.
 */
export class FlagAccumulator {
  private readonly kinds: Set<FlagKind>;
  private readonly reversal: ReversalScanner;
  private readonly light: FlagFrame[] = [];
  private readonly found: Flag[] = [];

  constructor(private readonly options: FlagOptions = {}) {
    this.kinds = new Set<FlagKind>(options.kinds ?? FLAG_KINDS);
    this.reversal = new ReversalScanner(options);
  }

  /** What is held between slices: frames without maps (areas and state boxes only). */
  get kept(): readonly FlagFrame[] {
    return this.light;
  }

  add(frames: readonly FlagFrame[]): void {
    for (const f of [...frames].sort((a, b) => a.index - b.index)) {
      if (this.kinds.has('reversal')) this.found.push(...this.reversal.push(f));
      if (f.map && !f.ignored && (this.kinds.has('speck') || this.kinds.has('hole') || this.kinds.has('enclosed'))) {
        this.found.push(...regionFlags(f.map, f.index, this.options));
      }
      const { map, ...rest } = f;
      this.light.push(map ? { ...rest, boxes: { act: labelBbox(map, 1), trf: labelBbox(map, 2) } } : rest);
    }
  }

  finish(): Flag[] {
    const temporal = computeFlags(this.light, { ...this.options, kinds: [...this.kinds].filter((k) => k !== 'reversal') });
    return sortFlags([...this.found, ...temporal]);
  }
}

const KIND_ORDER = new Map(FLAG_KINDS.map((k, i) => [k, i]));

export function sortFlags(flags: Flag[]): Flag[] {
  return flags.sort(
    (a, b) =>
      a.frameIndex - b.frameIndex ||
      SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] ||
      KIND_ORDER.get(a.kind)! - KIND_ORDER.get(b.kind)! ||
      (a.box?.y ?? -1) - (b.box?.y ?? -1) ||
      (a.box?.x ?? -1) - (b.box?.x ?? -1) ||
      (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
}

type FrameMeta = Pick<Frame, 'index' | 'ignored' | 'reviewed' | 'phase'>;

function metaOf(f: FrameMeta): Omit<FlagFrame, 'actArea' | 'trfArea' | 'map'> {
  const out: Omit<FlagFrame, 'actArea' | 'trfArea' | 'map'> = { index: f.index, ignored: !!f.ignored, reviewed: !!f.reviewed };
  if (f.phase) out.phase = f.phase;
  return out;
}

/** A frame with its decoded map (areas counted from it); `map` null = no layer. */
export function flagFrameFromMap(frame: FrameMeta, map: LabelMap | null): FlagFrame {
  return { ...metaOf(frame), actArea: map ? labelArea(map, 1) : 0, trfArea: map ? labelArea(map, 2) : 0, map };
}

/** Frames with areas only (from the store's area index, layerAreas): enough for unannotated, area_jump and vanished. */
export function flagFramesFromAreas(
  frames: readonly FrameMeta[],
  areas: readonly { frameIndex: number; actArea: number; trfArea: number }[],
): FlagFrame[] {
  const byFrame = new Map(areas.map((a) => [a.frameIndex, a]));
  return frames.map((f) => ({ ...metaOf(f), actArea: byFrame.get(f.index)?.actArea ?? 0, trfArea: byFrame.get(f.index)?.trfArea ?? 0, map: null }));
}

/**
 * Frames with their layers decoded (every flag kind). Throws MaskFormatError naming the frame when
 * a stored layer cannot be read or has the wrong size.
 */
export function flagFramesFromLayers(
  frames: readonly FrameMeta[],
  layers: readonly Pick<Layer, 'frameIndex' | 'act' | 'trf' | 'actArea' | 'trfArea'>[],
  size: { width: number; height: number },
): FlagFrame[] {
  const byFrame = new Map(layers.map((l) => [l.frameIndex, l]));
  return frames.map((f) => {
    const layer = byFrame.get(f.index);
    if (!layer) return { ...metaOf(f), actArea: 0, trfArea: 0, map: null };
    let map: LabelMap;
    try {
      map = decodeLayer(parseLayer({ act: layer.act, trf: layer.trf }), size);
    } catch (err) {
      const problem = err instanceof Error ? err.message : String(err);
      throw new MaskFormatError(`the layer of frame ${f.index + 1} cannot be read: ${problem}`);
    }
    return { ...metaOf(f), actArea: layer.actArea, trfArea: layer.trfArea, map };
  });
}
