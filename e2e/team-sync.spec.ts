/**
 * A team on a real server (`spoc-studio serve`, on the embedded database and, in CI, on Debian's
 * PostgreSQL), three people in three browser contexts, in real Chromium:
 * - mia (manager) opens the demo project, shares it to the server, adds ann (annotator) and rev
 *   (reviewer), and assigns "peeling potato (demo 2)" to ann;
 * - ann opens the project from the server (frame pictures fetched on demand), paints and submits;
 *   rev, with the clip open, sees the stroke and the status arrive live, pins a comment, rejects a
 *   frame and requests changes; ann sees the pin and the request arrive live, fixes and resubmits;
 *   rev accepts every frame and approves;
 * - then the three browsers' stores and the server agree row for row (every synced log row and
 *   comment, and frame 1's mask);
 * - ann may not move another clip to the trash (told why); mia does, and it reaches ann's trash.
 * Asserted on IndexedDB rows and on what the server's pull returns, not on the UI's word alone.
 */
import { test, expect, type Browser, type Page } from '@playwright/test';
import { readRows } from './helpers/store';
import { clickAt, drag, waitSaved } from './helpers/editor';
import { startTeamServer, teamBackends, TEAM_PASSWORD, type TeamServer } from './helpers/teamServer';

const CLIP = 'peeling potato (demo 2)';

interface ClipRow { id: string; name: string; projectId: string; status: string; assignee?: string }
interface IdRow { id: string; clipId: string }
interface LayerRow { clipId: string; source: string; frameIndex: number; act: { counts: string }; trf: { counts: string } }

async function signedInPage(browser: Browser, server: TeamServer, username: string): Promise<Page> {
  const context = await browser.newContext({ baseURL: server.url });
  const page = await context.newPage();
  await page.goto('/');
  await page.getByRole('button', { name: 'Sign in' }).click();
  const form = page.getByRole('form', { name: 'Sign in' });
  await form.getByLabel('Username').fill(username);
  await form.getByLabel('Password').fill(TEAM_PASSWORD);
  await form.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('signed in as')).toContainText(username);
  return page;
}

const synced = (page: Page) => expect(page.getByTestId('sync-status')).toHaveAttribute('data-state', 'synced', { timeout: 60_000 });
const status = (page: Page) => page.getByTestId('clip-status');

async function clipOf(page: Page): Promise<ClipRow> {
  const row = (await readRows<ClipRow>(page, 'clips')).find((c) => c.name === CLIP);
  if (!row) throw new Error(`no clip "${CLIP}" in this browser`);
  return row;
}

/** 1:1, so one screen pixel is one image pixel (a reload of the clip after a pulled change may refit the view). */
async function oneToOne(page: Page) {
  await page.getByRole('button', { name: 'Actual pixels (1:1)' }).click();
  await expect(page.getByTestId('editor-canvas')).toHaveAttribute('data-view', /^1 /);
}

async function openClip(page: Page) {
  await page.getByTestId('clip-card').filter({ hasText: CLIP }).click();
  await expect(page.getByTestId('editor-canvas')).toHaveAttribute('data-frame', '0');
  // The picture came from the server (a pulled frame has none here until someone shows it).
  await expect(page.getByTestId('editor-canvas')).toHaveAttribute('data-image', 'shown');
  await oneToOne(page);
}

/** Ids of a clip's rows of one table, sorted. */
async function idsOf(page: Page, table: string, clipId: string): Promise<string[]> {
  return (await readRows<IdRow>(page, table)).filter((r) => r.clipId === clipId).map((r) => r.id).sort();
}

for (const backend of teamBackends()) {
  test.describe(`team sync on ${backend}`, () => {
    let server: TeamServer;
    test.beforeAll(async () => {
      test.setTimeout(180_000);
      server = await startTeamServer(backend, ['mia', 'ann', 'rev']);
    });
    test.afterAll(async () => server?.stop());

    test('share, paint, review live, request changes, fix, approve; every store agrees', async ({ browser }) => {
      test.setTimeout(300_000);
      // mia shares the demo project and sets the team up.
      const mia = await signedInPage(browser, server, 'mia');
      await mia.getByRole('button', { name: 'Open demo project' }).click();
      await expect(mia.getByTestId('clip-card')).toHaveCount(3, { timeout: 60_000 });
      await mia.getByRole('button', { name: 'Share to server' }).click();
      await synced(mia);
      const members = mia.getByTestId('members-panel');
      await members.locator('summary').click();
      for (const [name, role] of [
        ['ann', 'annotator'],
        ['rev', 'reviewer'],
      ]) {
        await members.getByLabel('Username to add').fill(name);
        await members.getByLabel('Role to give').selectOption(role);
        await members.getByRole('button', { name: 'Add member' }).click();
        await expect(members.locator(`[data-testid="member-row"][data-username="${name}"]`)).toContainText(role);
      }
      const board = mia.getByTestId('assignment-board');
      await board.locator('summary').click();
      await mia.getByLabel('Search clips').fill('potato (demo 2)');
      await expect(mia.getByTestId('clip-card')).toHaveCount(1);
      await board.getByLabel('Assignee').fill('ann');
      await board.getByRole('button', { name: 'Assign' }).click();
      await expect.poll(async () => (await clipOf(mia)).assignee).toBe('ann');
      await synced(mia);

      // ann and rev open the project from the server.
      const ann = await signedInPage(browser, server, 'ann');
      const rev = await signedInPage(browser, server, 'rev');
      for (const page of [ann, rev]) {
        await page.getByTestId('server-project-row').getByRole('button', { name: 'Open' }).click();
        await expect(page.getByTestId('clip-card')).toHaveCount(3, { timeout: 60_000 });
      }
      const clipId = (await clipOf(ann)).id;
      expect((await clipOf(rev)).id).toBe(clipId);

      // rev keeps the clip open; ann paints frame 1 and submits.
      await openClip(rev);
      await openClip(ann);
      await expect(ann.getByTestId('clip-presence')).toContainText('rev');
      await ann.keyboard.press('1');
      await drag(ann, 150, 120, 300, 120);
      await waitSaved(ann);
      await ann.getByTestId('review-bar').getByRole('button', { name: 'Submit for review', exact: true }).click();
      await ann.getByTestId('submit-warning').getByRole('button', { name: 'Submit anyway' }).click();
      await expect(status(ann)).toHaveAttribute('data-status', 'submitted');

      // rev sees it live: the status, and ann's stroke in the stored layer.
      await expect(status(rev)).toHaveAttribute('data-status', 'submitted', { timeout: 30_000 });
      await expect
        .poll(async () => (await readRows<{ clipId: string; source: string; author: string }>(rev, 'revisions')).filter((r) => r.clipId === clipId && r.source === 'gt').map((r) => r.author), { timeout: 30_000 })
        .toContain('ann');

      // rev reviews: a pinned comment, frame 2 rejected, changes requested.
      await rev.getByTestId('review-bar').getByRole('button', { name: 'Start review', exact: true }).click();
      await expect(status(rev)).toHaveAttribute('data-status', 'in_review');
      await oneToOne(rev);
      await rev.getByRole('button', { name: 'Add comment' }).click();
      await clickAt(rev, 120, 125);
      await rev.getByLabel(/Comment on frame 1 at \(120, 125\)/).fill('the peel continues to the left');
      await rev.getByRole('button', { name: 'Post comment' }).click();
      await rev.getByRole('button', { name: 'Reviewer mode' }).click();
      await rev.keyboard.press('a');
      // A verdict key waits for the previous verdict to be saved.
      await expect(rev.getByTestId('verdict-tally')).toHaveText('1 accepted · 0 rejected · 19 open');
      await rev.keyboard.press('r');
      await rev.getByLabel(/Reject frame 2: what is wrong/).fill('the peel is missing here');
      await rev.getByLabel(/Reject frame 2: what is wrong/).press('Enter');
      await expect(rev.getByTestId('verdict-tally')).toHaveText('1 accepted · 1 rejected · 18 open');
      await rev.getByRole('button', { name: 'Reviewer mode' }).click(); // its panel would cover the request form
      await rev.getByTestId('review-bar').getByRole('button', { name: 'Request changes…' }).click();
      await rev.getByRole('button', { name: 'Send back to the annotator' }).click();
      await expect(status(rev)).toHaveAttribute('data-status', 'changes_requested');

      // ann sees the request and the pin arrive live, fixes frame 2 and resubmits.
      await expect(status(ann)).toHaveAttribute('data-status', 'changes_requested', { timeout: 30_000 });
      await expect(ann.getByTestId('editor-canvas')).toHaveAttribute('data-pins', '120,125', { timeout: 30_000 });
      await expect(ann.getByTestId('change-request')).toContainText('rev requested changes');
      await ann.keyboard.press('ArrowRight');
      await expect(ann.getByTestId('frame-indicator')).toHaveText('frame 2 / 20');
      await oneToOne(ann);
      await ann.keyboard.press('1');
      await drag(ann, 150, 200, 320, 200);
      await waitSaved(ann);
      await ann.getByTestId('review-bar').getByRole('button', { name: 'Submit for review', exact: true }).click();
      await ann.getByTestId('submit-warning').getByRole('button', { name: 'Submit anyway' }).click();
      await expect(status(ann)).toHaveAttribute('data-status', 'submitted');

      // rev accepts every frame and approves.
      await expect(status(rev)).toHaveAttribute('data-status', 'submitted', { timeout: 30_000 });
      await rev.getByTestId('review-bar').getByRole('button', { name: 'Start review', exact: true }).click();
      await expect(status(rev)).toHaveAttribute('data-status', 'in_review');
      await rev.getByRole('button', { name: 'Reviewer mode' }).click();
      for (let k = 0; k < 20; k++) {
        const cell = rev.getByTestId('verdict-cell').nth(k);
        if ((await cell.getAttribute('data-verdict')) === 'accept') continue;
        await cell.click();
        await expect(rev.getByTestId('frame-indicator')).toHaveText(`frame ${k + 1} / 20`);
        await rev.keyboard.press('a');
        await expect(cell).toHaveAttribute('data-verdict', 'accept');
      }
      await expect(rev.getByTestId('verdict-tally')).toHaveText('20 accepted · 0 rejected · 0 open');
      await rev.getByRole('button', { name: 'Reviewer mode' }).click();
      await rev.getByTestId('review-bar').getByRole('button', { name: 'Approve', exact: true }).click();
      await expect(status(rev)).toHaveAttribute('data-status', 'approved');
      await expect(status(ann)).toHaveAttribute('data-status', 'approved', { timeout: 30_000 });

      // Every store and the server agree, row for row.
      for (const page of [mia, ann, rev]) await synced(page);
      await mia.goto('/#/');
      await mia.getByTestId('project-row').first().click();
      await synced(mia);
      const pulled = await ann.evaluate(async (projectId) => {
        const res = await fetch(`/api/projects/${projectId}/sync/pull?after=0&limit=1000`);
        return (await res.json()) as { changes: { kind: string; id: string; row: { clipId?: string } }[] };
      }, (await clipOf(ann)).projectId);
      const serverIds = (kind: string) => pulled.changes.filter((c) => c.kind === kind && c.row.clipId === clipId).map((c) => c.id).sort();
      for (const [table, kind] of [
        ['revisions', 'revision'],
        ['clipEvents', 'clipEvent'],
        ['frameVerdicts', 'frameVerdict'],
        ['comments', 'comment'],
      ] as const) {
        const expected = serverIds(kind);
        expect(expected.length, `${kind} rows on the server`).toBeGreaterThan(0);
        for (const page of [mia, ann, rev]) await expect.poll(() => idsOf(page, table, clipId), { timeout: 30_000 }).toEqual(expected);
      }
      const frame1 = async (page: Page) => {
        const l = (await readRows<LayerRow>(page, 'layers')).find((r) => r.clipId === clipId && r.source === 'gt' && r.frameIndex === 0);
        return l ? `${l.act.counts} | ${l.trf.counts}` : null;
      };
      const annFrame1 = await frame1(ann);
      expect(annFrame1).not.toBeNull();
      expect(await frame1(rev)).toBe(annFrame1);
      expect(await frame1(mia)).toBe(annFrame1);
      for (const page of [mia, ann, rev]) expect((await clipOf(page)).status).toBe('approved');

      // The trash is the team's (docs/sync.md "Deletions"): ann may not move a clip there; mia's move reaches ann, every row kept.
      const projectId = (await clipOf(ann)).projectId;
      await ann.goto(`/#/p/${projectId}`);
      const otherCard = ann.getByTestId('clip-card').filter({ hasNotText: CLIP }).first();
      const otherId = (await otherCard.getAttribute('data-clip-id'))!;
      const otherName = (await otherCard.getByTestId('clip-name').textContent())!;
      const otherOf = async (page: Page) => (await readRows<ClipRow & { deletedAt?: number }>(page, 'clips')).find((c) => c.id === otherId)!;
      const framesOf = async (page: Page) => (await readRows<{ clipId: string }>(page, 'frames')).filter((f) => f.clipId === otherId).length;
      const frames = await framesOf(ann);
      await otherCard.getByRole('button', { name: `Move ${otherName} to the trash` }).click();
      await expect(ann.getByRole('alert').filter({ hasText: 'Only a project manager may move a clip of a team project to the trash' })).toBeVisible();
      expect((await otherOf(ann)).deletedAt).toBeUndefined();
      await mia.locator(`[data-testid="clip-card"][data-clip-id="${otherId}"]`).getByRole('button', { name: `Move ${otherName} to the trash` }).click();
      await expect.poll(async () => (await otherOf(mia)).deletedAt).toBeGreaterThan(0);
      const trashedAt = (await otherOf(mia)).deletedAt;
      await expect.poll(async () => (await otherOf(ann)).deletedAt, { timeout: 30_000 }).toBe(trashedAt);
      await expect(ann.getByTestId('trashed-clip')).toContainText(otherName);
      await expect(ann.getByTestId('clip-trash')).toContainText('deleting for good removes only this browser');
      expect(await framesOf(ann)).toBe(frames);
    });
  });
}
