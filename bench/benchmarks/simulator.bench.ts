import { createHash, type Hash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InProcessSimulatorEngine, type SimulatorSettings } from '#exchange';
import { BENCH_DIR, progress } from '../support.js';

/**
 * `npm run bench -- simulator`: CPU seconds the simulator takes to generate BENCH_SIMULATOR_HOURS hours
 * (default 48) with the default settings, in 15-minute spans with the books taken at each end, as the
 * first start asks for them. Its output is also checked byte for byte against a record of 7 days made
 * before any speed-up (sha256 of every hourly file and of every span's state; BENCH_SIMULATOR_HOURS=168
 * checks all of it): the pin spec only covers 2h20, and a rounding slip in the exact arithmetic may take
 * days of trading to show. BENCH_SIMULATOR_RECORD=1 writes the record instead (only ever from a
 * simulator whose output is known to be right).
 */
const HOURS = Number(process.env.BENCH_SIMULATOR_HOURS ?? 48);
const RECORD = process.env.BENCH_SIMULATOR_RECORD === '1';
// The pin spec's settings and start, carried on for days.
const START = Date.UTC(2026, 10, 18, 7, 0);
const SETTINGS: SimulatorSettings = { seed: 1, startTimeMs: START, wallets: 300, markets: 8, eventsPerSecond: 1, bookOrders: 5_000 };
const SPAN_MS = 15 * 60_000;
// The source tree's file, not dist's (BENCH_DIR is dist/bench).
const RECORD_FILE = join(BENCH_DIR, '..', '..', 'bench', 'simulator', 'simulator-output.hashes.json');

interface OutputHashes {
  hours: number;
  files: Record<string, string>;
  /** By span end (epoch ms). */
  states: Record<string, string>;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

export async function simulatorBenchmark() {
  const engine = new InProcessSimulatorEngine(SETTINGS);
  const files = new Map<string, Hash>();
  const states: Record<string, string> = {};
  let cpuMicros = 0;
  let lines = 0;
  const wallStarted = performance.now();
  for (let until = START + SPAN_MS; until <= START + HOURS * 3_600_000; until += SPAN_MS) {
    const before = process.cpuUsage();
    const span = await engine.generate(until, true);
    const used = process.cpuUsage(before);
    cpuMicros += used.user + used.system;
    lines += span.lines;
    for (const { path, bytes } of span.files) {
      let hash = files.get(path);
      if (!hash) files.set(path, (hash = createHash('sha256')));
      hash.update(bytes);
    }
    states[until] = sha256(JSON.stringify(span.state));
    if ((until - START) % (6 * 3_600_000) === 0) progress(`${(until - START) / 3_600_000} h, ${(cpuMicros / 1e6).toFixed(1)} s CPU`);
  }
  const wallSeconds = (performance.now() - wallStarted) / 1000;
  const output: OutputHashes = {
    hours: HOURS,
    files: Object.fromEntries([...files].map(([path, hash]) => [path, hash.digest('hex')])),
    states,
  };
  if (RECORD) writeFileSync(RECORD_FILE, `${JSON.stringify(output, null, 2)}\n`);
  return {
    name: 'simulator',
    table: [
      {
        hours: HOURS,
        lines,
        'CPU s (generate)': Number((cpuMicros / 1e6).toFixed(2)),
        'CPU ms per hour': Math.round(cpuMicros / 1000 / HOURS),
        'wall s (with hashing)': Number(wallSeconds.toFixed(2)),
        output: RECORD ? 'recorded' : compareWithRecord(output),
      },
    ],
  };
}

/** Every file and state of this run against the record (a shorter run is checked on its own hours). */
function compareWithRecord(output: OutputHashes): string {
  if (!existsSync(RECORD_FILE)) return 'no record';
  const recorded = JSON.parse(readFileSync(RECORD_FILE, 'utf8')) as OutputHashes;
  const hours = Math.min(output.hours, recorded.hours);
  const last = String(START + hours * 3_600_000);
  const filesDiffering = Object.entries(output.files).filter(([path, hash]) => {
    const hour = hourlyFileStart(path);
    return hour < START + hours * 3_600_000 && recorded.files[path] !== hash;
  });
  const statesDiffering = Object.entries(output.states).filter(
    ([end, hash]) => Number(end) <= Number(last) && recorded.states[end] !== hash,
  );
  const compared = Object.keys(output.files).filter((path) => hourlyFileStart(path) < START + hours * 3_600_000).length;
  if (filesDiffering.length || statesDiffering.length) {
    return `DIFFERS: ${filesDiffering.map(([p]) => p).join(', ')} ${statesDiffering.map(([e]) => new Date(Number(e)).toISOString()).join(', ')}`;
  }
  return `identical (${compared} files, ${Object.keys(output.states).length} states over ${hours} h)`;
}

/** `<stream>/hourly/YYYYMMDD/H` to the epoch ms its hour starts at. */
function hourlyFileStart(path: string): number {
  const [, , day, hour] = path.split('/');
  return Date.UTC(Number(day!.slice(0, 4)), Number(day!.slice(4, 6)) - 1, Number(day!.slice(6, 8)), Number(hour));
}
