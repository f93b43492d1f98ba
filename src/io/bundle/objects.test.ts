/**
 * Bundles and the objects model (format v5, docs/formats.md "Project bundle"): the label schema,
 * every clip's objects (removed ones too), the objects on each layer and the owners each revision
 * records travel without loss; object ids are kept where free and followed by the masks and the
 * history where they must change; bundles that break the rules are refused, naming the entry.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SpocDb } from '../../store/db';
import { createClipObject, updateClipObject } from '../../store/objects';
import { createProject, updateProject } from '../../store/projects';
import { putLayer } from '../../store/layers';
import type { ClipObject, Layer, Revision } from '../../store/types';
import { importDraft, rleFromPicture, snapshot, storePool } from '../../testing/storeFixtures';
import { commitClipImports } from '../../store/importCommit';
import { asFormat, blobEntries, editJson, exportToBlob, rebuild, seedObjectsProject, seedProject, withoutObjects, type SeededObjects } from '../../testing/bundleProject';
import { ImportError } from '../importError';
import { MANIFEST_PATH, PROJECT_PATH, type BundleManifest } from './format';
import { importBundle } from './importBundle';
import type { ClipConflict } from './merge';

const NAME = 'objects.spoc.zip';
const file = (b: Blob) => new File([b], NAME);
const stores = storePool();
const db = stores.open;
let a: SpocDb;
let seeded: SeededObjects;
let bundle: Blob;

beforeEach(async () => {
  a = await db();
  seeded = await seedObjectsProject(a);
  bundle = (await exportToBlob(a, seeded.project.id)).blob;
});
afterEach(stores.closeAll);

const clipA = () => seeded.clips[0].id;
const clipJsonOf = (clipId: string) => `clips/${clipId}/clip.json`;
const revisionsJsonOf = (clipId: string) => `clips/${clipId}/revisions.json`;
const json = (b: Uint8Array) => JSON.parse(new TextDecoder().decode(b)) as Record<string, unknown>;

/** Every row of every table, blobs as bytes; the app-level meta rows (user name) stay per browser. */
async function projectSnapshot(d: SpocDb) {
  const s = await snapshot(d);
  s.meta = (s.meta as { key: string }[]).filter((m) => m.key.startsWith('project.'));
  return s;
}

/** The object ids a clip's layers and revisions name. */
async function namedObjects(d: SpocDb, clipId: string): Promise<Set<string>> {
  const ids = new Set<string>();
  for (const l of await d.layers.where('clipId').equals(clipId).toArray()) for (const o of l.objects ?? []) ids.add(o.id);
  for (const r of await d.revisions.where('clipId').equals(clipId).toArray()) for (const o of [...(r.objectsBefore ?? []), ...(r.objectsAfter ?? [])]) ids.add(o.id);
  return ids;
}

describe('objects in project bundles', () => {
  it('writes format v5: the schema in project.json, every object (removed ones too) by number, counted', async () => {
    const entries = await blobEntries(bundle);
    const manifest = json(entries[MANIFEST_PATH]) as unknown as BundleManifest;
    expect(manifest.formatVersion).toBe(5);
    expect(manifest.counts).toMatchObject({ clips: 2, objects: 4, layers: 4, revisions: 2 });
    expect((json(entries[PROJECT_PATH]).project as { labels: unknown }).labels).toEqual(seeded.project.labels);
    const objects = json(entries[clipJsonOf(clipA())]).objects as ClipObject[];
    expect(objects.map((o) => [o.name, o.number, o.deletedAt])).toEqual([
      ['knife 1', 1, undefined],
      ['left hand 2', 2, undefined],
      ['spoon', 3, 13],
    ]);
  });

  it('round trip: a fresh store gets every row bit for bit (schema, objects, layer objects, owners), and again is identical', async () => {
    const b = await db();
    const result = await importBundle(b, file(bundle));
    expect(result.clips.map((c) => c.outcome)).toEqual(['added', 'added']);
    expect(result.warnings).toEqual([]);
    const before = await projectSnapshot(a);
    const after = await projectSnapshot(b);
    // toStrictEqual: no field lost, none added (not even one holding undefined).
    expect(after).toStrictEqual(before);
    expect(after.objects).toHaveLength(4);
    expect((await b.projects.get(seeded.project.id))!.labels).toStrictEqual(seeded.project.labels);
    expect(await b.objects.get(seeded.spoon.id)).toStrictEqual(seeded.spoon);
    const frame1 = (await b.layers.get([clipA(), 'gt', 1]))!;
    expect(frame1.objects).toStrictEqual([
      { id: seeded.knife.id, rle: frame1.objects![0].rle, area: 4, provenance: { kind: 'interpolated', by: 'interpolator', at: 23, from: 'keyframes 0-2', confidence: 0.8125 } },
      { id: seeded.hand.id, rle: frame1.objects![1].rle, area: 4, presence: 'occluded', provenance: { kind: 'propagated', by: 'tracker', at: 24, confidence: 0.5 } },
    ]);
    expect((await b.layers.get([clipA(), 'gt', 0]))!.objects!.map((o) => [o.keyframe, o.exhaustive, o.presence])).toEqual([
      [true, true, undefined],
      [undefined, undefined, 'visible'],
      [undefined, undefined, 'out_of_view'],
    ]);
    const give = (await b.revisions.where('clipId').equals(clipA()).toArray()).find((r) => r.action === 'give')!;
    expect([give.objectsBefore!.map((o) => o.id), give.objectsAfter!.map((o) => o.id)]).toEqual([[seeded.hand.id], [seeded.knife.id]]);

    const again = await importBundle(b, file(bundle));
    expect(again.clips.map((c) => c.outcome)).toEqual(['identical', 'identical']);
    expect(await projectSnapshot(b)).toStrictEqual(after);
  });

  it('a copy gets new object ids, and its layers and revisions follow them', async () => {
    const other = await createProject(a, { name: 'second', kind: 'objects' });
    await updateProject(a, other.id, { labels: seeded.project.labels });
    const result = await importBundle(a, file(bundle), { projectId: other.id });
    expect(result.clips.map((c) => c.outcome)).toEqual(['added-copy', 'added-copy']);
    const copy = result.clips[0].id;
    const objects = await a.objects.where('clipId').equals(copy).toArray();
    expect(objects).toHaveLength(3);
    const originals = new Set([seeded.knife.id, seeded.hand.id, seeded.spoon.id, seeded.pan.id]);
    for (const o of objects) expect(originals.has(o.id)).toBe(false);
    // Every id the copy's masks and history name is one of its own objects.
    const named = await namedObjects(a, copy);
    expect(named.size).toBe(3);
    for (const id of named) expect(objects.some((o) => o.id === id)).toBe(true);
    // ... and the right one: the knife's pixels and history are still the knife's.
    const knife = objects.find((o) => o.name === 'knife 1')!;
    const hand = objects.find((o) => o.name === 'left hand 2')!;
    const frame2 = (await a.layers.get([copy, 'gt', 2]))!;
    expect(frame2.objects!.map((o) => [o.id, o.area])).toEqual([
      [knife.id, 4],
      [hand.id, 0],
    ]);
    const give = (await a.revisions.where('clipId').equals(copy).toArray()).find((r) => r.action === 'give')!;
    expect([give.objectsBefore![0].id, give.objectsAfter![0].id]).toEqual([hand.id, knife.id]);
    // Apart from the ids, the copy's objects are the originals.
    const strip = ({ id: _id, clipId: _c, ...rest }: ClipObject) => rest;
    expect(objects.map(strip).sort((x, y) => x.number - y.number)).toStrictEqual([seeded.knife, seeded.hand, seeded.spoon].map(strip));
  });

  it('an object id another clip here already holds is replaced, its masks and history following; the others keep theirs', async () => {
    const b = await db();
    const project = await createProject(b, { name: 'here', kind: 'objects' });
    const [clip] = await commitClipImports(b, [importDraft(project.id, 3, { layers: [] })]);
    await createClipObject(b, { clipId: clip.id, by: 'cy', id: seeded.hand.id, name: 'not a hand' });
    await importBundle(b, file(bundle));
    const objects = await b.objects.where('clipId').equals(clipA()).toArray();
    const hand = objects.find((o) => o.name === 'left hand 2')!;
    expect(hand.id).not.toBe(seeded.hand.id);
    expect(objects.map((o) => o.id).filter((id) => id !== hand.id).sort()).toEqual([seeded.knife.id, seeded.spoon.id].sort());
    const frame0 = (await b.layers.get([clipA(), 'gt', 0]))!;
    expect(frame0.objects!.map((o) => o.id)).toEqual([seeded.knife.id, hand.id, seeded.spoon.id]);
    const give = (await b.revisions.where('clipId').equals(clipA()).toArray()).find((r) => r.action === 'give')!;
    expect(give.objectsBefore![0].id).toBe(hand.id);
    expect(await namedObjects(b, clipA())).toEqual(new Set([seeded.knife.id, hand.id, seeded.spoon.id]));
    // The other clip's object is untouched.
    expect((await b.objects.get(seeded.hand.id))!.name).toBe('not a hand');
  });
});

describe('merging objects into a clip that exists', () => {
  let b: SpocDb;
  beforeEach(async () => {
    b = await db();
    await importBundle(b, file(bundle));
  });

  it('a keyframe mark or an object alone is a difference (never "identical")', async () => {
    const frame = (await a.layers.get([clipA(), 'gt', 1]))!;
    await putLayer(a, { ...frame, objects: frame.objects!.map((o, i) => (i === 0 ? { ...o, keyframe: true as const } : o)) });
    const asked: ClipConflict[] = [];
    await importBundle(b, file((await exportToBlob(a, seeded.project.id)).blob), { onConflict: (_m, c) => (asked.push(c), 'mine') });
    expect(asked.map((c) => c.differences)).toEqual([['gt: masks differ on 1 frame']]);

    await createClipObject(a, { clipId: seeded.clips[1].id, by: 'ann', classId: 'pan', at: 40 });
    const asked2: ClipConflict[] = [];
    await importBundle(b, file((await exportToBlob(a, seeded.project.id)).blob), { onConflict: (_m, c) => (asked2.push(c), 'mine') });
    expect(asked2.map((c) => [c.name, c.differences])).toContainEqual(['objects clip 1', ['objects differ (1 here, 2 in the bundle: 1 only in the bundle)']]);
  });

  it('"theirs" replaces the clip\'s objects with the bundle\'s, ids kept', async () => {
    await createClipObject(b, { clipId: clipA(), by: 'cy', classId: 'utensil', at: 50 });
    await updateClipObject(b, seeded.knife.id, { name: 'my knife' }, 51);
    const result = await importBundle(b, file(bundle), { onConflict: () => 'theirs' });
    expect(result.clips.map((c) => c.outcome)).toEqual(['took-theirs', 'identical']);
    const byNumber = (rows: ClipObject[]) => [...rows].sort((x, y) => x.number - y.number);
    expect(byNumber(await b.objects.where('clipId').equals(clipA()).toArray())).toStrictEqual([seeded.knife, seeded.hand, seeded.spoon]);
  });

  it('"both" adds the objects only the bundle has, keeps mine, reports a same-id object that differs, and every name resolves', async () => {
    // Here: a local object and a renamed knife. There: a new object painted on frame 2 (gt differs).
    const mineOnly = await createClipObject(b, { clipId: clipA(), by: 'cy', classId: 'utensil', at: 50 });
    await updateClipObject(b, seeded.knife.id, { name: 'my knife' }, 51);
    const fork = await createClipObject(a, { clipId: clipA(), by: 'ann', classId: 'utensil', name: 'fork', at: 52 });
    const frame2 = (await a.layers.get([clipA(), 'gt', 2]))!;
    const FORK = rleFromPicture(['#.......', '........', '........', '........', '........', '........']);
    const act = rleFromPicture(['#.......', '........', '........', '........', '......##', '......##']);
    await putLayer(a, { ...frame2, act, objects: [...frame2.objects!, { id: fork.id, rle: FORK, area: 1, keyframe: true }] });
    const asked: ClipConflict[] = [];
    const result = await importBundle(b, file((await exportToBlob(a, seeded.project.id, { exportedBy: 'ann' })).blob), { onConflict: (_m, c) => (asked.push(c), 'both') });
    expect(asked[0].differences).toContain('objects differ (4 here, 4 in the bundle: 1 only in the bundle, 1 only here, 1 with other name, class or attributes)');
    expect(result.clips[0]).toMatchObject({ outcome: 'added-sources', detail: 'added gt as pred:ann; added 1 object' });
    expect(result.warnings).toContain('Clip "objects clip 0": kept this project\'s version of 1 object the bundle also has, with other name, class or attributes.');
    const objects = await b.objects.where('clipId').equals(clipA()).toArray();
    expect(objects.map((o) => o.id).sort()).toEqual([seeded.knife.id, seeded.hand.id, seeded.spoon.id, mineOnly.id, fork.id].sort());
    expect((await b.objects.get(seeded.knife.id))!.name).toBe('my knife');
    expect(await b.objects.get(fork.id)).toStrictEqual(fork);
    const theirs = (await b.layers.get([clipA(), 'pred:ann', 2]))!;
    expect(theirs.objects!.map((o) => o.id)).toEqual([seeded.knife.id, seeded.hand.id, fork.id]);
    const named = await namedObjects(b, clipA());
    for (const id of named) expect(objects.some((o) => o.id === id)).toBe(true);
    // The same bundle again adds nothing more.
    const before = await snapshot(b);
    await importBundle(b, file((await exportToBlob(a, seeded.project.id, { exportedBy: 'ann' })).blob), { onConflict: () => 'both' });
    const after = await snapshot(b);
    expect(after.objects).toEqual(before.objects);
    expect(after.layers).toEqual(before.layers);
  });
});

describe('label schemas when importing into an existing project', () => {
  it('refuses a bundle whose schema differs, naming the differences, and writes nothing', async () => {
    const b = await db();
    await importBundle(b, file(bundle));
    const labels = seeded.project.labels!;
    await updateProject(b, seeded.project.id, { labels: { ...labels, classes: [...labels.classes.filter((c) => c.id !== 'pan'), { id: 'bowl', name: 'bowl', colour: '#aaaaaa', attributes: [] }] } });
    await updateProject(a, seeded.project.id, { labels: { ...labels, classes: labels.classes.map((c) => (c.id === 'knife' ? { ...c, colour: '#654321' } : c)) } });
    const newer = (await exportToBlob(a, seeded.project.id)).blob;
    const before = await snapshot(b);
    const err = await importBundle(b, file(newer), { onConflict: () => 'both' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ImportError);
    expect((err as Error).message).toBe(
      `${NAME}: cannot be imported into "Objects bundle": its label schema differs from this project's (classes only in the bundle: "pan" (pan); classes only here: "bowl" (bowl); classes defined differently: "knife" (knife)). ` +
        'Objects name their classes by id, so they would get other classes here. Give both copies of the project the same classes first. Nothing was imported.',
    );
    expect(await snapshot(b)).toEqual(before);
  });

  it('refuses a SPOC bundle in an objects project and the other way round; the same schema in another order imports', async () => {
    const spocStore = await db();
    const spoc = await seedProject(spocStore);
    const spocBundle = (await exportToBlob(spocStore, spoc.project.id)).blob;
    const objectsProject = await createProject(a, { name: 'visor', kind: 'objects' });
    const before = await snapshot(a);
    const err = await importBundle(a, file(spocBundle), { projectId: objectsProject.id }).catch((e: unknown) => e);
    expect((err as Error).message).toContain(
      `${NAME}: cannot be imported into "visor": its label schema differs from this project's (this is an objects project, the bundle's is a spoc project). Objects name their classes by id, so they would get other classes here. Import it from the projects list as a project of its own instead.`,
    );
    expect(await snapshot(a)).toEqual(before);
    const err2 = await importBundle(spocStore, file(bundle), { projectId: spoc.project.id }).catch((e: unknown) => e);
    expect((err2 as Error).message).toContain('(this is a spoc project, the bundle\'s is an objects project)');
    // A SPOC project made with its kind named has a schema; a bundle of one made before schemas has none: the same.
    const named = await createProject(spocStore, { name: 'named', kind: 'spoc' });
    expect((await importBundle(spocStore, file(spocBundle), { projectId: named.id })).clips.map((c) => c.outcome)).toEqual(['added-copy', 'added-copy']);
    // The classes in another order are the same schema.
    const reordered = await createProject(a, { name: 'reordered', kind: 'objects' });
    await updateProject(a, reordered.id, { labels: { ...seeded.project.labels!, classes: [...seeded.project.labels!.classes].reverse() } });
    expect((await importBundle(a, file(bundle), { projectId: reordered.id })).clips).toHaveLength(2);
    expect((await a.projects.get(reordered.id))!.labels!.classes[0].id).toBe('pan'); // this project's order kept
  });
});

describe('older bundles', () => {
  it('a v4 bundle (no objects, no schema) still imports, with no objects', async () => {
    const spocStore = await db();
    const spoc = await seedProject(spocStore);
    const v4 = await rebuild((await exportToBlob(spocStore, spoc.project.id)).blob, withoutObjects, { editManifest: asFormat(4) });
    const b = await db();
    const result = await importBundle(b, file(v4));
    expect(result.manifest.formatVersion).toBe(4);
    expect(result.clips.map((c) => c.outcome)).toEqual(['added', 'added']);
    expect(await b.objects.count()).toBe(0);
    expect(await b.layers.count()).toBe(8);
  });
});

describe('hostile object rows are refused, naming the entry and the row, and write nothing', () => {
  let target: SpocDb;
  let before: Record<string, unknown[]>;
  beforeEach(async () => {
    target = await db();
    await createProject(target, { name: 'work that must survive' });
    before = await snapshot(target);
  });

  async function expectRefused(bad: Blob, problem: string | RegExp): Promise<void> {
    const err = await importBundle(target, file(bad), { onConflict: () => 'both' }).catch((e: unknown) => e);
    expect(err, String(problem)).toBeInstanceOf(ImportError);
    const message = (err as Error).message;
    expect(message.startsWith(`${NAME}: `), message).toBe(true);
    if (typeof problem === 'string') expect(message).toContain(problem);
    else expect(message).toMatch(problem);
    expect(await snapshot(target)).toEqual(before);
  }
  type Doc = { objects: Record<string, unknown>[]; layers: Layer[] };
  const editClip = (clipId: string, change: (d: Doc) => void) => rebuild(bundle, (e) => editJson(e, clipJsonOf(clipId), (d) => change(d as unknown as Doc)));

  it('the untouched bundle imports (control)', async () => {
    await expect(importBundle(await db(), file(bundle))).resolves.toBeDefined();
  });

  it('an object of another clip', async () => {
    const other = seeded.clips[1].id;
    await expectRefused(await editClip(clipA(), (d) => (d.objects[1].clipId = other)), `${clipJsonOf(clipA())}: objects[1].clipId is "${other}", not this clip`);
    // The same object listed by two clips (each row naming its own clip).
    await expectRefused(
      await rebuild(bundle, (e) => editJson(e, clipJsonOf(seeded.clips[1].id), (d) => (d as unknown as Doc).objects.push({ ...(d as unknown as Doc).objects[0], id: seeded.knife.id, number: 2 }))),
      `${clipJsonOf(seeded.clips[1].id)}: object id "${seeded.knife.id}" also appears in another clip`,
    );
  });

  it('a duplicate object id, an unknown field, a bad id', async () => {
    await expectRefused(await editClip(clipA(), (d) => (d.objects[2].id = d.objects[0].id)), `${clipJsonOf(clipA())}: objects[2].id "${seeded.knife.id}" is the id of another object of this clip too`);
    await expectRefused(await editClip(clipA(), (d) => (d.objects[0].colour = 'red')), `${clipJsonOf(clipA())}: objects[0] has unknown field "colour"`);
    await expectRefused(await editClip(clipA(), (d) => (d.objects[0].id = '../../x')), `${clipJsonOf(clipA())}: objects[0].id "../../x" is not a valid id`);
    await expectRefused(await editClip(clipA(), (d) => (d.objects[0].number = 0)), `${clipJsonOf(clipA())}: objects[0].number`);
  });

  it('a layer or a revision naming an object the clip does not have', async () => {
    await expectRefused(
      await editClip(clipA(), (d) => (d.layers[1].objects![0].id = 'ghost')),
      `${clipJsonOf(clipA())}: layers[1].objects[0].id "ghost" is not an object of this clip (clip.json objects)`,
    );
    // Another clip's object is not this clip's.
    await expectRefused(
      await editClip(clipA(), (d) => (d.layers[0].objects![1].id = seeded.pan.id)),
      `${clipJsonOf(clipA())}: layers[0].objects[1].id "${seeded.pan.id}" is not an object of this clip`,
    );
    await expectRefused(
      await rebuild(bundle, (e) => editJson(e, revisionsJsonOf(clipA()), (d) => ((d.revisions as Revision[])[1].objectsAfter![0].id = 'ghost'))),
      `${revisionsJsonOf(clipA())}: revisions[1].objectsAfter[0].id "ghost" is not an object of this clip (clip.json objects)`,
    );
    // Removing an object's row while its masks remain.
    await expectRefused(await editClip(clipA(), (d) => d.objects.splice(2, 1)), `layers[0].objects[2].id "${seeded.spoon.id}" is not an object of this clip`);
  });

  it('a layer whose objects break the pixel rules', async () => {
    await expectRefused(
      await editClip(clipA(), (d) => (d.layers[0].objects![1].rle = d.layers[0].objects![0].rle)),
      /clip\.json: layers\[0\]\.objects objects .* both own pixel \(0, 0\); a pixel belongs to one object/,
    );
    await expectRefused(await editClip(clipA(), (d) => (d.layers[0].objects![0].area = 3)), `${clipJsonOf(clipA())}: layers[0].objects[0].area is 3 but the RLE has 4 pixels`);
  });

  it('a v5 bundle without objects, a v4 bundle with them, counts that lie', async () => {
    await expectRefused(await editClip(clipA(), (d) => delete (d as Partial<Doc>).objects), `${clipJsonOf(clipA())}: objects is missing`);
    await expectRefused(await rebuild(bundle, () => {}, { editManifest: asFormat(4) }), `: project has unknown field "labels" (bundle format v4 projects have no label schema)`);
    const v4WithObjects = await rebuild(bundle, (e) => editJson(e, PROJECT_PATH, (d) => delete (d.project as Record<string, unknown>).labels), { editManifest: asFormat(4) });
    await expectRefused(v4WithObjects, `${clipJsonOf(clipA())}: has unknown field "objects" (bundle format v4 clips have no objects)`);
    // Without the objects, its layers still name them: refused too.
    await expectRefused(await rebuild(bundle, withoutObjects, { editManifest: asFormat(4) }), `${clipJsonOf(clipA())}: layers[0].objects[0].id "${seeded.knife.id}" is not an object of this clip`);
    await expectRefused(await rebuild(bundle, () => {}, { editManifest: (m) => (m.counts.objects = 3) }), 'manifest.json: counts.objects is 3 but the bundle holds 4');
    await expectRefused(await rebuild(bundle, () => {}, { editManifest: (m) => delete (m.counts as Partial<typeof m.counts>).objects }), 'manifest.json: counts.objects is missing');
    await expectRefused(await rebuild(bundle, withoutObjects, { editManifest: (m) => (m.formatVersion = 4) }), 'manifest.json: counts has unknown field "objects"');
  });

  it('a project schema that breaks its rules', async () => {
    await expectRefused(
      await rebuild(bundle, (e) => editJson(e, PROJECT_PATH, (d) => ((d.project as { labels: { kind: string } }).labels.kind = 'zoo'))),
      `${PROJECT_PATH}: project.labels`,
    );
  });
});
