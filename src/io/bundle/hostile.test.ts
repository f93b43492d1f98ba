/**
 * The hostile-bundle corpus: every file here is refused with a message naming the bundle and the
 * problem, and the store it was imported into is left exactly as it was.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { zipSync } from 'fflate';
import type { SpocDb } from '../../store/db';
import { createProject } from '../../store/projects';
import { freshDb, snapshot } from '../../testing/storeFixtures';
import { ImportError } from '../importError';
import { MANIFEST_PATH } from './format';
import { importBundle } from './importBundle';
import { editJson, exportToBlob, pngHeader, rebuild, seedProject, tinyImage, type SeededProject } from '../../testing/bundleProject';
import { manyEntryBomb } from '../../testing/zips';

const NAME = 'hostile.spoc.zip';
let source: SpocDb;
let target: SpocDb;
let seeded: SeededProject;
let good: Blob;
let before: Record<string, unknown[]>;

beforeAll(async () => {
  source = await freshDb();
  seeded = await seedProject(source);
  good = (await exportToBlob(source, seeded.project.id)).blob;
  target = await freshDb();
  await createProject(target, { name: 'work that must survive' });
  before = await snapshot(target);
});
afterAll(() => {
  source.close();
  target.close();
});

const clipA = () => seeded.clips[0].id;
const bytesOf = async (b: Blob) => new Uint8Array(await b.arrayBuffer());

/** Offsets of each central-directory record by entry name (for patching raw archives). */
function centralRecords(zip: Uint8Array): Map<string, number> {
  const dv = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  let eocd = zip.length - 22;
  while (dv.getUint32(eocd, true) !== 0x06054b50) eocd--;
  let p = dv.getUint32(eocd + 16, true);
  const out = new Map<string, number>();
  while (dv.getUint32(p, true) === 0x02014b50) {
    const n = dv.getUint16(p + 28, true);
    out.set(new TextDecoder().decode(zip.subarray(p + 46, p + 46 + n)), p);
    p += 46 + n + dv.getUint16(p + 30, true) + dv.getUint16(p + 32, true);
  }
  return out;
}

async function expectRefused(bundle: Blob | Uint8Array, problem: string | RegExp): Promise<void> {
  const file = new File([bundle as BlobPart], NAME);
  const err = await importBundle(target, file, { onConflict: () => 'both' }).catch((e: unknown) => e);
  expect(err, 'the import should fail').toBeInstanceOf(ImportError);
  const message = (err as Error).message;
  expect(message.startsWith(`${NAME}: `), message).toBe(true);
  if (typeof problem === 'string') expect(message).toContain(problem);
  else expect(message).toMatch(problem);
  expect(await snapshot(target)).toEqual(before);
}

describe('hostile bundles are refused, naming the bundle and the problem, and write nothing', () => {
  it('accepts the untouched bundle, and one unpacked and zipped again with folder entries (controls)', async () => {
    const other = await freshDb();
    await expect(importBundle(other, new File([good], NAME))).resolves.toBeDefined();
    other.close();
    const again = await freshDb();
    const rezipped = await rebuild(good, (e) => ((e['clips/'] = new Uint8Array(0)), (e[`clips/${clipA()}/`] = new Uint8Array(0))), { keepManifest: true });
    expect((await importBundle(again, new File([rezipped], NAME))).clips).toHaveLength(2);
    again.close();
  });

  it('empty file, random bytes, a zip that is not a bundle', async () => {
    await expectRefused(new Uint8Array(0), 'is empty');
    await expectRefused(new TextEncoder().encode('this is not a zip file at all, just some text'), 'is not a readable zip archive: it has no end-of-archive record');
    await expectRefused(zipSync({ 'notes.txt': new TextEncoder().encode('hi') }), 'has no manifest.json; it is not a SPOC Studio project bundle');
  });

  it('truncated archives', async () => {
    const bytes = await bytesOf(good);
    await expectRefused(bytes.subarray(0, bytes.length >> 1), 'is not a readable zip archive: it has no end-of-archive record (it is not a zip, or it is truncated)');
    await expectRefused(bytes.subarray(0, bytes.length - 5), 'is not a readable zip archive: it has no end-of-archive record');
    const holed = new Uint8Array(bytes.length - 100);
    holed.set(bytes.subarray(0, 200));
    holed.set(bytes.subarray(300), 200);
    await expectRefused(holed, /the zip's central directory is damaged \(it should end at byte \d+ but runs from byte \d+/);
  });

  it('zip bombs: absurd ratios, entries inflating past their declared size, overlapping entries', async () => {
    const bomb = zipSync({ [MANIFEST_PATH]: new Uint8Array(20 * 2 ** 20) }, { level: 9 });
    await expectRefused(bomb, /entry "manifest.json" would expand \d+:1, which looks like a zip bomb/);

    // manifest.json declares fewer bytes than it inflates to.
    const lying = (await bytesOf(good)).slice();
    const rec = centralRecords(lying).get(MANIFEST_PATH)!;
    new DataView(lying.buffer).setUint32(rec + 24, 100, true);
    await expectRefused(lying, 'entry "manifest.json" inflates to more than the 100 bytes it declares');

    // Two central records pointing at the same data.
    const twice = (await bytesOf(good)).slice();
    const recs = centralRecords(twice);
    const dv = new DataView(twice.buffer);
    const jpg = [...recs.keys()].filter((k) => k.endsWith('.jpg'));
    dv.setUint32(recs.get(jpg[1])! + 42, dv.getUint32(recs.get(jpg[0])! + 42, true), true);
    await expectRefused(twice, /overlaps the next entry|runs into the next entry/);
  });

  it('huge or negative declared sizes', async () => {
    const huge = (await bytesOf(good)).slice();
    const rec = centralRecords(huge).get(`clips/${clipA()}/clip.json`)!;
    new DataView(huge.buffer).setUint32(rec + 24, 0xfffffff0, true);
    await expectRefused(huge, /declares 4294967280 bytes, over the \d+ byte limit per entry/);
    await expectRefused(
      await rebuild(good, () => {}, { editManifest: (m) => (m.entries[0].bytes = 1e15) }),
      /holds \d+ bytes but the manifest says 1000000000000000/,
    );
    await expectRefused(await rebuild(good, () => {}, { editManifest: (m) => (m.entries[0].bytes = -1) }), 'entries[0].bytes is -1; it must be between 0');
  });

  it('path traversal and unexpected entries', async () => {
    await expectRefused(await rebuild(good, (e) => (e['../../evil.sh'] = new Uint8Array([1]))), 'entry "../../evil.sh" has a path that climbs out of the archive ("..")');
    await expectRefused(await rebuild(good, (e) => (e['/etc/passwd'] = new Uint8Array([1]))), 'entry "/etc/passwd" has an absolute path');
    await expectRefused(await rebuild(good, (e) => (e['clips/x/../../y.json'] = new Uint8Array([1]))), 'climbs out of the archive');
    await expectRefused(await rebuild(good, (e) => (e['readme.txt'] = new Uint8Array([1]))), /entries\[\d+\]\.path "readme.txt" is not a path a bundle has/);
    await expectRefused(
      await rebuild(good, (e) => (e['readme.txt'] = new Uint8Array([1])), { keepManifest: true }),
      'entry "readme.txt" is not part of a bundle (unexpected file)',
    );
    const dup = (await bytesOf(good)).slice();
    const recs = centralRecords(dup);
    const names = [...recs.keys()].filter((k) => k.startsWith(`clips/${clipA()}/frames/`));
    const at = recs.get(names[1])! + 46;
    dup.set(new TextEncoder().encode(names[0]), at);
    await expectRefused(dup, `contains the entry "${names[0]}" twice`);
  });

  it('checksums: a changed entry with a valid zip CRC, and a corrupt byte', async () => {
    const image = `clips/${clipA()}/frames/000001.jpg`;
    await expectRefused(
      await rebuild(good, (e) => (e[image] = e[image].map((b) => b ^ 0xff)), { keepManifest: true }),
      `entry "${image}" does not match its SHA-256 checksum in the manifest; the bundle is damaged or was altered`,
    );
    const raw = (await bytesOf(good)).slice();
    const rec = centralRecords(raw).get(image)!;
    const dv = new DataView(raw.buffer);
    const local = dv.getUint32(rec + 42, true);
    const dataAt = local + 30 + dv.getUint16(local + 26, true) + dv.getUint16(local + 28, true);
    raw[dataAt + 3] ^= 0x55;
    await expectRefused(raw, `entry "${image}" fails its CRC-32 check (its content is not what the archive recorded); the archive is corrupt`);
  });

  it('the many-entry zip bomb, with a manifest whose checksums match, is refused from the directory', async () => {
    const bomb = manyEntryBomb({ name: (i) => `clips/${clipA()}/frames/${String(i).padStart(6, '0')}.jpg` });
    const t = performance.now();
    await expectRefused(bomb, /looks like a zip bomb: its first \d+ entries alone declare [\d.]+ MB of content in a [\d.]+ MB file \(over 100:1/);
    expect(performance.now() - t).toBeLessThan(1000);
  });

  it('frame images and thumbnails must be images a clip can show, whatever the checksums say', async () => {
    const clipJson = `clips/${clipA()}/clip.json`;
    /** Puts `bytes` in place of frame 1's image (or the thumbnail), with clip.json and the manifest agreeing. */
    const replaced = (bytes: Uint8Array, thumbnail = false) =>
      rebuild(good, (e) => {
        const path = thumbnail ? `clips/${clipA()}/thumbnail.png` : `clips/${clipA()}/frames/000001.jpg`;
        e[path] = bytes;
        editJson(e, clipJson, (d) => {
          if (thumbnail) (d.thumbnail as { bytes: number }).bytes = bytes.length;
          else (d.frameImages as { bytes: number }[])[1].bytes = bytes.length;
        });
      });
    const frame = `entry "clips/${clipA()}/frames/000001.jpg" (frame 1 of clip "clip 0")`;
    await expectRefused(await replaced(new TextEncoder().encode('plain text, not a picture at all')), `${frame} is not a readable image (unrecognised or truncated header)`);
    await expectRefused(await replaced(pngHeader(100_000, 100_000)), `${frame} declares a size of 100000x100000; the limit is 1..8192 px per side`);
    await expectRefused(await replaced(pngHeader(8192, 8192)), `${frame} is 8192x8192 but the clip is 8x6`);
    await expectRefused(await replaced(tinyImage('image/jpeg', 3, 16, 12)), `${frame} is 16x12 but the clip is 8x6`);
    await expectRefused(
      await replaced(new TextEncoder().encode('<script>alert(1)</script>'), true),
      `entry "clips/${clipA()}/thumbnail.png" (the thumbnail of clip "clip 0") is not a readable image`,
    );
    await expectRefused(await replaced(pngHeader(100_000, 100_000), true), '(the thumbnail of clip "clip 0") declares a size of 100000x100000');
    await expectRefused(
      await rebuild(good, (e) => editJson(e, clipJson, (d) => ((d.frameImages as { mime: string }[])[0].mime = 'text/html'))),
      `${clipJson}: frameImages[0].mime is "text/html", not an image type`,
    );
  });

  it('manifests from a newer version, or not a bundle manifest', async () => {
    await expectRefused(await rebuild(good, () => {}, { editManifest: (m) => (m.formatVersion = 6) }), 'was written by a newer version of SPOC Studio (bundle format v6; this version reads up to v5)');
    await expectRefused(await rebuild(good, () => {}, { editManifest: (m) => (m.schemaVersion = 99) }), 'holds data of a newer app version (store schema v99');
    await expectRefused(
      await rebuild(good, () => {}, { editManifest: (m) => ((m as { format: string }).format = 'something/else') }),
      'manifest.json: format must be "spoc-studio/bundle", got "something/else"',
    );
    await expectRefused(await rebuild(good, () => {}, { editManifest: (m) => ((m as unknown as Record<string, unknown>).extra = 1) }), 'manifest.json: has unknown field "extra"');
    await expectRefused(await rebuild(good, () => {}, { editManifest: (m) => (m.counts.layers = 3) }), 'manifest.json: counts.layers is 3 but the bundle holds 8');
    const bad = zipSync({ [MANIFEST_PATH]: new TextEncoder().encode('{"format": "spoc-studio/bundle", "formatVer') });
    await expectRefused(bad, 'manifest.json: is not valid JSON');
  });

  it('entries missing, or listed nowhere', async () => {
    const image = `clips/${clipA()}/frames/000000.jpg`;
    await expectRefused(await rebuild(good, (e) => delete e[image], { keepManifest: true }), `is missing "${image}", which its manifest lists; the bundle is incomplete`);
    await expectRefused(await rebuild(good, (e) => delete e[image]), `lists 3 frame images but the bundle holds 2`);
    await expectRefused(await rebuild(good, (e) => delete e[`clips/${clipA()}/clip.json`]), `clips/${clipA()}/ has entries but no clip.json (rows referencing a clip the bundle does not have)`);
    await expectRefused(
      await rebuild(good, (e) => (e['clips/ghost-clip/frames/000000.jpg'] = new Uint8Array([1, 2]))),
      'clips/ghost-clip/ has entries but no clip.json',
    );
  });

  it('a clip with a sound source video reference is imported with it (the video itself stays behind)', async () => {
    const video = { sha256: 'c'.repeat(64), size: 10, type: 'video/mp4', fileName: 'v.mp4', nativeFps: 10, durationSec: 3, startSec: 0 };
    const bundle = await rebuild(good, (e) => editJson(e, `clips/${clipA()}/clip.json`, (d) => (((d.clip as Record<string, unknown>).source as Record<string, unknown>).video = video)));
    const fresh = await freshDb();
    try {
      await importBundle(fresh, new File([bundle as BlobPart], NAME), { onConflict: () => 'both' });
      expect((await fresh.clips.get(clipA()))?.source.video).toEqual(video);
    } finally {
      fresh.close();
    }
  });

  it('rows referencing unknown clips or projects', async () => {
    const clipJson = `clips/${clipA()}/clip.json`;
    const other = seeded.clips[1].id;
    await expectRefused(
      await rebuild(good, (e) => editJson(e, clipJson, (d) => ((d.layers as { clipId: string }[])[0].clipId = other))),
      `${clipJson}: layers[0].clipId is "${other}", not this clip`,
    );
    await expectRefused(
      await rebuild(good, (e) => editJson(e, `clips/${clipA()}/revisions.json`, (d) => ((d.revisions as { clipId: string }[])[0].clipId = 'nope'))),
      'revisions[0].clipId is "nope", not this clip',
    );
    await expectRefused(
      await rebuild(good, (e) => editJson(e, clipJson, (d) => ((d.clip as { projectId: string }).projectId = 'elsewhere'))),
      'clip.projectId is "elsewhere", a project that is not in this bundle',
    );
    await expectRefused(
      await rebuild(good, (e) => editJson(e, clipJson, (d) => ((d.reviewFlags as { frameIndex: number }[])[0].frameIndex = 9))),
      "reviewFlags[0].frameIndex is 9, outside the clip's 3 frames",
    );
  });

  it('rows that are malformed or would make the store lie', async () => {
    const clipJson = `clips/${clipA()}/clip.json`;
    const edit = (change: (d: Record<string, unknown>) => void) => rebuild(good, (e) => editJson(e, clipJson, change));
    type Doc = { clip: Record<string, unknown>; frames: Record<string, unknown>[]; layers: Record<string, unknown>[] };
    await expectRefused(await edit((d) => ((d as Doc).clip.owner = 'me')), `${clipJson}: clip has unknown field "owner"`);
    await expectRefused(await edit((d) => delete (d as Doc).clip.width), 'clip.width is missing');
    await expectRefused(await edit((d) => ((d as Doc).clip.status = 'done')), 'clip.status must be one of');
    const video = { sha256: 'c'.repeat(64), size: 10, type: 'video/mp4', fileName: 'v.mp4', nativeFps: 10, durationSec: 3, startSec: 0 };
    await expectRefused(await edit((d) => (((d as Doc).clip.source as Record<string, unknown>).video = { ...video, sha256: 'C0FFEE' })), 'clip.source.video sha256 must be 64 lower-case hex digits');
    await expectRefused(await edit((d) => (((d as Doc).clip.source as Record<string, unknown>).video = { ...video, size: 0 })), 'clip.source.video size must be a positive');
    await expectRefused(await edit((d) => ((d as Doc).frames[1].phase = 'middle')), 'frames[1].phase must be one of');
    await expectRefused(await edit((d) => ((d as Doc).frames[1].name = (d as Doc).frames[0].name)), /frames\[1\]\.name "img_0_0" is also the name of frame 0/);
    await expectRefused(await edit((d) => ((d as Doc).layers[0].act = { size: [6, 8], counts: '01' })), /layers\[0\]\.act .*RLE runs cover 1 pixels but size \[6, 8\] has 48/);
    await expectRefused(await edit((d) => ((d as Doc).layers[0].act = { size: [7, 8], counts: '0' })), /layers\[0\]\.act .*is 8x7 but must be 8x6/);
    await expectRefused(await edit((d) => ((d as Doc).layers[0].actArea = 40)), /layers\[0\]\.actArea is 40 but the actionable RLE has \d+ pixels/);
    await expectRefused(await edit((d) => ((d as Doc).frames = (d as Doc).frames.slice(0, 2))), 'frames has 2 rows but the clip has 3 frames');
    await expectRefused(
      await rebuild(good, (e) => editJson(e, `clips/${clipA()}/revisions.json`, (d) => ((d.revisions as { box: { x: number } }[])[0].box.x = 7))),
      /revisions\[0\] Revision box 2x2 at \(7, 1\) is not inside the 8x6 frame/,
    );
    await expectRefused(
      await rebuild(good, (e) => editJson(e, `clips/${seeded.clips[1].id}/revisions.json`, (d) => ((d.revisions as { seq: number }[])[0].seq = 1))),
      /revision seq 1 also appears in another clip/,
    );
    await expectRefused(
      await rebuild(good, (e) => (e[clipJson] = new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]))),
      `${clipJson}: is not UTF-8 text`,
    );
  });
});
