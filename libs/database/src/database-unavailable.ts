/**
 * Postgres error classes that mean "the server cannot be reached or is going away", not "this query is
 * wrong": class 08 (connection exception) and 57P01-57P03 (admin or crash shutdown, cannot connect now).
 */
const UNAVAILABLE_SQLSTATES = /^(08|57P0[123])/;
/** The socket-level failures of a connection the pg driver passes on as they are. */
const UNAVAILABLE_SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND']);
/** What pg and pg-pool throw without a code: a connection that ended under a query, a pool wait that ran out. */
const UNAVAILABLE_MESSAGES = [
  /^Connection terminated/,
  /^timeout exceeded when trying to connect$/,
  /^Client has encountered a connection error/,
];

/**
 * True when `error` (or what it wraps: TypeORM's `driverError`, an `Error.cause`) says Postgres is away or
 * out of connections, so the caller can answer "try again shortly" (503) instead of "we broke" (500).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 4; depth++) {
    const { code, message, driverError, cause } = e as { code?: unknown; message?: unknown; driverError?: unknown; cause?: unknown };
    if (typeof code === 'string' && (UNAVAILABLE_SQLSTATES.test(code) || UNAVAILABLE_SOCKET_CODES.has(code))) return true;
    if (typeof message === 'string' && UNAVAILABLE_MESSAGES.some((m) => m.test(message))) return true;
    e = driverError ?? cause;
  }
  return false;
}
