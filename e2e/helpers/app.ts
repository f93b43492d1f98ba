/** Steps shared by specs, written so the specs read like what a user does. */
import { expect, type Page } from '@playwright/test';

export async function createProject(page: Page, name: string): Promise<string> {
  await page.goto('/');
  await page.getByLabel('New project name').fill(name);
  await page.getByRole('button', { name: 'New project' }).click();
  await expect(page.getByTestId('project-name')).toHaveText(name);
  const id = decodeURIComponent(new URL(page.url()).hash.split('/')[2]);
  expect(id).toMatch(/[0-9a-f-]{36}/);
  return id;
}

export async function expectError(page: Page, text: string | RegExp): Promise<void> {
  await expect(page.getByRole('alert').filter({ hasText: text })).toBeVisible();
}
