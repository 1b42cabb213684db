import { plainToInstance, Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, IsUrl, Matches, Max, Min, ValidationError, validateSync } from 'class-validator';

export const EXCHANGE_SOURCES = ['simulator', 'node', 'hyperliquid'] as const;
export type ExchangeSource = (typeof EXCHANGE_SOURCES)[number];

/** The least JWT_SECRET may hold, in UTF-8 bytes: 256 bits, the size of the HMAC-SHA256 keys derived from it. */
export const JWT_SECRET_MIN_BYTES = 32;

/** Settings whose value a config error never shows (a URL setting shows its password as `***` instead). */
const SECRET_SETTINGS = new Set(['JWT_SECRET', 'S3_SECRET_ACCESS_KEY']);

const toInt = ({ value }: { value: unknown }) => (value === undefined || value === '' ? undefined : Number(value));
const toBool = ({ value }: { value: unknown }) => value === true || value === 'true' || value === '1';

/**
 * Every operating setting of the design (section 7), read from the environment once and validated,
 * so a typo in a setting stops the process at start instead of misbehaving later.
 */
export class AppConfig {
  @IsString()
  DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/tidewatch';

  @IsString()
  REDIS_URL = 'redis://127.0.0.1:6379';

  /** Prefix of every Redis key and BullMQ queue, so several deployments (or test workers) can share one Redis. */
  @IsString()
  REDIS_PREFIX = 'tw';

  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT = 3000;

  /**
   * The secret every signing key is derived from (tokens, list cursors, export links). Unset: one generated on
   * first start and kept in Postgres, shared by every process of the deployment; required with NODE_ENV=production.
   */
  @IsOptional()
  @IsString()
  JWT_SECRET?: string;

  /** `production` refuses to start without JWT_SECRET. */
  @IsOptional()
  @IsString()
  NODE_ENV?: string;

  @IsIn(EXCHANGE_SOURCES)
  EXCHANGE_SOURCE: ExchangeSource = 'simulator';

  @IsOptional()
  @IsString()
  HL_NODE_DATA_DIR?: string;

  @IsString()
  HL_INFO_URL = 'https://api.hyperliquid.xyz/info';

  /** Websocket of the public API, for EXCHANGE_SOURCE=hyperliquid. */
  @IsString()
  HL_WS_URL = 'wss://api.hyperliquid.xyz/ws';

  /** Comma-separated wallet addresses followed by EXCHANGE_SOURCE=hyperliquid (the public API has no exchange-wide feed). */
  @IsOptional()
  @IsString()
  HL_TRACKED_ADDRESSES?: string;

  @Transform(toInt)
  @IsInt()
  SIM_SEED = 1;

  /**
   * History a new simulation backfills, ending now. One day reaches the present in under a minute on a
   * quiet 2-core machine (docs/benchmarks.md, first-start); 7 gives the week the 7-day figures read, in minutes.
   */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  SIM_BACKFILL_DAYS = 1;

  /** Exchange time per wall-clock time once the backfill is done: 1 is real time, more runs ahead of the clock. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  SIM_SPEED = 1;

  /**
   * Test only: the simulator's "now" (epoch ms) instead of the wall clock's, standing still: it backfills to
   * it and waits there. Two runs with the same settings then end at the same exchange time (the fault tests).
   */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  SIM_NOW?: number;

  /** Where the simulator writes its hl-node directory (read back by the same node feed). */
  @IsString()
  SIM_DATA_DIR = 'data/simulator';

  @Transform(toInt)
  @IsInt()
  @Min(2)
  SIM_WALLETS = 300;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(12)
  SIM_MARKETS = 8;

  /** Mean user actions per second of exchange time. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  SIM_EVENTS_PER_SECOND = 1;

  /**
   * Open limit orders the simulated book holds (makers' quote ladders and users' GTC/ALO orders; trigger
   * orders come on top). 350000 is a book the size of Hyperliquid's, for benchmarks.
   */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(1_000_000)
  SIM_BOOK_ORDERS = 5_000;

  /** Exchange time between state updates, in minutes. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  STATE_UPDATE_INTERVAL = 15;

  @Transform(toBool)
  WEBHOOK_ALLOW_LOOPBACK = false;

  /**
   * Webhook requests one dispatcher process keeps in flight (each endpoint also has its own cap of 10).
   * A request mostly waits (on the receiver, Redis, Postgres), so one core keeps many: 128 delivered a
   * fifth more than 64 in `npm run bench -- alerts-dispatch`.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1000)
  DISPATCHER_CONCURRENCY = 128;

  /**
   * Webhook requests one consumer may have in flight across every dispatcher (over all its endpoints),
   * so one consumer's slow receivers cannot take every worker. A consumer at its cap has its jobs
   * delayed, not waiting in a worker.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1000)
  DISPATCHER_IN_FLIGHT_PER_CONSUMER = 64;

  /** Days a finished delivery (delivered, failed, expired, cancelled) and its attempts are kept; a delivery held longer expires. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(3650)
  ALERT_DELIVERY_RETENTION_DAYS = 30;

  /** A webhook request's whole time limit, in ms (connect: 5 s at most); past it the attempt is a retryable timeout. */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(60_000)
  WEBHOOK_TIMEOUT_MS = 15_000;

  /**
   * The api's cache of rendered analytics answers, in MB per api process (0: off). An answer is reused
   * only while the data it was read from is unchanged (docs/architecture.md, "The read cache").
   */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(65_536)
  READ_CACHE_MB = 256;

  /** A websocket stream connection that sends nothing for this long (ms) is closed, as Hyperliquid's are; a ping keeps it open. */
  @Transform(toInt)
  @IsInt()
  @Min(1_000)
  @Max(3_600_000)
  WS_IDLE_TIMEOUT_MS = 60_000;

  /** Seconds a browser's single-use websocket ticket (`POST /api/external/ws/tickets`) stays valid. */
  @Transform(toInt)
  @IsInt()
  @Min(5)
  @Max(600)
  WS_TICKET_TTL_SECONDS = 60;

  /** Where export downloads are kept: `local` (EXPORT_DIR, served by the api at signed paths) or `s3` (any S3-compatible store). */
  @IsIn(['local', 's3'])
  EXPORT_STORE: 'local' | 's3' = 'local';

  /** The local export store's folder: one file per export and state update, reused until the next update. */
  @IsString()
  EXPORT_DIR = 'data/exports';

  /**
   * Connections of the api's export pool, which only export builds use: a build holds one for as long as it
   * streams its file, so twenty builds wait their turn there instead of taking the pool every other route reads through.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(20)
  EXPORT_POOL_SIZE = 2;

  /** EXPORT_STORE=s3: the bucket (required), its region, and an S3-compatible server's address (omitted: AWS). */
  @IsOptional()
  @IsString()
  S3_BUCKET?: string;

  @IsString()
  S3_REGION = 'us-east-1';

  @IsOptional()
  @IsUrl({ require_tld: false, protocols: ['http', 'https'] })
  S3_ENDPOINT?: string;

  /** Omitted: the AWS SDK's own credential chain (environment, profile, instance role). */
  @IsOptional()
  @IsString()
  S3_ACCESS_KEY_ID?: string;

  @IsOptional()
  @IsString()
  S3_SECRET_ACCESS_KEY?: string;

  /** Bucket in the path, not the host name; default: true with S3_ENDPOINT (what S3-compatible servers need), false without. */
  @IsOptional()
  @Transform(toBool)
  S3_FORCE_PATH_STYLE?: boolean;

  /**
   * HYPE in circulation (a decimal): what the holders route's percentOfCirculatingSupply divides by. The
   * default is the supply at the token's launch (333,928,180); set the current figure.
   */
  @Matches(/^(?!0+(\.0+)?$)[0-9]+(\.[0-9]+)?$/, { message: 'HYPE_CIRCULATING_SUPPLY must be a positive decimal number' })
  HYPE_CIRCULATING_SUPPLY = '333928180';

  /**
   * The api's Postgres sessions: the longest a statement may run, in ms (`statement_timeout`); past it Postgres
   * cancels it and the request fails instead of holding a connection of the pool.
   */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(3_600_000)
  API_STATEMENT_TIMEOUT_MS = 30_000;

  /** The api's Postgres sessions: a transaction left idle this long, in ms, is ended by Postgres (`idle_in_transaction_session_timeout`). */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(3_600_000)
  API_IDLE_IN_TRANSACTION_TIMEOUT_MS = 10_000;

  /**
   * How long an api request waits for a connection of the pool, in ms (pg's `connectionTimeoutMillis`: a free
   * connection, or a new one made); past it the request fails instead of queueing behind a Postgres that is away.
   */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(600_000)
  API_POOL_WAIT_MS = 5_000;

  /**
   * The most a process takes to stop on SIGTERM or SIGINT, in ms: past it, whatever still hangs (a webhook
   * request, a Postgres that does not answer), it logs what it was waiting for and exits with status 1.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1_000)
  @Max(600_000)
  SHUTDOWN_TIMEOUT_MS = 25_000;

  @IsIn(['debug', 'info', 'warn', 'error', 'silent'])
  LOG_LEVEL: 'debug' | 'info' | 'warn' | 'error' | 'silent' = 'info';
}

export class ConfigError extends Error {}

/** Builds the config from an environment; throws a ConfigError naming every bad setting. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const known = Object.keys(new AppConfig());
  const present = Object.fromEntries(known.filter((key) => env[key] !== undefined && env[key] !== '').map((key) => [key, env[key]]));
  const config = plainToInstance(AppConfig, present, { exposeDefaultValues: true });
  const problems = validateSync(config, { forbidUnknownValues: false });
  if (config.EXCHANGE_SOURCE === 'node' && !config.HL_NODE_DATA_DIR) {
    problems.push(
      Object.assign(new ValidationError(), {
        property: 'HL_NODE_DATA_DIR',
        value: undefined,
        constraints: { required: 'HL_NODE_DATA_DIR is required when EXCHANGE_SOURCE=node' },
      }),
    );
  }
  if (config.EXPORT_STORE === 's3' && !config.S3_BUCKET) {
    problems.push(
      Object.assign(new ValidationError(), {
        property: 'S3_BUCKET',
        value: undefined,
        constraints: { required: 'S3_BUCKET is required when EXPORT_STORE=s3' },
      }),
    );
  }
  if (config.EXCHANGE_SOURCE === 'hyperliquid') {
    // The public API has no exchange-wide fill feed: only listed wallets can be followed.
    const addresses = (config.HL_TRACKED_ADDRESSES ?? '')
      .split(',')
      .map((a) => a.trim())
      .filter((a) => a !== '');
    const bad = addresses.filter((a) => !/^0x[0-9a-fA-F]{40}$/.test(a));
    const problem =
      addresses.length === 0
        ? 'at least one wallet address is required when EXCHANGE_SOURCE=hyperliquid'
        : bad.length
          ? `not a 0x address of 40 hex digits: ${bad.join(', ')}`
          : null;
    if (problem)
      problems.push(
        Object.assign(new ValidationError(), {
          property: 'HL_TRACKED_ADDRESSES',
          value: config.HL_TRACKED_ADDRESSES,
          constraints: { addresses: problem },
        }),
      );
  }
  const secretProblem = jwtSecretProblem(config);
  if (secretProblem)
    problems.push(
      Object.assign(new ValidationError(), { property: 'JWT_SECRET', value: config.JWT_SECRET, constraints: { secret: secretProblem } }),
    );
  if (problems.length > 0) {
    // Name the value as it was written, not as converted ("eighty", not NaN).
    const lines = problems.map(
      (p) => `${p.property}=${shownValue(p.property, present[p.property] ?? p.value)}: ${Object.values(p.constraints ?? {}).join('; ')}`,
    );
    throw new ConfigError(`Invalid settings:\n  ${lines.join('\n  ')}`);
  }
  return config;
}

const GENERATE_SECRET = 'generate one with `openssl rand -base64 48`';

/** What is wrong with JWT_SECRET, if anything: too short to be a 256-bit key, or left to be generated in production. */
function jwtSecretProblem(config: AppConfig): string | null {
  if (config.JWT_SECRET === undefined) {
    return config.NODE_ENV === 'production'
      ? `JWT_SECRET is required when NODE_ENV=production (a secret of your own, the same for every process of the deployment); ${GENERATE_SECRET}`
      : null;
  }
  return Buffer.byteLength(config.JWT_SECRET, 'utf8') < JWT_SECRET_MIN_BYTES
    ? `JWT_SECRET must be at least ${JWT_SECRET_MIN_BYTES} bytes; ${GENERATE_SECRET}`
    : null;
}

/** A setting's value as a config error prints it: never a secret's, and a URL without its password. */
function shownValue(property: string, value: unknown): string {
  if (value !== undefined && SECRET_SETTINGS.has(property)) return '(hidden)';
  if (typeof value === 'string' && URL.canParse(value)) {
    const url = new URL(value);
    if (url.password) {
      url.password = '***';
      return JSON.stringify(url.toString());
    }
  }
  return JSON.stringify(value);
}
