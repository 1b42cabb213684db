import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { ApiHarness } from '../support/api-harness.js';
import { launchBrowser, screenshot } from '../support/browser.js';

describe('the API docs in a real browser', () => {
  let api: ApiHarness;
  let browser: Browser;
  let origin: string;

  beforeAll(async () => {
    api = await ApiHarness.start();
    await api.app.listen(0, '127.0.0.1');
    origin = `http://127.0.0.1:${(api.app.getHttpServer().address() as AddressInfo).port}`;
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await api?.close();
  });

  it('draws Swagger UI with the contract title', async () => {
    const page = await browser.newPage();
    await page.goto(`${origin}/docs`);
    await expect(page.getByRole('heading', { name: /Tidewatch API/ }).isVisible()).resolves.toBe(true);
    await screenshot(page, 'api-docs');
  });
});
