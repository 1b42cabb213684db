import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import type { ApiHarness } from '../support/api-harness.js';
import { screenshot, startDashboard } from '../support/browser.js';

const EMAIL = 'grace@example.com';
const PASSWORD = 'a long browser password';

/** axe-core's serious and critical findings on the page as it is now, by rule and the elements it names. */
async function seriousViolations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ rule: v.id, targets: v.nodes.map((n) => n.target.join(' ')) }));
}

const BUILT_ASSETS = fileURLToPath(new URL('../../dist/web/assets/', import.meta.url));

describe('the dashboard in a real browser', () => {
  let api: ApiHarness;
  let browser: Browser;
  let origin: string;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ api, browser, origin, close } = await startDashboard());
  });
  afterAll(() => close?.());

  // First: the clipboard answers a page only while no other browser context has been opened before it.
  it('signs up, signs out and in again, creates a key the REST API accepts, and revokes it (then 401)', async () => {
    const context = await browser.newContext();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(`${origin}/`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'sign-in');

    await page.getByRole('button', { name: 'Create an account' }).click();
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'sign-up');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
    await expect(page.getByText(`${EMAIL} · free plan`).isVisible()).resolves.toBe(true);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toBe('Email or password is wrong');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
    await expect(page.getByText('No keys yet.').isVisible()).resolves.toBe(true);

    await page.getByLabel('Label').fill('browser key');
    await page.getByLabel('Expires in (days, optional)').fill('7');
    await page.getByRole('button', { name: 'Create key' }).click();
    const shown = page.getByLabel('New key “browser key”');
    await shown.waitFor();
    const token = await shown.inputValue();
    await page.getByRole('button', { name: 'Copy' }).click();
    await page.getByRole('button', { name: 'Copied' }).waitFor();
    await expect(page.evaluate('navigator.clipboard.readText()')).resolves.toBe(token);
    const row = page.getByRole('row', { name: /browser key/ });
    await expect(row.getByRole('cell').nth(1).textContent()).resolves.toBe(`…${token.slice(-4)}`);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'api-keys');

    expect((await api.get('/api/external/usage', token)).status).toBe(200);
    await page.getByRole('link', { name: 'Usage' }).click();
    await page.getByRole('heading', { name: 'Usage' }).waitFor();
    await page.getByText('1 of 100').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'usage');
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('heading', { name: 'API keys' }).waitFor();

    await page.getByRole('button', { name: 'Revoke browser key' }).click();
    await page.getByText('No keys yet.').waitFor();
    expect(await api.statusOnceRevoked('/api/external/usage', token)).toBe(401);
    await screenshot(page, 'api-keys-revoked');
    expect(pageErrors).toEqual([]);
  });

  it('is served by the api at / from its own bundle, under 200 kB gzipped', async () => {
    const page = await browser.newPage();
    const fromElsewhere: string[] = [];
    page.on('request', (req) => void (new URL(req.url()).origin !== origin && fromElsewhere.push(req.url())));
    await page.goto(`${origin}/`);
    await expect(page.title()).resolves.toBe('Tidewatch dashboard');
    expect(fromElsewhere).toEqual([]);
    const files = await readdir(BUILT_ASSETS);
    const gzipped = await Promise.all(files.map(async (file) => gzipSync(await readFile(BUILT_ASSETS + file)).length));
    expect(gzipped.reduce((a, b) => a + b, 0)).toBeLessThan(200 * 1024);
  });

  it('leaves the API docs where they were: Swagger UI at /docs', async () => {
    const page = await browser.newPage();
    await page.goto(`${origin}/docs`);
    await expect(page.getByRole('heading', { name: /Tidewatch API/ }).isVisible()).resolves.toBe(true);
    await screenshot(page, 'api-docs');
  });
});
