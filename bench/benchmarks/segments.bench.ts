import { benchConsumerToken, LoadResult, load, median, progress, startServer, stopServer } from '../support.js';

const CONNECTIONS = 32;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const PATH = '/api/external/segments';

const ENV = {
  DATABASE_URL: process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/tidewatch_bench',
  REDIS_PREFIX: 'twbench',
  JWT_SECRET: 'tidewatch-bench-secret-0123456789',
  LOG_LEVEL: 'info',
};

function checked(id: string, result: LoadResult): LoadResult {
  if (result.non2xx || result.errors) throw new Error(`server ${id} answered ${result.non2xx} non-2xx and ${result.errors} errors`);
  return result;
}

const SERVERS = [
  { id: 'a', label: 'api pipeline (JWT, rate limit, usage, logging)', script: 'segments-api.server.js', port: 3911, auth: true },
  { id: 'b', label: 'bare NestJS on express', script: 'segments-bare-nest.server.js', port: 3912, auth: false },
  { id: 'c', label: 'bare node:http', script: 'segments-node-http.server.js', port: 3913, auth: false },
] as const;

export async function segmentsBenchmark() {
  const token = await benchConsumerToken(ENV, 'bench');
  const runs: Record<string, LoadResult[]> = { a: [], b: [], c: [] };
  const sideBySide: Array<{ a: LoadResult; b: LoadResult }> = [];
  const url = (server: (typeof SERVERS)[number]) => `http://127.0.0.1:${server.port}${PATH}`;
  const headersOf = (server: (typeof SERVERS)[number]) => (server.auth ? { authorization: `Bearer ${token}` } : undefined);
  const children = [];
  for (const server of SERVERS) children.push(await startServer(server.script, { ...ENV, PORT: String(server.port) }));
  try {
    for (const server of SERVERS) await load(url(server), { connections: CONNECTIONS, seconds: 2, headers: headersOf(server) }); // warm-up
    // Rounds interleave the three servers so drift on the machine hits all of them alike.
    for (let round = 1; round <= ROUNDS; round++) {
      for (const server of SERVERS) {
        const result = checked(
          server.id,
          await load(url(server), { connections: CONNECTIONS, seconds: SECONDS, headers: headersOf(server) }),
        );
        runs[server.id].push(result);
        progress(
          `round ${round}/${ROUNDS} ${server.id}: ${Math.round(result.requestsPerSecond)} req/s, p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms`,
        );
      }
      // a and b loaded at the same time on the same core: the scheduler shares the core between
      // them, so whatever the machine loses meanwhile (steal time) both lose alike and their
      // req/s ratio is the ratio of their CPU cost per request.
      const [a, b] = await Promise.all(
        [SERVERS[0], SERVERS[1]].map((server) =>
          load(url(server), { connections: CONNECTIONS, seconds: SECONDS, headers: headersOf(server) }),
        ),
      );
      sideBySide.push({ a: checked('a', a), b: checked('b', b) });
      progress(
        `round ${round}/${ROUNDS} a and b side by side: ${Math.round(a.requestsPerSecond)} and ${Math.round(b.requestsPerSecond)} req/s, a/b ${(a.requestsPerSecond / b.requestsPerSecond).toFixed(3)}`,
      );
    }
  } finally {
    for (const child of children) await stopServer(child);
  }
  const summary = Object.fromEntries(
    SERVERS.map((s) => [
      s.id,
      {
        label: s.label,
        requestsPerSecond: Math.round(median(runs[s.id].map((r) => r.requestsPerSecond))),
        p50Ms: median(runs[s.id].map((r) => r.p50Ms)),
        p99Ms: median(runs[s.id].map((r) => r.p99Ms)),
      },
    ]),
  );
  // Each round measures a, b and c back to back, so a round's ratio compares them under the same
  // machine conditions; the median of those ratios is the figure (the ratio of medians is shown too).
  const roundRatios = (x: 'a' | 'b' | 'c', y: 'a' | 'b' | 'c') => runs[x].map((r, i) => r.requestsPerSecond / runs[y][i].requestsPerSecond);
  const ratioAB = median(roundRatios('a', 'b'));
  const sideBySideRatios = sideBySide.map(({ a, b }) => a.requestsPerSecond / b.requestsPerSecond);
  const ratioABSideBySide = median(sideBySideRatios);
  const ratioAC = median(roundRatios('a', 'c'));
  return {
    name: 'segments',
    settings: {
      connections: CONNECTIONS,
      secondsPerRun: SECONDS,
      rounds: ROUNDS,
      path: PATH,
      statistic: 'req/s: median of rounds; ratios: median of per-round ratios',
    },
    servers: summary,
    ratios: {
      aOverB: Number(ratioAB.toFixed(3)),
      aOverC: Number(ratioAC.toFixed(3)),
      bOverC: Number(median(roundRatios('b', 'c')).toFixed(3)),
      perRoundAOverB: roundRatios('a', 'b').map((r) => Number(r.toFixed(3))),
      aOverBOfMedians: Number((summary.a.requestsPerSecond / summary.b.requestsPerSecond).toFixed(3)),
      aOverBSideBySide: Number(ratioABSideBySide.toFixed(3)),
      perRoundAOverBSideBySide: sideBySideRatios.map((r) => Number(r.toFixed(3))),
    },
    target: { aOverB: 0.8, metBackToBack: ratioAB >= 0.8, metSideBySide: ratioABSideBySide >= 0.8 },
    runs: { ...runs, sideBySide },
    table: [
      ...SERVERS.map((s) => ({
        server: `(${s.id}) ${s.label}`,
        'req/s': summary[s.id].requestsPerSecond,
        'p50 ms': summary[s.id].p50Ms,
        'p99 ms': summary[s.id].p99Ms,
      })),
      { server: 'a/b back to back, median of rounds (target >= 0.8)', 'req/s': ratioAB.toFixed(3), 'p50 ms': '', 'p99 ms': '' },
      { server: 'a/b side by side, median of rounds (target >= 0.8)', 'req/s': ratioABSideBySide.toFixed(3), 'p50 ms': '', 'p99 ms': '' },
      { server: 'a/c, median of rounds', 'req/s': ratioAC.toFixed(3), 'p50 ms': '', 'p99 ms': '' },
    ],
  };
}
