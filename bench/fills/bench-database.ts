import { createReadStream, createWriteStream, readFileSync } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';

/** Every row of a table (partitioned ones too) as COPY text in a file. */
export async function copyTableToFile(client: pg.Client, table: string, file: string): Promise<void> {
  await pipeline(client.query(copyTo(`COPY (SELECT * FROM ${table}) TO STDOUT`)), createWriteStream(file));
}

/** `COPY <table> FROM STDIN` from a file in the text format; returns the rows Postgres reports copied. */
export async function copyFileToTable(client: pg.Client, file: string, table: string): Promise<number> {
  const stream = client.query(copyFrom(`COPY ${table} FROM STDIN`));
  await pipeline(createReadStream(file, { highWaterMark: 1 << 20 }), stream);
  return stream.rowCount ?? 0;
}

/**
 * CPU clock ticks the server processes serving this database have used so far, by process id (read
 * from /proc, so only for a server on this machine; an empty map elsewhere). Subtract two readings.
 */
export async function backendCpuTicks(client: pg.Client): Promise<Map<number, number>> {
  const { rows } = await client.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE datname = current_database()`);
  const ticks = new Map<number, number>();
  for (const { pid } of rows) {
    try {
      // Fields 14 and 15 of /proc/<pid>/stat (after the parenthesised command name): user and system ticks.
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      ticks.set(pid, Number(fields[11]) + Number(fields[12]));
    } catch {
      // A process that ended, or a server elsewhere.
    }
  }
  return ticks;
}

/** Seconds of server CPU between two readings (clock ticks are 1/100 s on Linux). */
export function cpuSecondsBetween(before: Map<number, number>, after: Map<number, number>): number {
  let ticks = 0;
  for (const [pid, now] of after) ticks += now - (before.get(pid) ?? 0);
  return ticks / 100;
}
