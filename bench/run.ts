import 'reflect-metadata';
import { alertsDispatchBenchmark } from './benchmarks/alerts-dispatch.bench.js';
import { alertsMatcherBenchmark } from './benchmarks/alerts-matcher.bench.js';
import { analyticsBenchmark } from './benchmarks/analytics.bench.js';
import { fillsIngestBenchmark } from './benchmarks/fills-ingest.bench.js';
import { firstStartBenchmark } from './benchmarks/first-start.bench.js';
import { orderSnapshotsBenchmark } from './benchmarks/order-snapshots.bench.js';
import { stateReplayBenchmark } from './benchmarks/state-replay.bench.js';
import { segmentsBenchmark } from './benchmarks/segments.bench.js';
import { simulatorBenchmark } from './benchmarks/simulator.bench.js';
import { stateUpdateBenchmark } from './benchmarks/state-update.bench.js';
import { printTable, writeResult } from './support.js';

/** `npm run bench [name ...]`: runs the named benchmarks (all when none), prints a table each, writes bench/results/<name>.json. */
const BENCHMARKS: Record<string, () => Promise<{ name: string; table: Array<Record<string, string | number>> }>> = {
  segments: segmentsBenchmark,
  'state-update': stateUpdateBenchmark,
  'state-replay': stateReplayBenchmark,
  'fills-ingest': fillsIngestBenchmark,
  'order-snapshots': orderSnapshotsBenchmark,
  'first-start': firstStartBenchmark,
  analytics: analyticsBenchmark,
  'alerts-dispatch': alertsDispatchBenchmark,
  'alerts-matcher': alertsMatcherBenchmark,
  simulator: simulatorBenchmark,
};

const wanted = process.argv.slice(2);
for (const name of wanted)
  if (!BENCHMARKS[name]) throw new Error(`unknown benchmark "${name}"; known: ${Object.keys(BENCHMARKS).join(', ')}`);

for (const name of wanted.length ? wanted : Object.keys(BENCHMARKS)) {
  console.log(`\n## ${name}`);
  const result = await BENCHMARKS[name]();
  printTable(result.table);
  console.log(`written to ${writeResult(name, { ...result, measuredAt: new Date().toISOString() })}`);
}
process.exit(0);
