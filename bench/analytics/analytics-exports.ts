import { mkdir, readdir, rm } from 'node:fs/promises';
import { median } from '../support.js';

export interface ExportTiming {
  path: string;
  medianMs: number;
  runsMs: number[];
  bytes: number;
}

/** Files under `dir`, at any depth, but the store's temporary ones. */
async function storedFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile() && !e.name.endsWith('.tmp')).map((e) => e.name);
}

/**
 * Time from the request to the file being ready, as a client meets it the first time after a state
 * update: the export folder is emptied before each run, so each request builds the file (the route
 * answers its 302 only once the file is stored). The signed link of the first run is downloaded once,
 * without the token, to see that it serves the file.
 */
export async function timeExport(origin: string, path: string, token: string, exportDir: string, runs: number): Promise<ExportTiming> {
  const runsMs: number[] = [];
  let bytes = 0;
  for (let run = 0; run < runs; run++) {
    await rm(exportDir, { recursive: true, force: true });
    await mkdir(exportDir, { recursive: true });
    const started = performance.now();
    const response = await fetch(`${origin}${path}`, { headers: { authorization: `Bearer ${token}` }, redirect: 'manual' });
    runsMs.push(performance.now() - started);
    const location = response.headers.get('location');
    if (response.status !== 302 || location === null) throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
    if ((await storedFiles(exportDir)).length !== 1) throw new Error(`${path}: the 302 came before the file was stored in ${exportDir}`);
    if (run === 0) {
      const download = await fetch(new URL(location, origin));
      if (download.status !== 200) throw new Error(`${path}: its link answered ${download.status}`);
      bytes = (await download.arrayBuffer()).byteLength;
    }
  }
  return { path, medianMs: median(runsMs), runsMs: runsMs.map((ms) => Math.round(ms)), bytes };
}
