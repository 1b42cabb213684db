import { LoggerService } from '@nestjs/common';
import { writeSync } from 'node:fs';

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
export type LogLevel = keyof typeof LEVELS;

/** '000' to '999'. */
const MILLIS = Array.from({ length: 1000 }, (_, ms) => String(ms).padStart(3, '0'));

/** Nest's per-module and per-route start-up lines: useful when debugging, noise otherwise. */
const FRAMEWORK_CHATTER = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestFactory']);

/**
 * Structured logs: one JSON object per line, so any log shipper can index them. Also serves as
 * Nest's LoggerService so framework messages come out in the same shape.
 *
 * Lines are gathered and written once per event-loop turn (an access log line per request would
 * otherwise cost a write system call per request); errors and process exit write at once.
 */
export class JsonLogger implements LoggerService {
  private readonly threshold: number;
  private pending = '';
  private readonly appJson: string;
  private lastSecond = -1;
  /** `YYYY-MM-DDTHH:mm:ss.` of lastSecond. */
  private secondPrefix = '';
  private scheduled = false;

  constructor(
    level: LogLevel = 'info',
    private readonly app = 'tidewatch',
    private readonly fd: number = 1,
  ) {
    this.threshold = LEVELS[level];
    this.appJson = JSON.stringify(app);
    if (this.threshold < LEVELS.silent) process.once('exit', () => this.flush());
  }

  write(level: Exclude<LogLevel, 'silent'>, msg: string, fields?: Record<string, unknown>): void {
    if (LEVELS[level] < this.threshold) return;
    this.append(`${JSON.stringify({ level, time: new Date().toISOString(), app: this.app, msg, ...fields })}\n`, level === 'error');
  }

  private append(line: string, now: boolean): void {
    this.pending += line;
    if (now) this.flush();
    else if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
  }

  /**
   * An info line from pre-serialised fields (`"key":value,...`, valid JSON members), for the
   * per-request access log where building and stringifying an object per request shows up.
   */
  writeRaw(members: string): void {
    if (LEVELS.info < this.threshold) return;
    this.append(`{"level":"info","time":"${this.isoNow()}","app":${this.appJson},${members}}\n`, false);
  }

  /**
   * The current time as ISO 8601. The date and time up to the second are formatted once a second;
   * each line adds only its milliseconds (toISOString per line shows up at thousands of lines a second).
   */
  private isoNow(): string {
    const now = Date.now();
    const ms = now % 1000;
    const second = now - ms;
    if (second !== this.lastSecond) {
      this.lastSecond = second;
      this.secondPrefix = new Date(second).toISOString().slice(0, 20);
    }
    return `${this.secondPrefix}${MILLIS[ms]}Z`;
  }

  enabled(level: Exclude<LogLevel, 'silent'>): boolean {
    return LEVELS[level] >= this.threshold;
  }

  flush(): void {
    this.scheduled = false;
    if (!this.pending) return;
    const text = this.pending;
    this.pending = '';
    try {
      writeSync(this.fd, text);
    } catch {
      // A closed or full pipe must not take the service down with it.
    }
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
