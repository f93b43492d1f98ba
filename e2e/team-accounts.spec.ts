/**
 * Signing in to a real team server (`spoc-studio serve`, on the embedded database and, in CI, on
 * Debian's PostgreSQL), from the header, in real Chromium:
 * (a) a wrong password is refused with the server's message and nobody is signed in;
 * (b) signed in, the account is the author: the free-text "you are" field is gone and a stroke's
 *     revision row names the account; the session survives a reload;
 * (c) signing out brings the "Sign in" button and the name field back.
 * Served without a server (vite preview, every other spec), the header shows no account corner.
 */
import { test, expect } from '@playwright/test';
import { readRows } from './helpers/store';
import { drag, openEditor, waitSaved } from './helpers/editor';
import { startTeamServer, teamBackends, TEAM_PASSWORD, type TeamServer } from './helpers/teamServer';

const CLIP = 'peeling potato (demo 2)';

interface RevisionRow { clipId: string; source: string; author: string; seq: number }

test('served without a team server, the header has no account corner', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByLabel('Your name')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sign in' })).toHaveCount(0);
});

for (const backend of teamBackends()) {
  test.describe(`team server on ${backend}`, () => {
    let server: TeamServer;
    test.beforeAll(async () => {
      test.setTimeout(180_000);
      server = await startTeamServer(backend, ['ann']);
    });
    test.afterAll(async () => server?.stop());

    test('sign in, paint as the account, reload, sign out', async ({ page }) => {
      await page.goto(server.url);
      await expect(page.getByLabel('Your name')).toBeVisible();

      // (a) A wrong password: the server's answer, shown in the form; still signed out.
      await page.getByRole('button', { name: 'Sign in' }).click();
      const form = page.getByRole('form', { name: 'Sign in' });
      await form.getByLabel('Username').fill('ann');
      await form.getByLabel('Password').fill('not the password');
      await form.getByRole('button', { name: 'Sign in' }).click();
      await expect(form.getByRole('alert')).toContainText(/password/i);
      await expect(page.getByText('signed in as')).toHaveCount(0);

      // (b) The right one.
      await form.getByLabel('Password').fill(TEAM_PASSWORD);
      await form.getByRole('button', { name: 'Sign in' }).click();
      await expect(page.getByText('signed in as')).toContainText('ann');
      await expect(page.getByLabel('Your name')).toHaveCount(0);

      await page.getByRole('button', { name: 'Open demo project' }).click();
      await expect(page.getByTestId('clip-card')).toHaveCount(3, { timeout: 60_000 });
      await openEditor(page, CLIP);
      await page.keyboard.press('1');
      await drag(page, 150, 120, 300, 120);
      await waitSaved(page);
      const revisions = (await readRows<RevisionRow>(page, 'revisions')).filter((r) => r.source === 'gt');
      expect(revisions.map((r) => r.author)).toEqual(['ann']);

      await page.reload();
      await expect(page.getByText('signed in as')).toContainText('ann');

      // (c) Signing out.
      await page.getByRole('button', { name: 'Sign out' }).click();
      await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
      await expect(page.getByLabel('Your name')).toBeVisible();
    });
  });
}
