/**
 * Runs inside Chromium (served by Vite; started by bench/bundle-browser.bench.ts), on the real
 * IndexedDB:
 * - export to a Blob (BlobSink, the app's download path) and to a file on disk through a
 *   WritableStream (writableSink over the Origin Private File System, the same stream interface as
 *   the File System Access API's save picker);
 * - import that file (a disk-backed File, as one picked with <input type=file>) into a second,
 *   empty database.
 * Reports MB/s and the JS heap high-water mark during each (Chromium's performance.memory), which
 * shows neither direction holds the project in memory.
 */
import { openSpocDb } from '../src/store/db';
import { BlobSink, exportBundle, importBundle, readBundle, writableSink } from '../src/io/bundle';
import { seedBenchProject } from './bundleProject';

export interface BundleBenchRow {
  name: string;
  value: string;
  note?: string;
}

const mb = (b: number) => b / 2 ** 20;
const heapNow = () => (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory?.usedJSHeapSize ?? 0;

export async function runBundleBench(clips: number, frames: number, log: (s: string) => void): Promise<BundleBenchRow[]> {
  const rows: BundleBenchRow[] = [];
  const stamp = Date.now();
  const a = await openSpocDb(`bench-bundle-a-${stamp}`);
  const b = await openSpocDb(`bench-bundle-b-${stamp}`);
  const opfs = await navigator.storage.getDirectory();
  const fileName = `bench-${stamp}.spoc.zip`;
  let peak = 0;
  const sample = () => (peak = Math.max(peak, heapNow()));
  const row = (name: string, bytes: number, start: number, base: number) => {
    const s = (performance.now() - start) / 1000;
    rows.push({ name, value: `${(mb(bytes) / s).toFixed(1)} MB/s`, note: `${mb(bytes).toFixed(0)} MB in ${s.toFixed(1)} s; JS heap +${mb(peak - base).toFixed(0)} MB at most` });
    log(`  ${name}: ${rows.at(-1)!.value} (${rows.at(-1)!.note})`);
  };
  try {
    log(`seeding ${clips} clips x ${frames} frames 640x360 (not timed)…`);
    let t = performance.now();
    const canvas = new OffscreenCanvas(640, 360);
    const ctx = canvas.getContext('2d')!;
    const jpeg = async (data: Uint8ClampedArray | Uint8Array, w: number, h: number) => {
      ctx.putImageData(new ImageData(new Uint8ClampedArray(data), w, h), 0, 0);
      return new Uint8Array(await (await canvas.convertToBlob({ type: 'image/jpeg', quality: 0.9 })).arrayBuffer());
    };
    const project = await seedBenchProject(a, { clips, frames, width: 640, height: 360 }, jpeg, log);
    log(`  seeded in ${((performance.now() - t) / 1000).toFixed(1)} s`);

    let base = (peak = heapNow());
    const blobSink = new BlobSink();
    t = performance.now();
    const summary = await exportBundle(a, project.id, blobSink, { onProgress: sample });
    blobSink.blob();
    row(`export ${clips} clips x ${frames} frames to a Blob (download)`, summary.bytes, t, base);

    base = peak = heapNow();
    const handle = await opfs.getFileHandle(fileName, { create: true });
    t = performance.now();
    await exportBundle(a, project.id, writableSink(await handle.createWritable()), { onProgress: sample });
    row(`export to a file on disk (WritableStream)`, summary.bytes, t, base);

    const file = await handle.getFile();
    base = peak = heapNow();
    t = performance.now();
    await readBundle(file, { onProgress: sample });
    row(`check that file only (read, CRC-32, SHA-256, rows; no store)`, file.size, t, base);

    base = peak = heapNow();
    t = performance.now();
    let stage = '';
    try {
      await importBundle(b, file, {
        onProgress: (p) => {
          sample();
          if (p.stage !== stage) stage = p.stage;
        },
      });
    } catch (err) {
      log(`  import failed at "${stage}": ${err instanceof Error ? `${err.name}: ${err.message}` : String(err)}`);
      throw err;
    }
    row(`import that file into an empty store`, file.size, t, base);
  } finally {
    a.close();
    b.close();
    await Promise.all([a.delete(), b.delete(), opfs.removeEntry(fileName)]).catch(() => undefined);
  }
  return rows;
}
