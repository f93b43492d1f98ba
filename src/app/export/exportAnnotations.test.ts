/**
 * An export dead end, in the store: the same video imported twice (two clips of one name) with
 * "other…" and an empty verb, and an object containing "/". Every format must still export, with
 * unique paths and a note for every rewrite; exports can be narrowed to some clips, and skip the trash.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { unzipSync } from 'fflate';
import type { SpocDb } from '../../store/db';
import { commitClipImport } from '../../store/importCommit';
import { createProject } from '../../store/projects';
import { trashClip } from '../../store/trash';
import { freshDb, gtLayer, importDraft } from '../../testing/storeFixtures';
import type { Clip, Project } from '../../store/types';
import { FORMAT_IDS, type FormatId } from '../../io/formats';
import { exportAnnotations, type ExportResult } from './exportAnnotations';

let db: SpocDb;
let project: Project;
let first: Clip;
let second: Clip;

/** A clip as the old import form stored it: verb "" ("other…" left empty) and the file's name. */
async function legacyClip(noun: string): Promise<Clip> {
  const draft = importDraft(project.id, 3);
  draft.clip.name = 'demo-grating-seed7';
  draft.clip.osc = { verb: '', noun, actionable: `${noun} before`, transformed: `${noun} after` };
  // One state per mask (the fixture's default layers overlap, which exports refuse).
  draft.layers = [gtLayer(0, 5, 0), gtLayer(2, 0, 4)];
  return commitClipImport(db, draft);
}

beforeEach(async () => {
  db = await freshDb();
  project = await createProject(db, { name: 'Kitchen' });
  first = await legacyClip('potato');
  second = await legacyClip('salt/pepper');
});
afterEach(() => db.close());

async function run(format: FormatId, clipIds?: string[]): Promise<{ result: ExportResult; paths: string[]; bytes: Record<string, Uint8Array> }> {
  const result = await exportAnnotations(db, { projectId: project.id, projectName: project.name, format, source: 'gt', images: true, clipIds });
  const data = new Uint8Array(await result.blob.arrayBuffer());
  const bytes = result.fileName.endsWith('.zip') ? unzipSync(data) : { [result.fileName]: data };
  return { result, paths: Object.keys(bytes), bytes };
}

describe('exports never dead-end on names', () => {
  it.each(FORMAT_IDS)('%s exports a project whose clips share a name and have an empty verb', async (format) => {
    const { result, paths } = await run(format);
    expect(result.clipCount).toBe(2);
    expect(new Set(paths).size).toBe(paths.length);
    expect(result.notes).toContain('Clip "demo-grating-seed7": the verb "" is not one word; exported as "unknown" (fix it with Edit on its card).');
    expect(result.notes).toContain('Clip "demo-grating-seed7": the object "salt/pepper" cannot be part of a folder name; exported as "salt-pepper" (fix it with Edit on its card).');
    if (format === 'wtc') {
      // Different objects: different <verb>_<noun> folders, so the video name may stay.
      expect(paths).toEqual(expect.arrayContaining(['unknown_potato/meta/demo-grating-seed7.json', 'unknown_salt-pepper/meta/demo-grating-seed7.json']));
    } else {
      expect(result.notes).toContain(
        'Clip "demo-grating-seed7": another clip in this export has the same name, so both would write the same files; exported as "demo-grating-seed7-2" (rename it with Edit on its card to choose).',
      );
    }
  });

  it.each(['wtc', 'davis'] as const)('%s zips have the dataset root at the archive root (no folder named after the project)', async (format) => {
    const { paths } = await run(format);
    const tops = new Set(paths.map((p) => p.split('/')[0]));
    expect([...tops].sort()).toEqual(format === 'wtc' ? ['unknown_potato', 'unknown_salt-pepper'] : ['Annotations', 'JPEGImages']);
  });

  it('COCO keeps both clips apart and names the rewritten verb and video', async () => {
    const { bytes } = await run('coco');
    const coco = JSON.parse(new TextDecoder().decode(Object.values(bytes)[0])) as { videos: { name: string; verb: string; noun: string }[] };
    expect(coco.videos.map((v) => [v.name, v.verb, v.noun])).toEqual([
      ['demo-grating-seed7', 'unknown', 'potato'],
      ['demo-grating-seed7-2', 'unknown', 'salt-pepper'],
    ]);
  });

  it('WhereToChange makes two clips of one name in one folder unique with -2', async () => {
    await db.clips.update(second.id, { osc: { ...second.osc, verb: 'mashing', noun: 'potato' } });
    await db.clips.update(first.id, { osc: { ...first.osc, verb: 'mashing' } });
    const { result, paths } = await run('wtc');
    expect(result.notes).toEqual([
      'Clip "demo-grating-seed7": another clip in this export has the same name, so both would write the same files; exported as "demo-grating-seed7-2" (rename it with Edit on its card to choose).',
    ]);
    expect(paths.filter((p) => p.includes('/meta/')).sort()).toEqual(['mashing_potato/meta/demo-grating-seed7-2.json', 'mashing_potato/meta/demo-grating-seed7.json']);
    expect(paths.filter((p) => p.includes('JPEGImages_1fps/demo-grating-seed7-2/'))).toHaveLength(3);
  });

  it('exports one clip, or the clips asked for, and never a clip in the trash', async () => {
    const one = await run('davis', [second.id]);
    expect(one.result).toMatchObject({ clipCount: 1, fileName: 'Kitchen-demo-grating-seed7-davis.zip' });
    // Alone, the clip shares its name with nobody: only its verb and object are rewritten.
    expect(one.result.notes.some((n) => n.includes('same name'))).toBe(false);
    expect(one.paths.every((p) => p.includes('/demo-grating-seed7/'))).toBe(true);

    await trashClip(db, first.id);
    const all = await run('visor');
    expect(all.result.clipCount).toBe(1);
    await expect(run('visor', [first.id])).rejects.toThrow('there are no clips to export');
  });
});
