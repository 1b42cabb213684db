import { ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

// Each app as it runs in production: the built entry point in its own process (`npm test` builds first).
const entry = (app: string) => fileURLToPath(new URL(`../../dist/apps/${app}/src/main.js`, import.meta.url));

export interface Run {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/** Starts `app` (api, ingestor, dispatcher, cli, all-in-one) with this process's environment and `env` on top. */
export function run(app: string, env: Record<string, string>, args: string[] = []): Run {
  const child = spawn(process.execPath, [entry(app), ...args], { env: { ...process.env, LOG_LEVEL: 'info', ...env } });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

/** Waits for `text` in the output. The limit only catches a hang: a process loads for seconds on a busy machine. */
export async function waitFor(runInfo: Run, text: string, timeoutMs = 45_000): Promise<void> {
  for (const end = Date.now() + timeoutMs; Date.now() < end;) {
    if (runInfo.output().includes(text)) return;
    if (runInfo.child.exitCode !== null) throw new Error(`exited early:\n${runInfo.output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`"${text}" never appeared:\n${runInfo.output()}`);
}
