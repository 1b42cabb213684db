import { readdirSync, readFileSync } from 'node:fs';

// Test helper only (not exported from index.ts). The shared fixtures sit beside the repository folder:
// /work/main/libs/exchange/src -> /work/shared/fixtures/hyperliquid.
export const FIXTURES_DIR = new URL('../../../../shared/fixtures/hyperliquid/', import.meta.url);

export function fixtureText(name: string): string {
  return readFileSync(new URL(name, FIXTURES_DIR), 'utf8');
}

export function fixtureJson(name: string): unknown {
  return JSON.parse(fixtureText(name));
}

export function fixtureNames(): string[] {
  return readdirSync(FIXTURES_DIR)
    .filter((name) => name.endsWith('.json'))
    .sort();
}
