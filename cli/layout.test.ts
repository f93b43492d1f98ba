import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { scanMasks } from './layout';
import { mapOf, tempDir, writeMask } from './testing';

let dir: string;
let cleanup: () => Promise<void>;
const m = mapOf(['01', '20']);
const io = () => ({ stdout: { write: () => true }, stderr: { write: () => true }, cwd: dir });

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('spoc-cli-layout-'));
  for (const f of ['frame10', 'frame2', 'frame1']) await writeMask(path.join(dir, 'davisroot/Annotations/480p/bear', `${f}.png`), m);
  await writeMask(path.join(dir, 'davisroot/JPEGImages/480p/bear/00000.png'), m);
  await writeMask(path.join(dir, 'both/grating_cheese/gt/masks/v/a.png'), m);
  await writeMask(path.join(dir, 'both/grating_cheese/pred/masks/v/a.png'), m);
  await writeMask(path.join(dir, 'both/grating_cheese/JPEGImages_1fps/v/a.png'), m);
  await writeFile(path.join(dir, 'both/grating_cheese/JPEGImages_1fps/v/.DS_Store'), '');
  await writeMask(path.join(dir, 'dup/v/a.png'), m);
  await writeMask(path.join(dir, 'dup/v/A.PNG'), m);
});
afterAll(() => cleanup());

describe('scanMasks', () => {
  it('finds Annotations/480p in a DAVIS root and sorts frames naturally', async () => {
    const set = await scanMasks(io(), 'davisroot', 'gt');
    expect(set.kind).toBe('davis');
    expect(set.description).toBe('DAVIS layout (Annotations/480p/<video>/*.png)');
    expect(set.videos.map((v) => v.key)).toEqual(['bear']);
    expect(set.videos[0].frames.map((f) => f.stem)).toEqual(['frame1', 'frame2', 'frame10']);
    expect(set.videos[0].metaRel).toBe('Annotations/480p/meta/bear.json');
  });

  it('reads gt/masks for the GT and pred/masks for predictions from the same folder', async () => {
    const gt = await scanMasks(io(), 'both', 'gt');
    const pred = await scanMasks(io(), 'both', 'pred');
    expect(gt.videos[0]).toMatchObject({ key: 'grating_cheese/v', relDir: 'grating_cheese/gt/masks/v', metaRel: 'grating_cheese/meta/v.json' });
    expect(pred.videos[0]).toMatchObject({ key: 'grating_cheese/v', relDir: 'grating_cheese/pred/masks/v' });
    expect(gt.frameCount).toBe(1);
  });

  it('refuses two masks with the same frame name', async () => {
    await expect(scanMasks(io(), 'dup', 'gt')).rejects.toThrow(/dup\/v\/(a\.png|A\.PNG): has the same frame name as dup\/v\/(a\.png|A\.PNG)/);
  });
});
