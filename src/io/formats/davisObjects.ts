/**
 * DAVIS multi-object masks for objects projects (docs/formats.md "DAVIS", objects): the PNG index
 * of a pixel is the number of the object that owns it (1..254), 0 background, 255 void — an
 * annotated pixel no object owns, or (all 255) an ignored frame. DAVIS carries no names, classes,
 * marks or relations: import names objects "object <n>" by their index.
 */
import { LABEL, type LabelMap } from '../../masks/labelMap';
import { encodeCountsWhere, onTableFor } from '../../masks/rleRuns';
import { decodeRle, rleFromCounts, type CocoRle } from '../../masks/rle';
import type { ClipAnnotations, FrameMask, FrameObjects, ObjectMeta, SourceObjects } from './model';
import { frameLayer } from './model';
import { unionOfObjects } from './objectModel';

/** The largest object number a DAVIS palette index can hold (255 is void). */
export const DAVIS_MAX_OBJECT = 254;

/** One frame's objects as a label map of object numbers; throws RangeError for numbers above 254. */
export function objectsLabelMap(a: ClipAnnotations, k: number, mask: FrameMask, frame: FrameObjects | undefined): LabelMap {
  const { width, height } = a.clip;
  const data = new Uint8Array(width * height);
  // Annotated pixels first as void; each object's pixels then take its number.
  const act = decodeRle(frameLayer(mask, a.clip).act as CocoRle);
  const trf = decodeRle(frameLayer(mask, a.clip).trf as CocoRle);
  for (let i = 0; i < data.length; i++) if (act[i] || trf[i]) data[i] = LABEL.void;
  const numberOf = new Map((a.objects ?? []).map((o) => [o.id, o.number]));
  for (const o of frame?.objects ?? []) {
    const pixels = decodeRle(o.rle as CocoRle);
    const number = numberOf.get(o.id)!;
    let any = false;
    for (let i = 0; i < pixels.length; i++) {
      if (pixels[i]) {
        data[i] = number;
        any = true;
      }
    }
    if (any && number > DAVIS_MAX_OBJECT) {
      throw new RangeError(`clip "${a.clip.name}", frame ${k}: object ${number} has pixels, but DAVIS palettes hold objects 1..${DAVIS_MAX_OBJECT}`);
    }
  }
  return { width, height, data };
}

/**
 * A DAVIS mask of object numbers as objects: one object per index seen (`objects`, shared by the
 * clip's frames, grows as new indices appear), void as nothing. Returns the frame's objects and
 * its layer masks (act = the objects' union).
 */
export function objectsFromLabelMap(map: LabelMap, objects: Map<number, ObjectMeta>, newId: () => string): { frame: FrameObjects; mask: FrameMask } {
  const { width: w, height: h, data } = map;
  const present = new Uint8Array(256);
  for (let i = 0; i < data.length; i++) present[data[i]] = 1;
  const frame: FrameObjects = { objects: [], relations: [] };
  for (let n = 1; n <= DAVIS_MAX_OBJECT; n++) {
    if (!present[n]) continue;
    let meta = objects.get(n);
    if (!meta) objects.set(n, (meta = { id: newId(), number: n, name: `object ${n}` }));
    frame.objects.push({ id: meta.id, rle: rleFromCounts(encodeCountsWhere(data, h, w, onTableFor(n)), h, w) });
  }
  const act = unionOfObjects(frame.objects, h, w);
  return { frame, mask: { act, trf: rleFromCounts([w * h], h, w) } };
}

export type { SourceObjects };
