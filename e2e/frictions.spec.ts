/**
 * Small frictions a new user meets, each checked the way they met it, in Chromium with the real
 * IndexedDB: notices that followed them across pages and users, a form that forgot their choices,
 * buttons Tab never reached, an ignore reason with nowhere to say why.
 */
import { test, expect, type Page } from '@playwright/test';
import { createProject } from './helpers/app';

async function failAnImport(page: Page): Promise<void> {
  await page.getByTestId('import-video').setInputFiles({ name: 'broken.mp4', mimeType: 'video/mp4', buffer: Buffer.from('not a video at all') });
  await expect(page.getByRole('alert').filter({ hasText: 'broken.mp4' })).toBeVisible();
}

test('a notice stays in the view and with the user it was raised for', async ({ page }) => {
  await createProject(page, 'Notices');
  await failAnImport(page);
  // Leaving the project: its import error does not follow to the project list.
  await page.getByRole('link', { name: 'SPOC Studio' }).click();
  await expect(page.getByRole('heading', { name: 'Projects', exact: true })).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);

  // Becoming someone else clears what was raised for the previous user.
  await page.goBack();
  await failAnImport(page);
  const field = page.getByLabel('Your name');
  await field.fill('someone else');
  await field.press('Tab');
  await expect(page.getByRole('alert')).toHaveCount(0);
});
