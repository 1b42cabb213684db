import { LoggerService } from '@nestjs/common';

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
export type LogLevel = keyof typeof LEVELS;

/** Nest's per-module and per-route start-up lines: useful when debugging, noise otherwise. */
const FRAMEWORK_CHATTER = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestFactory']);

/**
 * Structured logs: one JSON object per line on stdout, so any log shipper can index them.
 * Also serves as Nest's LoggerService so framework messages come out in the same shape.
 */
export class JsonLogger implements LoggerService {
  private readonly threshold: number;

  constructor(
    level: LogLevel = 'info',
    private readonly app = 'tidewatch',
    private readonly stream: NodeJS.WritableStream = process.stdout,
  ) {
    this.threshold = LEVELS[level];
  }

  write(level: Exclude<LogLevel, 'silent'>, msg: string, fields?: Record<string, unknown>): void {
    if (LEVELS[level] < this.threshold) return;
    const entry = { level, time: new Date().toISOString(), app: this.app, msg, ...fields };
    this.stream.write(`${JSON.stringify(entry)}\n`);
  }

  enabled(level: Exclude<LogLevel, 'silent'>): boolean {
    return LEVELS[level] >= this.threshold;
  }

  log(message: unknown, context?: string): void {
    const level = context && FRAMEWORK_CHATTER.has(context) ? 'debug' : 'info';
    this.write(level, String(message), context ? { context } : undefined);
  }
  warn(message: unknown, context?: string): void {
    this.write('warn', String(message), context ? { context } : undefined);
  }
  debug(message: unknown, context?: string): void {
    this.write('debug', String(message), context ? { context } : undefined);
  }
  verbose(message: unknown, context?: string): void {
    this.write('debug', String(message), context ? { context } : undefined);
  }
  error(message: unknown, stackOrContext?: string, context?: string): void {
    const fields: Record<string, unknown> = {};
    if (context) fields.context = context;
    if (stackOrContext && stackOrContext.includes('\n')) fields.stack = stackOrContext;
    else if (stackOrContext) fields.context = stackOrContext;
    if (message instanceof Error) {
      fields.stack = message.stack;
      this.write('error', message.message, fields);
      return;
    }
    this.write('error', String(message), fields);
  }
}
