import chromium from '@sparticuz/chromium';
import { mkdir } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium as playwright, type Page } from 'playwright-core';
import { ApiHarness } from './api-harness.js';

/**
 * @sparticuz/chromium's flags meant for a serverless sandbox that would make this browser laxer than a
 * customer's: the tests must see same-origin, cookie and mixed-content rules as they are.
 */
const LAX_FLAGS = new Set(['--disable-web-security', '--allow-running-insecure-content', '--disable-site-isolation-trials']);

/** Where screenshots go: a git-ignored folder that CI keeps as the run's artifacts. */
export const SCREENSHOTS = fileURLToPath(new URL('../artifacts/screenshots/', import.meta.url));

/**
 * Headless Chromium as `npm install` brings it (@sparticuz/chromium unpacks its brotli-packed build
 * with the libraries it needs into the temp folder on first use), driven by playwright-core. It runs as
 * one process (`--single-process`): closing its last page or context ends it, so a spec leaves them open
 * until it closes the browser.
 */
export async function launchBrowser(): Promise<Browser> {
  const executablePath = await chromium.executablePath();
  return playwright.launch({ executablePath, headless: true, args: chromium.args.filter((flag) => !LAX_FLAGS.has(flag)) });
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: `${SCREENSHOTS}${name}.png`, fullPage: true });
}

/** The api as production builds it, listening on a loopback port, with a browser to drive it. */
export async function startDashboard(): Promise<{ api: ApiHarness; browser: Browser; origin: string; close: () => Promise<void> }> {
  const api = await ApiHarness.start();
  await api.app.listen(0, '127.0.0.1');
  const origin = `http://127.0.0.1:${(api.app.getHttpServer().address() as AddressInfo).port}`;
  const browser = await launchBrowser();
  return { api, browser, origin, close: async () => void (await browser.close(), await api.close()) };
}
