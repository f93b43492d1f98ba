/**
 * Optional per-video metadata next to the GT masks: `<osc>/meta/<video>.json` (WhereToChange) or
 * `meta/<video>.json` (DAVIS). Only two fields are read for evaluation:
 *   phases   per-frame HowToChange phase ("initial" | "transitioning" | "end", or null): an array
 *            aligned with `frames` (or, without `frames`, with the video's GT masks in natural
 *            order), or an object keyed by frame name.
 *   ignored  frames left out of evaluation: frame names, or 0-based indices into the same list as
 *            `phases`; or an object { "<frame>": true }.
 * The app's own export schema (src/io/formats/wtcMeta.ts, version 1) is read too: there `frames` is
 * a list of objects { name, phase?, ignored? } that carry both per frame.
 * Every other field (verb, noun, prompts, fps, ...) is informational. A missing file means: no
 * phases, no ignored frames.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Phase } from '../src/metrics';
import { DataError, displayPath } from './io';
import type { MaskSet, MaskVideo } from './layout';

export interface VideoMeta {
  /** Display path of the metadata file, or null when there is none. */
  file: string | null;
  /** Frame keys (lower-case stems) marked ignored. */
  ignored: Set<string>;
  phases: Map<string, Phase>;
  warnings: string[];
}

const PHASE_NAMES: Record<string, Phase> = {
  initial: 'initial',
  init: 'initial',
  transitioning: 'transitioning',
  transition: 'transitioning',
  end: 'end',
  'end state': 'end',
  end_state: 'end',
  endstate: 'end',
};

export async function readVideoMeta(set: MaskSet, video: MaskVideo): Promise<VideoMeta> {
  const file = displayPath(set.dirArg, video.metaRel);
  let text: string;
  try {
    text = await readFile(path.join(set.abs, video.metaRel), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { file: null, ignored: new Set(), phases: new Map(), warnings: [] };
    throw new DataError(`${file}: cannot read (${(err as Error).message})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new DataError(`${file}: not valid JSON (${(err as Error).message})`);
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new DataError(`${file}: must hold a JSON object`);
  return parseVideoMeta(json as Record<string, unknown>, video, file);
}

export function parseVideoMeta(json: Record<string, unknown>, video: MaskVideo, file: string): VideoMeta {
  const fail = (problem: string): never => {
    throw new DataError(`${file}: ${problem}`);
  };
  const gtKeys = new Set(video.frames.map((f) => f.key));
  let order: string[] = video.frames.map((f) => f.key);
  let orderFrom = `the ${order.length} GT masks of ${video.key}`;
  // The app's schema: frames as objects carrying their phase and ignore.
  const frameObjects = Array.isArray(json.frames) && json.frames.length > 0 && json.frames.every((f) => typeof f === 'object' && f !== null);
  if (frameObjects) {
    const objects = json.frames as Record<string, unknown>[];
    objects.forEach((f, i) => {
      if (typeof f.name !== 'string') fail(`"frames"[${i}].name must be a frame name`);
    });
    order = objects.map((f) => frameKey(f.name as string));
    orderFrom = `"frames" (${order.length} names)`;
    if (json.phases === undefined) json = { ...json, phases: objects.map((f) => f.phase ?? null) };
    if (json.ignored === undefined) json = { ...json, ignored: objects.map((f, i) => (f.ignored ? i : -1)).filter((i) => i >= 0) };
  } else if (json.frames !== undefined) {
    if (!Array.isArray(json.frames) || !json.frames.every((f) => typeof f === 'string')) fail('"frames" must be an array of frame names');
    order = (json.frames as string[]).map(frameKey);
    orderFrom = `"frames" (${order.length} names)`;
  }
  const warnings: string[] = [];
  const unknown = new Set<string>();
  const known = (key: string): string => {
    if (!gtKeys.has(key)) unknown.add(key);
    return key;
  };

  const phases = new Map<string, Phase>();
  const toPhase = (v: unknown, where: string): Phase | null => {
    if (v === null) return null;
    const p = typeof v === 'string' ? PHASE_NAMES[v.trim().toLowerCase()] : undefined;
    if (!p) fail(`${where}: ${JSON.stringify(v)} is not a phase (initial, transitioning, end or null)`);
    return p!;
  };
  const ph = json.phases;
  if (Array.isArray(ph)) {
    if (ph.length !== order.length) {
      fail(`"phases" has ${ph.length} entries but ${orderFrom} has ${order.length}; list the frames in "frames" or key "phases" by frame name`);
    }
    ph.forEach((v, i) => {
      const p = toPhase(v, `"phases"[${i}]`);
      if (p) phases.set(known(order[i]), p);
    });
  } else if (typeof ph === 'object' && ph !== null) {
    for (const [name, v] of Object.entries(ph)) {
      const p = toPhase(v, `"phases"."${name}"`);
      if (p) phases.set(known(frameKey(name)), p);
    }
  } else if (ph !== undefined && ph !== null) fail('"phases" must be an array or an object keyed by frame name');

  const ignored = new Set<string>();
  const ig = json.ignored;
  if (Array.isArray(ig)) {
    ig.forEach((v, i) => {
      if (typeof v === 'string') ignored.add(known(frameKey(v)));
      else if (Number.isInteger(v) && (v as number) >= 0 && (v as number) < order.length) ignored.add(known(order[v as number]));
      else fail(`"ignored"[${i}]: ${JSON.stringify(v)} is neither a frame name nor an index below ${order.length} into ${orderFrom}`);
    });
  } else if (typeof ig === 'object' && ig !== null) {
    for (const [name, v] of Object.entries(ig)) {
      if (typeof v !== 'boolean') fail(`"ignored"."${name}" must be true or false`);
      if (v) ignored.add(known(frameKey(name)));
    }
  } else if (ig !== undefined && ig !== null) fail('"ignored" must be an array or an object keyed by frame name');

  if (unknown.size > 0) {
    const list = [...unknown].slice(0, 3).join(', ');
    warnings.push(`${file}: names ${unknown.size} frame(s) with no GT mask (${list}${unknown.size > 3 ? ', …' : ''}); ignored`);
  }
  return { file, ignored, phases, warnings };
}

/** "frame0003.png" / "Frame0003" -> "frame0003": metadata may name frames with or without extension. */
function frameKey(name: string): string {
  const base = name.slice(name.lastIndexOf('/') + 1);
  return base.replace(/\.(png|jpe?g)$/i, '').toLowerCase();
}
