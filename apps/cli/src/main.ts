import 'reflect-metadata';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { parseArgs } from 'node:util';
import { TestDeliveryService } from '#alerts';
import { ConsumerService } from '#auth';
import { DomainError } from '#errors';
import { prepareStartup } from '#runtime';
import { CliModule } from './cli.module.js';

const USAGE = `Usage: npm run cli -- <command>
  consumer create --name NAME --plan free|tier1|tier2|tier3|tier4 [--rate-limit N] [--usage-limit N]
  consumer usage --consumer ID
  token issue --consumer ID [--label TEXT] [--expires-in SECONDS]
  token revoke --token-id ID
  alerts test-endpoint ID              (or --endpoint ID: one signed test delivery; exit code 0 only when delivered)
  migrate
Every command prints one JSON object on stdout.`;

const OPTIONS = {
  name: { type: 'string' },
  plan: { type: 'string' },
  'rate-limit': { type: 'string' },
  'usage-limit': { type: 'string' },
  consumer: { type: 'string' },
  label: { type: 'string' },
  'expires-in': { type: 'string' },
  'token-id': { type: 'string' },
  endpoint: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

const { positionals, values } = (() => {
  try {
    return parseArgs({ allowPositionals: true, options: OPTIONS });
  } catch (error) {
    // An unknown option or a flag without its value (node's ERR_PARSE_ARGS_*): a usage error, exit code 2.
    process.stderr.write(`${JSON.stringify({ error: (error as Error).message })}\n${USAGE}\n`);
    process.exit(2);
  }
})();

class UsageError extends Error {}

function integer(flag: string, required: boolean): number | undefined {
  const raw = values[flag as keyof typeof values] as string | undefined;
  if (raw === undefined) {
    if (required) throw new UsageError(`--${flag} is required`);
    return undefined;
  }
  if (!/^\d+$/.test(raw)) throw new UsageError(`--${flag} must be a positive integer, got ${JSON.stringify(raw)}`);
  return Number(raw);
}

function text(flag: 'name' | 'plan' | 'label' | 'token-id', required: boolean): string | undefined {
  const value = values[flag];
  if (required && !value) throw new UsageError(`--${flag} is required`);
  return value;
}

/** `alerts test-endpoint ID` or `alerts test-endpoint --endpoint ID`. */
function endpointId(): number {
  const given = operands[0];
  if (given === undefined && values.endpoint === undefined) throw new UsageError('the endpoint id is required: alerts test-endpoint ID');
  if (given === undefined) return integer('endpoint', true)!;
  if (values.endpoint !== undefined) throw new UsageError('give the endpoint id once: as ID or as --endpoint ID');
  if (!/^\d+$/.test(given)) throw new UsageError(`the endpoint id must be a positive integer, got ${JSON.stringify(given)}`);
  return Number(given);
}

// 0: done. 1: refused, failed, or (test-endpoint) not delivered. 2: the command line is wrong.
let exitCode = 0;

async function run(app: INestApplicationContext, command: string): Promise<unknown> {
  const service = app.get(ConsumerService);
  switch (command) {
    case 'alerts test-endpoint': {
      const report = await app.get(TestDeliveryService).send(endpointId());
      // The report is the answer either way; only a delivery the receiver accepted exits 0.
      if (report.outcome !== 'delivered') exitCode = 1;
      return report;
    }
    case 'consumer create':
      return service.create({
        name: text('name', true)!,
        plan: text('plan', true)!,
        rateLimitPerMinute: integer('rate-limit', false),
        usageLimit: integer('usage-limit', false),
      });
    case 'consumer usage':
      return service.usage(integer('consumer', true)!);
    case 'token issue':
      return service.issueToken(integer('consumer', true)!, {
        label: text('label', false),
        expiresInSeconds: integer('expires-in', false),
      });
    case 'token revoke':
      return service.revokeToken(text('token-id', true)!);
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}

// A command is two words (`migrate` one); only test-endpoint takes an operand after them.
const command = positionals[0] === 'migrate' ? 'migrate' : positionals.slice(0, 2).join(' ');
const operands = positionals.slice(command.split(' ').length);
const extra = operands.slice(command === 'alerts test-endpoint' ? 1 : 0);
if (extra.length > 0) {
  process.stderr.write(`${JSON.stringify({ error: `unexpected argument "${extra.join(' ')}"` })}\n${USAGE}\n`);
  process.exit(2);
}
if (values.help || !command) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(values.help ? 0 : 2);
}

// stdout carries only the command's JSON answer; start-up messages go to stderr.
await prepareStartup('cli', 2);
if (command === 'migrate') {
  process.stdout.write(`${JSON.stringify({ migrated: true })}\n`);
  process.exit(0);
}
const app = await NestFactory.createApplicationContext(CliModule, { logger: false });
try {
  const result = await run(app, command);
  process.stdout.write(`${JSON.stringify(result)}\n`);
} catch (error) {
  // 2: the command line is wrong (the usage follows). 1: the command was refused (a DomainError: invalid
  // input, unknown consumer or token; its message alone) or it failed (the error whole).
  exitCode = error instanceof UsageError ? 2 : 1;
  const message = error instanceof DomainError || error instanceof UsageError ? error.message : String(error);
  process.stderr.write(`${JSON.stringify({ error: message })}\n${error instanceof UsageError ? `${USAGE}\n` : ''}`);
} finally {
  await app.close();
}
process.exit(exitCode);
