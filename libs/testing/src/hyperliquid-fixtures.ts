import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's top folder: the nearest one above this file that holds package.json. */
function repositoryRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('hyperliquid fixtures: no package.json above this file');
    dir = parent;
  }
  return dir;
}

/** Real Hyperliquid samples (info API, hl-node blocks, websocket frames); their sources are in its README. */
export const FIXTURES_DIR = new URL(`file://${join(repositoryRoot(), 'test', 'fixtures', 'hyperliquid')}/`);

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
