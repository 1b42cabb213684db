import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { screenshot, startDashboard } from '../support/browser.js';

const BUILT_ASSETS = fileURLToPath(new URL('../../dist/web/assets/', import.meta.url));

describe('the dashboard in a real browser', () => {
  let browser: Browser;
  let origin: string;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ browser, origin, close } = await startDashboard());
  });
  afterAll(() => close?.());

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
