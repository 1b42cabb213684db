import { readdirSync, readFileSync } from 'node:fs';

/** CPU time used so far, in ms: the api process, the Postgres backends of one database, and this (load generating) process. */
export interface CpuTimes {
  apiMs: number;
  postgresMs: number;
  loadMs: number;
  /** Each backend's own time, so that one ending or starting between two readings changes nothing but its own part. */
  backends?: Map<string, number>;
}

// /proc/<pid>/stat counts in clock ticks, 100 a second on Linux.
const TICK_MS = 10;

/** CPU time a process (all its threads) has used so far, in ms; 0 for one that has ended. */
export function processMs(pid: number | string): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return 0; // a process that ended between the listing and the read
  }
}

/** The backends connected to `database` ("postgres: 15/main: <user> <database> <host>" as ps shows them), by pid. */
export function backendsOf(database: string): Map<string, number> {
  const backends = new Map<string, number>();
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const title = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (title.startsWith('postgres:') && title.split(' ').includes(database)) backends.set(pid, processMs(pid));
    } catch {
      // gone meanwhile
    }
  }
  return backends;
}

/**
 * Where a route's CPU goes on this machine (Linux /proc): read before and after a load, the differences
 * divided by the requests served say how many ms of CPU each request cost the api (or any process
 * given), the Postgres backends of `database` (other databases' work on the server left out; parallel
 * workers, which a query of these routes rarely gets, too) and the load generator (this process).
 */
export function cpuTimes(apiPid: number, database: string): CpuTimes {
  const own = process.cpuUsage();
  const backends = backendsOf(database);
  return {
    apiMs: processMs(apiPid),
    postgresMs: [...backends.values()].reduce((a, b) => a + b, 0),
    loadMs: (own.user + own.system) / 1000,
    backends,
  };
}

export function cpuPerRequest(before: CpuTimes, after: CpuTimes, requests: number): CpuTimes {
  const per = (ms: number) => Number((ms / Math.max(1, requests)).toFixed(2));
  let postgres = 0;
  for (const [pid, ms] of after.backends ?? []) postgres += ms - (before.backends?.get(pid) ?? 0);
  return { apiMs: per(after.apiMs - before.apiMs), postgresMs: per(postgres), loadMs: per(after.loadMs - before.loadMs) };
}
