/**
 * Test support for cli/hostile.test.ts: one small valid dataset made by the CLI itself (`demo`,
 * then `convert` to COCO and VISOR), copied fresh for every case, plus makers of broken files
 * (truncated, mislabelled or oversized PNGs, JPEGs that are text or lie about their size).
 */
import { execFile, spawnSync } from 'node:child_process';
import { cp, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { encode as encodePng } from 'fast-png';
import { encode as encodeJpeg } from 'jpeg-js';
import { encodeIndexedPng } from '../src/io/indexedPng';
import { FULL_PALETTE, runCli } from './testing';

export const W = 32;
export const H = 24;
export const VIDEO = 'demo-1';

/** Paths relative to a case folder (the CLI's cwd), as the CLI should print them. */
export interface Fixture {
  /** The case folder; the CLI runs with it as cwd. */
  root: string;
  osc: string;
  gtMask(i: number): string;
  predMask(i: number): string;
  frame(i: number): string;
  meta: string;
  coco: string;
  visor: string;
  abs(rel: string): string;
}

const frameName = (i: number): string => `frame${String(i).padStart(4, '0')}`;

function fixtureAt(root: string, osc: string): Fixture {
  return {
    root,
    osc,
    gtMask: (i) => `in/${osc}/gt/masks/${VIDEO}/${frameName(i)}.png`,
    predMask: (i) => `in/${osc}/pred/masks/${VIDEO}/${frameName(i)}.png`,
    frame: (i) => `in/${osc}/JPEGImages_1fps/${VIDEO}/${frameName(i)}.jpg`,
    meta: `in/${osc}/meta/${VIDEO}.json`,
    coco: 'json/ann.json',
    visor: `visor/${VIDEO}.json`,
    abs: (rel) => path.join(root, ...rel.split('/')),
  };
}

/**
 * The template: `in/` is a WhereToChange tree (3 frames of 32x24 with JPEGs, GT, exact predictions
 * and metadata), `json/ann.json` its COCO form, `visor/demo-1.json` its VISOR form.
 */
export async function makeTemplate(root: string): Promise<Fixture> {
  const demo = await runCli(['demo', '--out', 'in', '--kind', 'grating', '--frames', '3', '--size', `${W}x${H}`, '--pred-out', 'in', '--pred-noise', '0'], root);
  if (demo.code !== 0) throw new Error(`demo failed: ${demo.stderr}`);
  const osc = (await readdir(path.join(root, 'in')))[0];
  const coco = await runCli(['convert', '--from', 'wtc', '--to', 'coco', 'in', 'json/ann.json'], root);
  if (coco.code !== 0) throw new Error(`convert to COCO failed: ${coco.stderr}`);
  const visor = await runCli(['convert', '--from', 'wtc', '--to', 'visor', 'in', 'visor'], root);
  if (visor.code !== 0) throw new Error(`convert to VISOR failed: ${visor.stderr}`);
  return fixtureAt(root, osc);
}

/** A fresh copy of the template (symlinks copied as links, never followed). */
export async function copyFixture(template: Fixture, root: string): Promise<Fixture> {
  await rm(root, { recursive: true, force: true });
  await cp(template.root, root, { recursive: true, verbatimSymlinks: true });
  return fixtureAt(root, template.osc);
}

export async function put(fx: Fixture, rel: string, data: Uint8Array | string): Promise<void> {
  await mkdir(path.dirname(fx.abs(rel)), { recursive: true });
  await writeFile(fx.abs(rel), data);
}

export async function bytesOf(fx: Fixture, rel: string): Promise<Uint8Array> {
  return new Uint8Array(await readFile(fx.abs(rel)));
}

/** Reads a JSON file of the fixture, lets `edit` change it, writes it back. */
export async function editJson(fx: Fixture, rel: string, edit: (doc: Record<string, unknown>) => unknown): Promise<void> {
  const doc = JSON.parse(await readFile(fx.abs(rel), 'utf8')) as Record<string, unknown>;
  const out = edit(doc);
  await writeFile(fx.abs(rel), JSON.stringify(out === undefined ? doc : out));
}

/** An indexed 8-bit mask w x h filled with `label` (any 0..255, the palette has every value). */
export function labelPng(label: number, w = W, h = H): Uint8Array {
  return encodeIndexedPng({ width: w, height: h, data: new Uint8Array(w * h).fill(label) }, FULL_PALETTE);
}

export function gray16Png(): Uint8Array {
  return encodePng({ width: W, height: H, data: new Uint16Array(W * H), depth: 16, channels: 1 });
}

/** An RGB mask painted in a colour that is no label colour. */
export function oddColourPng(): Uint8Array {
  const data = new Uint8Array(W * H * 3);
  for (let i = 0; i < W * H; i++) data.set([12, 34, 56], i * 3);
  return encodePng({ width: W, height: H, data, depth: 8, channels: 3 });
}

/** A valid PNG whose IHDR declares another size (the checks refuse it before any CRC or pixel). */
export function pngDeclaring(valid: Uint8Array, w: number, h: number): Uint8Array {
  const out = valid.slice();
  const view = new DataView(out.buffer);
  view.setUint32(16, w);
  view.setUint32(20, h);
  return out;
}

/** A valid PNG with one byte of its image data flipped (the CRC no longer matches). */
export function corruptBody(valid: Uint8Array): Uint8Array {
  const out = valid.slice();
  out[41 + 8] ^= 0xff; // inside the first chunk after IHDR (IHDR ends at byte 33)
  return out;
}

export function jpeg(w: number, h: number): Uint8Array {
  return encodeJpeg({ data: new Uint8Array(w * h * 4).fill(128), width: w, height: h }, 80).data;
}

/** The first bytes of a baseline JPEG whose start-of-frame declares w x h (nothing after it). */
export function jpegDeclaring(w: number, h: number): Uint8Array {
  return Uint8Array.of(0xff, 0xd8, 0xff, 0xc0, 0x00, 0x11, 0x08, h >> 8, h & 255, w >> 8, w & 255, 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1);
}

/**
 * Whether "nobody" can run this checkout's CLI at all: a checkout inside a private folder (a
 * `mktemp -d` clone is mode 0700) cannot be entered by another user, and then the cases that
 * need "nobody" cannot run, whatever the CLI does.
 */
export function nobodyCanRunCli(): boolean {
  const shim = path.resolve(__dirname, 'spoc-studio.mjs');
  const r = spawnSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, shim, '--help'], { stdio: 'ignore', timeout: 60_000 });
  return r.status === 0;
}

/**
 * Runs the real binary (the cli/spoc-studio.mjs shim) as the user "nobody", for cases that root
 * cannot see: root reads a file whatever its mode, so "unreadable" needs another user.
 */
export function runCliAsNobody(argv: readonly string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const shim = path.resolve(__dirname, 'spoc-studio.mjs');
  return new Promise((resolve) => {
    execFile('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, shim, ...argv], { cwd }, (err, stdout, stderr) => {
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}
