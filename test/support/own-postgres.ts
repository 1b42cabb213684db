import { execFileSync, spawn, type SpawnOptions } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chown, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import pg from 'pg';
import { freePort } from './free-port.js';

/**
 * A Postgres cluster of the test's own, in a temporary folder, on a free port: a fault test stops, restarts and
 * freezes it without touching the shared server other tests run on. Built with the installed server's binaries
 * (`pg_config --bindir`, else `initdb` and `pg_ctl` on PATH); as root, the cluster runs as the `postgres` user,
 * since Postgres refuses to run as root.
 */
export class OwnPostgres {
  private constructor(
    private readonly bin: string,
    readonly dir: string,
    readonly port: number,
    private readonly user: { uid: number; gid: number } | undefined,
  ) {}

  static async start(): Promise<OwnPostgres> {
    const bin = postgresBinDir();
    const dir = await mkdtemp(join(tmpdir(), 'tidewatch-pg-'));
    const user = process.getuid?.() === 0 ? postgresUser() : undefined;
    if (user) await chown(dir, user.uid, user.gid);
    const server = new OwnPostgres(bin, dir, await freePort(), user);
    await server.run('initdb', ['-D', server.data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8']);
    await server.start();
    const admin = new pg.Client({ connectionString: server.url('postgres') });
    await admin.connect();
    await admin.query('CREATE DATABASE tidewatch');
    await admin.end();
    return server;
  }

  private get data(): string {
    return join(this.dir, 'data');
  }

  url(database = 'tidewatch'): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }

  /** Starts the server and waits until it accepts connections. */
  async start(): Promise<void> {
    const options = `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
    await this.run('pg_ctl', ['-D', this.data, '-o', options, '-l', join(this.dir, 'log'), '-w', 'start']);
  }

  /** `pg_ctl stop -m fast`: every session is ended at once, as a restart by an operator or a failover does. */
  async stop(): Promise<void> {
    await this.run('pg_ctl', ['-D', this.data, '-m', 'fast', '-w', 'stop']);
  }

  /** Freezes (SIGSTOP) or thaws (SIGCONT) the server and every backend: connections stay open, nothing answers. */
  async signal(which: 'SIGSTOP' | 'SIGCONT'): Promise<void> {
    const postmaster = Number((await readFile(join(this.data, 'postmaster.pid'), 'utf8')).split('\n')[0]);
    const children = execFileSync('ps', ['-o', 'pid=', '--ppid', String(postmaster)], { encoding: 'utf8' })
      .split('\n')
      .map((line) => Number(line.trim()))
      .filter((pid) => pid > 0);
    for (const pid of [postmaster, ...children]) process.kill(pid, which);
  }

  /** Stops the server (immediately) and deletes its folder. */
  async remove(): Promise<void> {
    if (existsSync(join(this.data, 'postmaster.pid'))) {
      await this.signal('SIGCONT').catch(() => undefined);
      await this.run('pg_ctl', ['-D', this.data, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
    }
    await rm(this.dir, { recursive: true, force: true });
  }

  private run(tool: string, args: string[]): Promise<void> {
    const options: SpawnOptions = { stdio: ['ignore', 'pipe', 'pipe'], ...(this.user ?? {}) };
    return new Promise((resolve, reject) => {
      const child = spawn(join(this.bin, tool), args, options);
      let output = '';
      child.stdout!.on('data', (chunk) => (output += chunk));
      child.stderr!.on('data', (chunk) => (output += chunk));
      child.once('error', reject);
      child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${tool} ${args.join(' ')} exited ${code}:\n${output}`))));
    });
  }
}

/** The folder holding initdb and pg_ctl: pg_config's, else the first on PATH that has both. */
function postgresBinDir(): string {
  const candidates: string[] = [];
  try {
    candidates.push(execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim());
  } catch {
    // no pg_config on PATH: look for the tools themselves
  }
  candidates.push(...(process.env.PATH ?? '').split(delimiter).filter(Boolean));
  const found = candidates.find((dir) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl')));
  if (!found)
    throw new Error(
      'The fault tests start a Postgres of their own and need the server binaries initdb and pg_ctl: ' +
        'none found through `pg_config --bindir` or on PATH. Install the Postgres server package, or add its bin folder to PATH.',
    );
  return found;
}

function postgresUser(): { uid: number; gid: number } {
  try {
    const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    throw new Error('Running as root, the fault tests start their own Postgres as the user `postgres`, and there is no such user.');
  }
}
