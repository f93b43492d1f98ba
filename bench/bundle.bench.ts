/**
 * Project bundle export and import in Node with fake-indexeddb (the store's test backend; a real
 * browser's IndexedDB is measured by bench/bundle-browser.bench.ts). Prints MB/s of bundle bytes.
 * Default 30 clips x 20 frames at 640x360; BUNDLE_BENCH_CLIPS=300 for the 300-clip project.
 * Run: npx tsx bench/bundle.bench.ts
 */
import { performance } from 'node:perf_hooks';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { openSpocDb } from '../src/store/db';
import { exportBundle, importBundle, readBundle, ChunkSink } from '../src/io/bundle';
import { encode } from 'jpeg-js';
import { seedBenchProject } from './bundleProject';

const clips = Number(process.env.BUNDLE_BENCH_CLIPS ?? 30);
const frames = Number(process.env.BUNDLE_BENCH_FRAMES ?? 20);
const [width, height] = [640, 360];
const mb = (b: number) => b / 2 ** 20;
const heap = () => `${mb(process.memoryUsage().heapUsed).toFixed(0)} MB heap, ${mb(process.memoryUsage().rss).toFixed(0)} MB rss`;

console.log(`bundle: ${clips} clips x ${frames} frames, ${width}x${height} JPEG (Node ${process.version}, fake-indexeddb)`);
const source = await openSpocDb('bench-a', { indexedDB: new IDBFactory(), IDBKeyRange });
let t = performance.now();
const project = await seedBenchProject(source, { clips, frames, width, height }, async (data, w, h) => encode({ data, width: w, height: h }, 90).data, console.log);
console.log(`  setup (not timed): ${((performance.now() - t) / 1000).toFixed(1)} s, ${heap()}`);

const sink = new ChunkSink();
t = performance.now();
const summary = await exportBundle(source, project.id, sink);
let s = (performance.now() - t) / 1000;
console.log(`export  ${mb(summary.bytes).toFixed(1).padStart(7)} MB in ${s.toFixed(2).padStart(6)} s = ${(mb(summary.bytes) / s).toFixed(1).padStart(6)} MB/s  (${summary.entries} entries, ${sink.chunks.length} chunks)`);
const blob = sink.toBlob();
sink.chunks.length = 0;

t = performance.now();
await readBundle(blob, { name: 'bench.spoc.zip' });
s = (performance.now() - t) / 1000;
console.log(`check   ${mb(blob.size).toFixed(1).padStart(7)} MB in ${s.toFixed(2).padStart(6)} s = ${(mb(blob.size) / s).toFixed(1).padStart(6)} MB/s  (read + CRC + SHA-256 + row checks, no store)`);

const target = await openSpocDb('bench-b', { indexedDB: new IDBFactory(), IDBKeyRange });
t = performance.now();
const result = await importBundle(target, blob, { name: 'bench.spoc.zip' });
s = (performance.now() - t) / 1000;
console.log(`import  ${mb(blob.size).toFixed(1).padStart(7)} MB in ${s.toFixed(2).padStart(6)} s = ${(mb(blob.size) / s).toFixed(1).padStart(6)} MB/s  (${result.clips.length} clips added in one transaction)`);
console.log(`  ${heap()} at the end (fake-indexeddb keeps both stores in this heap)`);
source.close();
target.close();
