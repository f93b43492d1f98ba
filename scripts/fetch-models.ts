/**
 * `npm run models:fetch` — downloads public ONNX exports the app can run into public/models/ and
 * writes public/models/manifest.json (validated with the app's own parser before it is written).
 *
 *   npm run models:fetch                       all families
 *   npm run models:fetch -- --only clip        one family (repeat or comma-separate for more;
 *                                              a catalog id or a manifest family name)
 *   npm run models:fetch -- --dry-run          list URLs, sizes and targets; download nothing
 *   npm run models:fetch -- --out some/dir     another models folder
 *
 * Each file streams into `<name>.part` with progress, and is renamed into place only once its
 * size (and sha256, when the catalog knows it) checks out, so a file under its final name is
 * always complete. An interrupted download resumes from the .part with an HTTP Range request; a
 * file already present with the right size / hash is skipped. Existing manifest entries with other
 * ids (your own models) are kept.
 */
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseManifest, type ManifestEntry, type ModelFamily } from '../src/inference/models/manifest';

export interface CatalogFile {
  url: string;
  /** Path under the models folder (also the manifest path). */
  path: string;
  /** Exact size in bytes when known (checked), else null. */
  bytes: number | null;
  /** Rough size for --dry-run when the exact one is not known. */
  approxBytes?: number;
  /** Lowercase hex, checked after download when known. */
  sha256?: string;
}

export interface CatalogModel {
  id: string;
  family: ModelFamily;
  label: string;
  /** Where the export comes from, for the listing. */
  source: string;
  files: Record<string, CatalogFile>;
}

/** Decimal units, as Hugging Face and GitHub show sizes. */
const KB = 1000;
const MB = 1000 * KB;

/**
 * Known public exports in the layouts the adapters read (docs/inference.md, "Model families").
 * Hugging Face `resolve/main` URLs redirect to a CDN; fetch follows redirects.
 */
export const CATALOG: readonly CatalogModel[] = [
  {
    id: 'sam-vit-b-quant',
    family: 'sam-official',
    label: 'SAM ViT-B (int8, official decoder export)',
    source: 'segment-anything ViT-B exported to ONNX and quantised by the labelme project (release sam-20230416)',
    files: {
      encoder: {
        url: 'https://github.com/wkentaro/labelme/releases/download/sam-20230416/sam_vit_b_01ec64.quantized.encoder.onnx',
        path: 'sam-vit-b-quant/encoder.onnx',
        bytes: null,
        approxBytes: 104 * MB,
        sha256: '3346b9cc551c9902fbf3b203935e933592b22e042365f58321c17fc12641fd6a',
      },
      decoder: {
        url: 'https://github.com/wkentaro/labelme/releases/download/sam-20230416/sam_vit_b_01ec64.quantized.decoder.onnx',
        path: 'sam-vit-b-quant/decoder.onnx',
        bytes: null,
        approxBytes: 9 * MB,
        sha256: 'edbcf1a0afaa55621fb0abe6b3db1516818b609ea9368f309746a3afc68f7613',
      },
    },
  },
  {
    id: 'slimsam-77',
    family: 'sam-transformersjs',
    label: 'SlimSAM-77 (transformers.js layout)',
    source: 'huggingface.co/Xenova/slimsam-77-uniform (onnx/)',
    files: {
      encoder: {
        url: 'https://huggingface.co/Xenova/slimsam-77-uniform/resolve/main/onnx/vision_encoder.onnx',
        path: 'slimsam-77/vision_encoder.onnx',
        bytes: null,
        approxBytes: 23.3e6,
      },
      decoder: {
        url: 'https://huggingface.co/Xenova/slimsam-77-uniform/resolve/main/onnx/prompt_encoder_mask_decoder.onnx',
        path: 'slimsam-77/prompt_encoder_mask_decoder.onnx',
        bytes: null,
        approxBytes: 16.6e6,
      },
    },
  },
  {
    id: 'clip-vit-b32',
    family: 'clip',
    label: 'CLIP ViT-B/32 (transformers.js layout)',
    source: 'huggingface.co/Xenova/clip-vit-base-patch32 (onnx/ and tokenizer.json)',
    files: {
      vision: {
        url: 'https://huggingface.co/Xenova/clip-vit-base-patch32/resolve/main/onnx/vision_model.onnx',
        path: 'clip-vit-b32/vision_model.onnx',
        bytes: null,
        approxBytes: 352e6,
      },
      text: {
        url: 'https://huggingface.co/Xenova/clip-vit-base-patch32/resolve/main/onnx/text_model.onnx',
        path: 'clip-vit-b32/text_model.onnx',
        bytes: null,
        approxBytes: 254e6,
      },
      tokenizer: {
        url: 'https://huggingface.co/Xenova/clip-vit-base-patch32/resolve/main/tokenizer.json',
        path: 'clip-vit-b32/tokenizer.json',
        bytes: null,
        approxBytes: 2.2e6,
      },
    },
  },
];

export class FetchModelsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FetchModelsError';
  }
}

export interface ProgressEvent {
  model: string;
  role: string;
  loaded: number;
  total: number | null;
}

export interface FetchOptions {
  /** The models folder (default public/models). */
  outDir: string;
  /** Catalog ids or manifest families to fetch; default all. */
  only?: readonly string[];
  dryRun?: boolean;
  catalog?: readonly CatalogModel[];
  log?: (line: string) => void;
  onProgress?: (p: ProgressEvent) => void;
}

export type FileOutcome = 'downloaded' | 'resumed' | 'skipped' | 'listed';

export interface FetchReport {
  models: { id: string; files: Record<string, { path: string; outcome: FileOutcome; bytes: number | null }> }[];
  manifestPath: string | null;
}

/** Catalog entries selected by --only (ids or families); unknown names are an error that lists the known ones. */
export function selectModels(catalog: readonly CatalogModel[], only?: readonly string[]): CatalogModel[] {
  if (!only || only.length === 0) return [...catalog];
  const names = only.flatMap((o) => o.split(',')).map((s) => s.trim()).filter(Boolean);
  const known = new Set([...catalog.map((m) => m.id), ...catalog.map((m) => m.family)]);
  const unknown = names.filter((n) => !known.has(n));
  if (unknown.length > 0) {
    throw new FetchModelsError(`--only: unknown ${unknown.map((u) => `"${u}"`).join(', ')}; known ids: ${catalog.map((m) => m.id).join(', ')}; families: ${[...new Set(catalog.map((m) => m.family))].join(', ')}`);
  }
  return catalog.filter((m) => names.includes(m.id) || names.includes(m.family));
}

export function formatBytes(n: number | null | undefined): string {
  if (n === null || n === undefined) return 'size unknown';
  if (n < KB) return `${n} B`;
  if (n < MB) return `${(n / KB).toFixed(1)} KB`;
  return `${(n / MB).toFixed(1)} MB`;
}

async function sizeOf(path: string): Promise<number | null> {
  try {
    return (await stat(path)).size;
  } catch {
    return null;
  }
}

export async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Size the server announces, via HEAD; null when it does not say (or HEAD fails). */
async function remoteSize(url: string): Promise<number | null> {
  try {
    const res = await fetch(url, { method: 'HEAD', redirect: 'follow' });
    const len = res.ok ? Number(res.headers.get('content-length')) : NaN;
    return Number.isFinite(len) && len > 0 ? len : null;
  } catch {
    return null;
  }
}

/** Whether a complete file at `dest` is the one the catalog describes. */
async function isComplete(dest: string, file: CatalogFile): Promise<boolean> {
  const size = await sizeOf(dest);
  if (size === null) return false;
  if (file.bytes !== null && size !== file.bytes) return false;
  if (file.sha256) return (await sha256File(dest)) === file.sha256;
  if (file.bytes !== null) return true;
  const announced = await remoteSize(file.url);
  // Without a size or hash to check against, a file under its final name was renamed there only
  // after a complete download (see downloadFile), so it is trusted.
  return announced === null || announced === size;
}

/**
 * Streams `file.url` into `dest` through `dest.part`, resuming a previous .part with a Range
 * request, then checks size and hash and renames into place. Returns whether it resumed.
 */
export async function downloadFile(file: CatalogFile, dest: string, onProgress?: (loaded: number, total: number | null) => void): Promise<'downloaded' | 'resumed'> {
  await mkdir(dirname(dest), { recursive: true });
  const part = `${dest}.part`;
  let offset = (await sizeOf(part)) ?? 0;
  if (file.bytes !== null && offset > file.bytes) {
    await rm(part, { force: true });
    offset = 0;
  }
  let res: Response;
  try {
    res = await fetch(file.url, { redirect: 'follow', headers: offset > 0 ? { range: `bytes=${offset}-` } : {} });
  } catch (e) {
    throw new FetchModelsError(`${file.url}: cannot connect (${e instanceof Error ? (e.cause instanceof Error ? e.cause.message : e.message) : String(e)})`);
  }
  if (res.status === 416 && offset > 0) {
    // The .part already holds everything the server has: check it as it is.
    await res.body?.cancel();
  } else if (!res.ok) {
    await res.body?.cancel();
    throw new FetchModelsError(`${file.url}: HTTP ${res.status} ${res.statusText || ''}`.trim());
  }
  const resumed = res.status === 206;
  if (res.status === 200) offset = 0; // the server ignored the Range: start over
  const length = Number(res.headers.get('content-length'));
  const total = file.bytes ?? (res.status === 416 ? offset : Number.isFinite(length) && res.headers.has('content-length') ? offset + length : null);
  if (res.status !== 416 && res.body) {
    const out = createWriteStream(part, { flags: resumed ? 'a' : 'w' });
    let loaded = offset;
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        loaded += chunk.byteLength;
        if (!out.write(chunk)) await new Promise<void>((r) => out.once('drain', () => r()));
        onProgress?.(loaded, total);
      }
    } catch (e) {
      throw new FetchModelsError(`${file.url}: download interrupted after ${formatBytes(loaded)} (${e instanceof Error ? e.message : String(e)}); run again to resume`);
    } finally {
      await new Promise<void>((r, j) => out.end((err?: Error | null) => (err ? j(err) : r())));
    }
  }
  const got = (await sizeOf(part)) ?? 0;
  if (total !== null && got !== total) {
    throw new FetchModelsError(`${file.url}: truncated download, got ${got} of ${total} bytes (kept ${relative(process.cwd(), part) || part}; run again to resume)`);
  }
  if (file.sha256) {
    const digest = await sha256File(part);
    if (digest !== file.sha256) {
      await rm(part, { force: true });
      throw new FetchModelsError(`${file.url}: sha256 mismatch, got ${digest}, expected ${file.sha256} (partial file removed)`);
    }
  }
  await rename(part, dest);
  return resumed ? 'resumed' : 'downloaded';
}

/** The manifest after adding/replacing the fetched entries; entries with other ids are kept. */
export async function mergeManifest(manifestPath: string, entries: readonly ManifestEntry[]): Promise<unknown> {
  let models: unknown[] = [];
  const text = await readFile(manifestPath, 'utf8').catch(() => null);
  if (text !== null) {
    let existing;
    try {
      existing = parseManifest(JSON.parse(text));
    } catch (e) {
      throw new FetchModelsError(`${manifestPath}: the existing manifest is invalid (${e instanceof Error ? e.message : String(e)}); fix or remove it first — it was left as it is`);
    }
    const ours = new Set(entries.map((e) => e.id));
    models = existing.models.filter((m) => !ours.has(m.id)).map(entryJson);
  }
  const json = { version: 1, models: [...models, ...entries.map(entryJson)] };
  parseManifest(json); // never write what the app would refuse
  return json;
}

function entryJson(e: ManifestEntry): Record<string, unknown> {
  return { id: e.id, family: e.family, label: e.label, files: e.files, ...(Object.keys(e.selfTest).length > 0 ? { selfTest: e.selfTest } : {}) };
}

export async function fetchModels(options: FetchOptions): Promise<FetchReport> {
  const log = options.log ?? (() => undefined);
  const outDir = resolve(options.outDir);
  const selected = selectModels(options.catalog ?? CATALOG, options.only);
  const report: FetchReport = { models: [], manifestPath: null };
  for (const model of selected) {
    log(`${model.id} (${model.family}) — ${model.label}\n  from ${model.source}`);
    const files: FetchReport['models'][number]['files'] = {};
    for (const [role, file] of Object.entries(model.files)) {
      const dest = join(outDir, file.path);
      if (options.dryRun) {
        const size = file.bytes !== null ? formatBytes(file.bytes) : file.approxBytes ? `~${formatBytes(file.approxBytes)}` : 'size unknown';
        log(`  ${role.padEnd(9)} ${size.padStart(10)}  ${file.url}\n  ${''.padEnd(9)} ${''.padStart(10)}  -> ${dest}${file.sha256 ? `  sha256 ${file.sha256.slice(0, 12)}…` : ''}`);
        files[role] = { path: file.path, outcome: 'listed', bytes: file.bytes ?? null };
        continue;
      }
      if (await isComplete(dest, file)) {
        log(`  ${role.padEnd(9)} present, ${formatBytes(await sizeOf(dest))}${file.sha256 ? ', sha256 ok' : ''} — skipped`);
        files[role] = { path: file.path, outcome: 'skipped', bytes: await sizeOf(dest) };
        continue;
      }
      const outcome = await downloadFile(file, dest, (loaded, total) => options.onProgress?.({ model: model.id, role, loaded, total }));
      const bytes = await sizeOf(dest);
      log(`  ${role.padEnd(9)} ${outcome}, ${formatBytes(bytes)}${file.sha256 ? ', sha256 ok' : ''}`);
      files[role] = { path: file.path, outcome, bytes };
    }
    report.models.push({ id: model.id, files });
  }
  if (!options.dryRun && selected.length > 0) {
    const manifestPath = join(outDir, 'manifest.json');
    const entries: ManifestEntry[] = selected.map((m) => ({
      id: m.id,
      family: m.family,
      label: m.label,
      files: Object.fromEntries(Object.entries(m.files).map(([role, f]) => [role, f.path])),
      selfTest: {},
    }));
    const json = await mergeManifest(manifestPath, entries);
    const tmp = `${manifestPath}.tmp`;
    await writeFile(tmp, `${JSON.stringify(json, null, 2)}\n`);
    await rename(tmp, manifestPath);
    report.manifestPath = manifestPath;
    log(`wrote ${manifestPath} (${(json as { models: unknown[] }).models.length} models)`);
  }
  return report;
}

export function parseArgs(argv: readonly string[]): { only: string[]; dryRun: boolean; out: string | null; help: boolean } {
  const out = { only: [] as string[], dryRun: false, out: null as string | null, help: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--dry-run') out.dryRun = true;
    else if (a === '--help' || a === '-h') out.help = true;
    else if (a === '--only' || a === '--out') {
      const v = argv[i + 1];
      if (!v || v.startsWith('--')) throw new FetchModelsError(`${a} needs a value`);
      if (a === '--only') out.only.push(v);
      else out.out = v;
      i++;
    } else if (a.startsWith('--only=')) out.only.push(a.slice(7));
    else if (a.startsWith('--out=')) out.out = a.slice(6);
    else throw new FetchModelsError(`unknown argument "${a}" (try --help)`);
  }
  return out;
}

/** A progress line on a terminal (rewritten in place), at most ~10 times a second. */
function terminalProgress(): (p: ProgressEvent) => void {
  let last = 0;
  return (p) => {
    const now = Date.now();
    const done = p.total !== null && p.loaded >= p.total;
    if (!done && now - last < 100) return;
    last = now;
    const pct = p.total ? ` ${((100 * p.loaded) / p.total).toFixed(0).padStart(3)}%` : '';
    const line = `  ${p.role.padEnd(9)} ${formatBytes(p.loaded)}${p.total ? ` / ${formatBytes(p.total)}` : ''}${pct}`;
    if (process.stderr.isTTY) process.stderr.write(`\r${line.padEnd(60)}${done ? '\n' : ''}`);
    else if (done) process.stderr.write(`${line}\n`);
  };
}

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const isMain = process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  try {
    const args = parseArgs(process.argv.slice(2));
    if (args.help) {
      console.log('usage: npm run models:fetch -- [--only <id|family>[,...]] [--dry-run] [--out <dir>]');
      console.log(`models: ${CATALOG.map((m) => `${m.id} (${m.family})`).join(', ')}`);
    } else {
      await fetchModels({
        outDir: args.out ? resolve(args.out) : join(root, 'public', 'models'),
        only: args.only,
        dryRun: args.dryRun,
        log: (l) => console.log(l),
        onProgress: terminalProgress(),
      });
    }
  } catch (e) {
    console.error(`models:fetch: ${e instanceof Error ? e.message : String(e)}`);
    process.exitCode = 1;
  }
}
