import { spawn, type ChildProcess } from 'node:child_process';
import { freePort } from './free-port.js';

/**
 * A Redis of the test's own, a child process on a free port without persistence: a fault test stops it
 * and starts it again (empty, as a Redis without persistence restarts) without touching the shared one.
 */
export class OwnRedis {
  private child?: ChildProcess;

  private constructor(readonly port: number) {}

  static async start(): Promise<OwnRedis> {
    const redis = new OwnRedis(await freePort());
    await redis.start();
    return redis;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Starts redis-server and waits until it accepts connections. */
  async start(): Promise<void> {
    const args = ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
    const child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    let output = '';
    await new Promise<void>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Ready to accept connections')) resolve();
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', onData);
      child.once('error', (error) =>
        reject(new Error(`The fault tests start a Redis of their own and need redis-server on PATH: ${error.message}`)),
      );
      child.once('exit', (code) => reject(new Error(`redis-server exited ${code}:\n${output}`)));
    });
  }

  /** Stops the server at once (SIGKILL: nothing is saved, every connection drops) and waits for its exit. */
  async stop(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }
}
