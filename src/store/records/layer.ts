/**
 * A layer row (types.ts Layer): one frame's two state masks for one source. Areas are pixel counts
 * of the masks, so a stored row's areas must agree with its RLE: an input's are computed here.
 */
import type { Layer, LayerInstances, LayerInstanceTag, Provenance, ProvenanceKind } from '../types';
import type { RecordCheck } from './check';
import { checkLayerObjects } from './objects';
import { checkLayerRelations } from './relations';
import { frameIndexOf, layerSource, mask, optionalString, sameClip, type ClipShape, type RowMode } from './masks';

export const PROVENANCE_KINDS: readonly ProvenanceKind[] = ['manual', 'imported', 'proposal', 'propagated', 'interpolated', 'demo'];

const LAYER_FIELDS = new Set(['clipId', 'frameIndex', 'source', 'act', 'trf', 'instances', 'objects', 'relations', 'provenance', 'updatedAt', 'actArea', 'trfArea']);
const PROVENANCE_FIELDS = new Set(['kind', 'by', 'at', 'from', 'confidence']);
const NEEDS_PROVENANCE = 'a layer needs a provenance: kind, by (who or what made it) and at (time)';

/**
 * Checks a layer against its clip and returns the row to store. `input` rows get their areas
 * computed and `updatedAt` = `now`; `stored` rows must carry areas that match their masks.
 */
export function checkLayer(c: RecordCheck, v: unknown, path: string, clip: ClipShape, mode: RowMode, now = 0): Layer {
  const stored = mode === 'stored';
  const o = c.object(v, path);
  if (stored) c.strictFields(o, LAYER_FIELDS, path);
  const clipId = sameClip(c, o, path, clip);
  const source = layerSource(c, c.required(o, 'source', path), c.at(path, 'source'));
  const frameIndex = frameIndexOf(c, c.required(o, 'frameIndex', path), c.at(path, 'frameIndex'), clip);
  const provenance = checkProvenance(c, o.provenance, c.at(path, 'provenance'), stored);
  const act = mask(c, c.required(o, 'act', path), c.at(path, 'act'), clip.height, clip.width, stored);
  const trf = mask(c, c.required(o, 'trf', path), c.at(path, 'trf'), clip.height, clip.width, stored);
  const layer: Layer = { clipId, frameIndex, source, act: act.rle, trf: trf.rle, provenance, updatedAt: now, actArea: act.area, trfArea: trf.area };
  if (stored) {
    for (const [key, real, what] of [['actArea', act.area, 'actionable'], ['trfArea', trf.area, 'transformed']] as const) {
      const declared = c.integer(c.required(o, key, path), c.at(path, key), 0);
      if (declared !== real) c.fail(c.at(path, key), `is ${declared} but the ${what} RLE has ${real} pixels`);
    }
    layer.updatedAt = c.number(c.required(o, 'updatedAt', path), c.at(path, 'updatedAt'));
  }
  const instances = c.optional(o, 'instances');
  if (instances !== undefined) layer.instances = checkInstances(c, instances, c.at(path, 'instances'));
  const objects = c.optional(o, 'objects');
  if (objects !== undefined) layer.objects = checkLayerObjects(c, objects, c.at(path, 'objects'), clip, stored, [layer.act, layer.trf]);
  const relations = c.optional(o, 'relations');
  if (relations !== undefined) layer.relations = checkLayerRelations(c, relations, c.at(path, 'relations'), layer.objects ?? [], stored);
  return layer;
}

export function checkProvenance(c: RecordCheck, v: unknown, path: string, strict: boolean): Provenance {
  if (v === undefined || v === null) c.fail(path, `is missing; ${NEEDS_PROVENANCE}`);
  const o = c.object(v, path);
  if (strict) c.strictFields(o, PROVENANCE_FIELDS, path);
  const by = c.optional(o, 'by');
  if (typeof by !== 'string' || by.trim() === '') c.fail(c.at(path, 'by'), `must not be empty; ${NEEDS_PROVENANCE}`);
  const p: Provenance = {
    kind: c.oneOf(c.required(o, 'kind', path), c.at(path, 'kind'), PROVENANCE_KINDS),
    by: c.string(by, c.at(path, 'by'), 1000),
    at: c.number(c.required(o, 'at', path), c.at(path, 'at')),
  };
  const from = optionalString(c, o, 'from', path, 4096);
  if (from !== undefined) p.from = from;
  const confidence = c.optional(o, 'confidence');
  if (confidence !== undefined) p.confidence = c.number(confidence, c.at(path, 'confidence'), 0, 1);
  return p;
}

const TAG_FIELDS = new Set(['id', 'x', 'y']);

/**
 * A layer's `instances`: an object whose `tags` (annotator/instances.ts) are seed pixels with
 * instance numbers. Other keys are kept as they are (plain JSON by construction: rows are cloned).
 */
export function checkInstances(c: RecordCheck, v: unknown, path: string): LayerInstances {
  const o = c.object(v, path);
  const tags = c.optional(o, 'tags');
  if (tags === undefined) return { ...o };
  const tagsPath = c.at(path, 'tags');
  const checked = c.array(tags, tagsPath, 100_000).map((t, i): LayerInstanceTag => {
    const p = c.at(tagsPath, i);
    const to = c.object(t, p);
    c.strictFields(to, TAG_FIELDS, p);
    return { id: c.integer(c.required(to, 'id', p), c.at(p, 'id'), 1), x: c.integer(c.required(to, 'x', p), c.at(p, 'x'), 0), y: c.integer(c.required(to, 'y', p), c.at(p, 'y'), 0) };
  });
  return { ...o, tags: checked };
}
