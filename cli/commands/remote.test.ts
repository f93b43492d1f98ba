/**
 * `spoc-studio pull` and `push` against the real server, listening on a loopback port, on both
 * database backends: a project whose gt was painted in several revisions per frame, a prediction
 * pushed from mask files, pulled back and scored by `eval`.
 */
import type { FastifyInstance } from 'fastify';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { diffToPatch } from '../../src/annotator/patch';
import { patchToRevision } from '../../src/annotator/revisionPatch';
import type { LabelMap } from '../../src/masks/labelMap';
import { createApiToken } from '../../server/auth/accounts';
import { onBothBackends } from '../../server/testing/backends';
import { FRAMES, H, W, change, eventRow, newClip, newTeam, pushOk, revisionRow, verdictRow, type Team } from '../../server/testing/syncFixtures';
import { main } from '../main';
import { readMask, tempDir, writeMask, type CliResult } from '../testing';

const blank = (): LabelMap => ({ width: W, height: H, data: new Uint8Array(W * H) });
/** A deterministic mask per (seed, frame): stripes of 0, 1, 2 that differ between frames. */
function maskOf(seed: number, k: number): LabelMap {
  const m = blank();
  for (let i = 0; i < m.data.length; i++) m.data[i] = ((i * (seed + 3) + k * 7 + (i >> 3)) % 5) % 3;
  return m;
}
const frameName = (k: number) => `frame${String(k).padStart(4, '0')}`;

onBothBackends((ctx) => {
  let app: FastifyInstance;
  let server: string;
  let team: Team;
  let reviewerToken: string;
  let annotatorToken: string;
  let approvedClip: string;
  let work: { dir: string; cleanup: () => Promise<void> };
  const gt = new Map<string, LabelMap[]>();

  const cli = async (argv: readonly string[], token: string | null = reviewerToken): Promise<CliResult> => {
    let stdout = '';
    let stderr = '';
    const code = await main(argv, { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: (s: string) => (stderr += s) }, cwd: work.dir, env: token === null ? {} : { SPOC_TOKEN: token } });
    return { code, stdout, stderr };
  };
  const modelFile = (video: string, k: number) => path.join(work.dir, 'model', 'peel_banana', 'pred', 'masks', video, `${frameName(k)}.png`);
  const remote = () => ['--server', server, '--project', team.projectId];
  const revisionCount = async () => (await ctx.db().query<{ n: number }>("SELECT count(*)::int AS n FROM sync_rows WHERE kind = 'revision'"))[0].n;

  /** The annotator paints each frame in two revisions (a rectangle, then the rest), as the editor would. */
  async function paintGt(clipId: string, seed: number): Promise<void> {
    const ann = team.annotator.user.username;
    const maps: LabelMap[] = [];
    for (let k = 0; k < FRAMES; k++) {
      const target = maskOf(seed, k);
      const first = blank();
      for (let y = 0; y < 3; y++) for (let x = 0; x < 4; x++) first.data[y * W + x] = 2 - (k % 2);
      const revs = [diffToPatch(blank(), first, { x: 0, y: 0, w: W, h: H }, k, 'brush')!, diffToPatch(first, target, { x: 0, y: 0, w: W, h: H }, k, 'brush')!];
      await pushOk(team.annotator, team.projectId, revs.map((p) => change('revision', revisionRow(clipId, k, ann, { ...patchToRevision(p) }))));
      maps.push(target);
    }
    gt.set(clipId, maps);
  }

  beforeAll(async () => {
    const { testServer } = await import('../../server/testing/testServer');
    app = await testServer(ctx.db());
    server = await app.listen({ port: 0, host: '127.0.0.1' });
    team = await newTeam(app, ctx.db());
    reviewerToken = await createApiToken(ctx.db(), team.reviewer.user.username);
    annotatorToken = await createApiToken(ctx.db(), team.annotator.user.username);
    work = await tempDir('spoc-remote-');
    approvedClip = await newClip(team, { name: 'peel-1' });
    const draftClip = await newClip(team, { name: 'peel-2' });
    await paintGt(approvedClip, 1);
    await paintGt(draftClip, 2);
    const ann = team.annotator.user.username;
    const rev = team.reviewer2.user.username;
    await pushOk(team.annotator, team.projectId, [change('clipEvent', eventRow(approvedClip, 'submit', 'in_progress', 'submitted', ann))]);
    await pushOk(team.reviewer2, team.projectId, [
      change('clipEvent', eventRow(approvedClip, 'start_review', 'submitted', 'in_review', rev)),
      ...Array.from({ length: FRAMES }, (_, i) => change('frameVerdict', verdictRow(approvedClip, i, 'accept', rev))),
      change('clipEvent', eventRow(approvedClip, 'approve', 'in_review', 'approved', rev)),
    ]);
    // The model's output, as `eval` reads it: <osc>/pred/masks/<video>/<frame>.png.
    for (const [video, seed] of [['peel-1', 5], ['peel-2', 6]] as const) {
      for (let k = 0; k < FRAMES; k++) await writeMask(modelFile(video, k), maskOf(seed, k));
    }
  }, 120_000);
  afterAll(async () => {
    await app.close();
    await work.cleanup();
  });

  it('push sends one revision per frame; pull gives back the pushed masks and the replayed gt bit for bit; a re-push sends nothing', async () => {
    const before = await revisionCount();
    const pushed = await cli(['push', ...remote(), '--pred', 'model', 'model']);
    expect(pushed.stderr).toContain('pred:model: 6 frames pushed, 0 already equal');
    expect(pushed.code, pushed.stderr).toBe(0);
    expect(await revisionCount()).toBe(before + 2 * FRAMES);

    const pulled = await cli(['pull', ...remote(), '--out', 'pulled', '--pred', 'model']);
    expect(pulled.code, pulled.stderr).toBe(0);
    expect(pulled.stderr).toContain('note: clip "peel-2" is todo, not approved');
    const clipIds = { 'peel-1': approvedClip, 'peel-2': [...gt.keys()].find((id) => id !== approvedClip)! };
    for (const [video, id] of Object.entries(clipIds)) {
      for (let k = 0; k < FRAMES; k++) {
        const file = (side: string) => path.join(work.dir, 'pulled', 'peel_banana', side, 'masks', video, `${frameName(k)}.png`);
        expect((await readMask(file('gt'))).data).toEqual(gt.get(id)![k].data);
        expect((await readMask(file('pred'))).data).toEqual((await readMask(modelFile(video, k))).data);
      }
    }

    const again = await cli(['push', ...remote(), '--pred', 'model', 'model']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('pred:model: 0 frames pushed, 6 already equal');
    expect(await revisionCount()).toBe(before + 2 * FRAMES);

    // One frame changed: one revision, and the pull shows it.
    const changed = maskOf(9, 1);
    await writeMask(modelFile('peel-1', 1), changed);
    const third = await cli(['push', ...remote(), '--pred', 'model', 'model']);
    expect(third.stderr).toContain('pred:model: 1 frames pushed, 5 already equal');
    expect(await revisionCount()).toBe(before + 2 * FRAMES + 1);
    expect((await cli(['pull', ...remote(), '--out', 'pulled', '--pred', 'model', '--force'])).code).toBe(0);
    expect((await readMask(path.join(work.dir, 'pulled', 'peel_banana', 'pred', 'masks', 'peel-1', 'frame0001.png'))).data).toEqual(changed.data);
  });

  it('eval on the pulled folder gives the metrics computed from the same masks directly', async () => {
    const pulled = await cli(['pull', ...remote(), '--out', 'pulled2', '--pred', 'model']);
    expect(pulled.code, pulled.stderr).toBe(0);
    // The same masks written straight to disk, without the server.
    for (const [video, id] of [['peel-1', approvedClip], ['peel-2', [...gt.keys()].find((c) => c !== approvedClip)!]] as const) {
      for (let k = 0; k < FRAMES; k++) {
        await writeMask(path.join(work.dir, 'direct', 'peel_banana', 'gt', 'masks', video, `${frameName(k)}.png`), gt.get(id)![k]);
        await writeMask(path.join(work.dir, 'direct', 'peel_banana', 'pred', 'masks', video, `${frameName(k)}.png`), await readMask(modelFile(video, k)));
      }
    }
    const fromServer = await cli(['eval', '--gt', 'pulled2', '--pred', 'pulled2', '--json', '-']);
    const direct = await cli(['eval', '--gt', 'direct', '--pred', 'direct', '--json', '-']);
    expect(fromServer.code, fromServer.stderr).toBe(0);
    expect(direct.code, direct.stderr).toBe(0);
    const a = JSON.parse(fromServer.stdout);
    const b = JSON.parse(direct.stdout);
    expect(a.summary.coverage.frames).toBe(2 * FRAMES);
    expect(a.summary.table).toEqual(b.summary.table);
    expect(a.summary.splits).toEqual(b.summary.splits);
    const scores = (j: { clips: Record<string, unknown>[] }) => j.clips.map(({ id, IoU_act, IoU_trf, mIoU }) => ({ id, IoU_act, IoU_trf, mIoU }));
    expect(scores(a)).toEqual(scores(b));
    expect(a.clips.every((c: { mIoU: unknown }) => typeof c.mIoU === 'number' && c.mIoU > 0 && c.mIoU < 1)).toBe(true);
  });

  it('--approved-only leaves out clips that are not approved, naming them', async () => {
    const r = await cli(['pull', ...remote(), '--out', 'approved', '--approved-only']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('left out: clip "peel-2" is todo, not approved');
    const listed = await cli(['eval', '--gt', 'approved', '--pred', 'approved', '--json', '-']);
    expect(JSON.parse(listed.stdout).clips.map((c: { video: string }) => c.video)).toEqual(['peel-1']);
  });

  it('a role that may not add predictions: every refused row is printed and the exit code is 1', async () => {
    await writeMask(path.join(work.dir, 'ann', 'peel-1', 'frame0000.png'), maskOf(11, 0));
    const before = await revisionCount();
    const r = await cli(['push', ...remote(), '--pred', 'other', 'ann'], annotatorToken);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/refused: clip "peel-1" frame 1 \(.*frame0000\.png\): 403 only reviewers and managers may add pred:other layers/);
    expect(await revisionCount()).toBe(before);
  });

  it('clear errors: bad token (1), unknown project (1), unreachable server (1), no token (2)', async () => {
    const bad = await cli(['pull', ...remote(), '--out', 'x1'], 'spoc_notarealtoken0000000000000000000000000');
    expect([bad.code, bad.stderr]).toEqual([1, expect.stringContaining('the server refused the token (401')]);
    const missing = await cli(['pull', '--server', server, '--project', 'no-such-project', '--out', 'x2']);
    expect([missing.code, missing.stderr]).toEqual([1, expect.stringContaining('not found on')]);
    await writeFile(path.join(work.dir, 'token'), `${reviewerToken}\n`);
    const closed = await cli(['pull', '--server', 'http://127.0.0.1:9', '--project', team.projectId, '--out', 'x3', '--token-file', 'token'], null);
    expect([closed.code, closed.stderr]).toEqual([1, expect.stringContaining('cannot reach the server at http://127.0.0.1:9')]);
    const none = await cli(['push', ...remote(), '--pred', 'model', 'model'], null);
    expect([none.code, none.stderr]).toEqual([2, expect.stringContaining('no token: set SPOC_TOKEN or pass --token-file FILE')]);
    const viaFile = await cli(['pull', ...remote(), '--out', 'x4', '--token-file', 'token'], null);
    expect(viaFile.code, viaFile.stderr).toBe(0);
  });
});

it('help says where the token comes from and why it is never an option', async () => {
  const { dir, cleanup } = await tempDir();
  try {
    for (const cmd of ['pull', 'push']) {
      let out = '';
      expect(await main(['help', cmd], { stdout: { write: (s: string) => (out += s) }, stderr: { write: () => undefined }, cwd: dir })).toBe(0);
      expect(out).toContain(`Usage: spoc-studio ${cmd} --server URL --project ID`);
      expect(out).toContain('SPOC_TOKEN');
      expect(out).toContain('visible to every user of the machine');
    }
    let top = '';
    await main(['--help'], { stdout: { write: (s: string) => (top += s) }, stderr: { write: () => undefined }, cwd: dir });
    expect(top).toContain('spoc-studio pull --server URL --project ID --out DIR');
  } finally {
    await cleanup();
  }
});
