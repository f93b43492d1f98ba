/**
 * The app's project evaluation panel and `spoc-studio eval` on the app's own WhereToChange export of
 * the same project must report the same frames (evaluated, ignored, missing predictions) and the same
 * table (docs/metrics.md, "Which frames are evaluated"). The clips hold what a real project holds:
 * ignored frames with and without painted gt, frames nobody painted (a whole clip of them), frames
 * without a prediction.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { unzipSync } from 'fflate';
import { createLabelMap, type LabelMap } from '../src/masks/labelMap';
import { encodeLayer } from '../src/masks/layers';
import { evaluateSpoc } from '../src/metrics';
import { spocTableRows } from '../src/metrics/spocTable';
import { countProject } from '../src/metrics/panels/projectEval';
import { exportAnnotations } from '../src/app/export/exportAnnotations';
import { commitClipImports, type DraftLayer } from '../src/store/importCommit';
import { createProject } from '../src/store/projects';
import { setFrameIgnored } from '../src/store/frames';
import { listClips } from '../src/store/clips';
import { clipDraft, freshDb, pngBlob } from '../src/testing/storeFixtures';
import type { SpocDb } from '../src/store/db';
import { runCli, tempDir } from './testing';

const W = 8;
const H = 6;
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups) await c();
});

function rect(x: number, y: number, w: number, h: number, label: number): LabelMap {
  const map = createLabelMap(W, H);
  for (let r = y; r < y + h; r++) for (let c = x; c < x + w; c++) map.data[r * W + c] = label;
  return map;
}

function layer(frameIndex: number, source: DraftLayer['source'], map: LabelMap): DraftLayer {
  return { frameIndex, source, ...encodeLayer(map), provenance: { kind: 'imported', by: 'test', at: 1 } };
}

/** The app's export as the browser downloads it, unpacked into `dir`. */
async function exportTo(db: SpocDb, projectId: string, source: 'gt' | `pred:${string}`, dir: string): Promise<void> {
  const out = await exportAnnotations(db, { projectId, projectName: 'Kitchen', format: 'wtc', source, images: false });
  for (const [name, bytes] of Object.entries(unzipSync(new Uint8Array(await out.blob.arrayBuffer())))) {
    if (name.endsWith('/')) continue;
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), bytes);
  }
}

async function listTree(root: string, rel = ''): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(path.join(root, rel), { withFileTypes: true })) {
    const p = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...(await listTree(root, p)));
    else out.push(p);
  }
  return out;
}

describe('app panel and CLI on the app export', () => {
  it('count the same evaluated, ignored and missing frames and print the same table', async () => {
    const db = await freshDb();
    const project = await createProject(db, { name: 'Kitchen' });
    // Clip a, 6 frames: 0 and 1 painted; 2 never painted; 3 ignored but painted; 4 ignored, never
    // painted; 5 painted. The prediction lacks frames 1 and 4 and paints frame 2 (a false positive).
    const gt: (LabelMap | null)[] = [rect(0, 0, 4, 3, 1), rect(0, 0, 4, 3, 2), null, rect(1, 1, 3, 3, 1), null, rect(2, 2, 4, 4, 2)];
    const pred: (LabelMap | null)[] = [rect(1, 0, 4, 3, 1), null, rect(0, 0, 2, 2, 2), rect(1, 1, 3, 3, 1), null, rect(2, 1, 4, 4, 2)];
    const [a] = await commitClipImports(db, [
      {
        projectId: project.id,
        clip: clipDraft(project.id, { name: 'a', frameCount: 6 }),
        frames: gt.map((_, i) => ({ timestampSec: i, image: pngBlob(i), mime: 'image/png', phase: i < 2 ? 'initial' : 'transitioning' })),
        layers: [...gt.flatMap((m, k) => (m ? [layer(k, 'gt', m)] : [])), ...pred.flatMap((m, k) => (m ? [layer(k, 'pred:m', m)] : []))],
      },
    ]);
    // Clip b, 3 frames of another verb: gt on frame 1 only, frame 2 ignored, a prediction on every frame.
    await commitClipImports(db, [
      {
        projectId: project.id,
        clip: clipDraft(project.id, { name: 'b', frameCount: 3, osc: { verb: 'slicing', noun: 'bread', actionable: 'x', transformed: 'y' } }),
        frames: [0, 1, 2].map((i) => ({ timestampSec: i, image: pngBlob(i), mime: 'image/png' })),
        layers: [layer(1, 'gt', rect(0, 0, 8, 3, 1)), ...[0, 1, 2].map((k) => layer(k, 'pred:m', rect(0, 0, 8, 2 + k, 1)))],
      },
    ]);
    // Clip c, 2 frames nobody painted (the export writes no gt mask folder for it), a prediction on frame 0.
    await commitClipImports(db, [
      {
        projectId: project.id,
        clip: clipDraft(project.id, { name: 'c', frameCount: 2 }),
        frames: [0, 1].map((i) => ({ timestampSec: i, image: pngBlob(i), mime: 'image/png' })),
        layers: [layer(0, 'pred:m', rect(0, 0, 2, 2, 1))],
      },
    ]);
    await setFrameIgnored(db, a.id, 3, { reason: 'too_blurry' });
    await setFrameIgnored(db, a.id, 4, { reason: 'not_visible' });
    const b = (await listClips(db, project.id)).find((c) => c.name === 'b')!;
    await setFrameIgnored(db, b.id, 2, { reason: 'other', note: 'x' });

    const clips = await listClips(db, project.id);
    const app = evaluateSpoc((await countProject(db, clips, 'pred:m')).clips);
    expect(app.coverage).toEqual({ clips: 3, frames: 11, evaluatedFrames: 8, ignoredFrames: 3, missingPredictions: 2 });

    const { dir, cleanup } = await tempDir('spoc-parity-');
    cleanups.push(cleanup);
    await exportTo(db, project.id, 'gt', path.join(dir, 'gt'));
    await exportTo(db, project.id, 'pred:m', path.join(dir, 'pred'));
    const run = await runCli(['eval', '--gt', 'gt', '--pred', 'pred', '--json', '-'], dir);
    expect(run.code, run.stderr).toBe(0);
    const doc = JSON.parse(run.stdout) as {
      summary: { coverage: Record<string, number>; table: Record<string, number | string | null>[] };
      clips: { video: string; evaluated_frames: number; ignored_frames: number; missing_predictions: number }[];
    };
    expect(doc.summary.coverage).toEqual({
      clips: app.coverage.clips,
      frames: app.coverage.frames,
      evaluated_frames: app.coverage.evaluatedFrames,
      ignored_frames: app.coverage.ignoredFrames,
      missing_predictions: app.coverage.missingPredictions,
    });
    expect(doc.clips.map((c) => [c.video, c.evaluated_frames, c.ignored_frames, c.missing_predictions])).toEqual([
      ['a', 4, 2, 1],
      ['c', 2, 0, 1],
      ['b', 2, 1, 0],
    ]);
    const appRows = spocTableRows(app, clips.map((c) => ({ verb: c.osc.verb.toLowerCase() })));
    const num = (v: number | string | null | undefined): number | null => (typeof v === 'number' ? v : null);
    for (const [i, row] of appRows.entries()) {
      const cli = doc.summary.table[i];
      for (const key of ['mIoU', 'mIoU_act', 'mIoU_trf', 'wo_osc', 'transition'] as const) {
        const want = Number.isFinite(row[key]) ? row[key] : null;
        if (want === null) expect(num(cli[key]), `${row.row} ${row.verb} ${key}`).toBeNull();
        else expect(num(cli[key]), `${row.row} ${row.verb} ${key}`).toBeCloseTo(want, 12);
      }
    }
    // The prediction export keeps out of gt/masks (pred/masks, pred/meta): unpacked over the gt
    // export, the two sit side by side and one folder serves both sides.
    const predFiles = await listTree(path.join(dir, 'pred'));
    expect(predFiles.filter((f) => f.includes('/gt/'))).toEqual([]);
    expect(predFiles.filter((f) => f.includes('/pred/masks/'))).toHaveLength(8);
    await exportTo(db, project.id, 'gt', path.join(dir, 'both'));
    await exportTo(db, project.id, 'pred:m', path.join(dir, 'both'));
    const same = await runCli(['eval', '--gt', 'both', '--pred', 'both', '--json', '-'], dir);
    expect(same.code, same.stderr).toBe(0);
    expect((JSON.parse(same.stdout) as typeof doc).summary).toEqual(doc.summary);
    // Read from the unpacked archives' roots, which are the dataset roots (no wrapping folder).
    expect(run.stderr).not.toContain('dataset root');
    expect((await readdir(path.join(dir, 'gt'))).sort()).toEqual(['peel_banana', 'slicing_bread']);
  });
});
