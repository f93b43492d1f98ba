/**
 * The app served over plain http from a LAN address. Such a page is not a secure context:
 * no crypto.randomUUID, no Web Locks, no Origin Private File System. The app must still create
 * projects and import clips (ids from crypto.getRandomValues), keep one editing tab per clip (tabs
 * ask each other over a BroadcastChannel), and say plainly what is missing.
 *
 * Chromium counts localhost and 127.0.0.1 as secure, so the built app is reached under the name
 * lan.test, mapped to 127.0.0.1 by the browser's host resolver; `vite preview` refuses unknown host
 * names, so a small static server serves the same build.
 */
import { test, expect } from '@playwright/test';
import config from '../playwright.config';
import { serveFolder, type StaticServer } from './helpers/staticServer';
import { readRows } from './helpers/store';
import { writeFrames } from './fixtures/files';

const V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const base = config.use?.launchOptions ?? {};
test.use({ launchOptions: { ...base, args: [...(base.args ?? []), '--host-resolver-rules=MAP lan.test 127.0.0.1'] } });

let server: StaticServer;
let origin = '';
test.beforeAll(async () => {
  server = await serveFolder(process.env.SPOC_E2E_DIST ?? 'dist');
  origin = `http://lan.test:${server.port}`;
});
test.afterAll(async () => server?.close());

test('over plain http on a LAN name: a project and a clip get ids, and a banner says what the browser withholds', async ({ browser }, info) => {
  const context = await browser.newContext({ baseURL: origin });
  const page = await context.newPage();
  await page.goto('/');
  expect(await page.evaluate(() => ({ secure: window.isSecureContext, uuid: typeof crypto.randomUUID, locks: typeof navigator.locks }))).toEqual({
    secure: false,
    uuid: 'undefined',
    locks: 'undefined',
  });

  // A project and a clip: both need new ids.
  await page.getByLabel('New project name').fill('Over the LAN');
  await page.getByRole('button', { name: 'New project' }).click();
  await expect(page.getByTestId('project-name')).toHaveText('Over the LAN');
  const dir = info.outputPath('frames');
  await writeFrames(dir, [[320, 180], [320, 180], [320, 180]]);
  await page.getByTestId('import-folder').setInputFiles(dir);
  await expect(page.getByTestId('clip-card')).toHaveCount(1, { timeout: 60_000 });
  const [project] = await readRows<{ id: string }>(page, 'projects');
  const [clip] = await readRows<{ id: string; projectId: string; frameCount: number }>(page, 'clips');
  expect(project.id).toMatch(V4);
  expect(clip).toMatchObject({ projectId: project.id, frameCount: 3 });
  expect(clip.id).toMatch(V4);
  expect(clip.id).not.toBe(project.id);

  // The banner says what the browser withholds here.
  const banner = page.getByTestId('insecure-context');
  await expect(banner.locator('p')).toHaveText(
    `This page is served over plain http from lan.test:${server.port}: the browser withholds tab locks and the crash journal here, ` +
      'so two tabs could overwrite each other and a browser crash could lose work. Open it at https:// or http://localhost.',
  );

  // Folded to one line, never gone: it is back after a reload.
  await banner.getByRole('button', { name: 'Fold' }).click();
  await expect(banner).toBeHidden();
  await expect(page.getByTestId('insecure-context-folded')).toContainText(`Plain http from lan.test:${server.port}`);
  await page.reload();
  await expect(page.getByTestId('insecure-context')).toBeVisible();
  await context.close();
});

test('without Web Locks, a second tab on the same clip still opens it read-only', async ({ browser }) => {
  const context = await browser.newContext({ baseURL: origin });
  const page = await context.newPage();
  await page.goto('/');
  await page.getByRole('button', { name: 'Open demo project' }).click();
  await expect(page.getByTestId('clip-card')).toHaveCount(3, { timeout: 60_000 });
  await page.getByTestId('clip-card').first().click();
  await expect(page.getByTestId('editor-canvas')).toHaveAttribute('data-frame', '0');
  await expect(page.getByTestId('read-only')).toBeHidden();

  const second = await context.newPage();
  await second.goto(page.url());
  await expect(second.getByTestId('editor-canvas')).toHaveAttribute('data-frame', '0');
  await expect(second.getByTestId('read-only')).toBeVisible();
  await context.close();
});
