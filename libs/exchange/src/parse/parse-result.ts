/** Where a record came from, so an operator can find it: a file and line for hl-node, a stream name. */
export interface ParseSource {
  file?: string;
  line?: number;
  stream?: string;
}

/**
 * One malformed record. `path` names the offending field in wire terms (`events[3].fill.px`,
 * `block_number`); an empty path means the whole input.
 */
export interface ParseIssue {
  source: ParseSource;
  path: string;
  message: string;
}

/**
 * A parse either yields a value or fails as a whole. A value may come with `issues`: records inside it
 * that were malformed and skipped (a bad event of a block, a bad fill of a list), so the caller can
 * report them and go on with the rest.
 */
export type ParseResult<T> = { ok: true; value: T; issues: ParseIssue[] } | { ok: false; error: ParseIssue };

/** Raised by the wire readers; parsers turn it into a ParseIssue at the record boundary. */
export class WireError extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(message);
    this.name = 'WireError';
  }
}

export function succeed<T>(value: T, issues: ParseIssue[] = []): ParseResult<T> {
  return { ok: true, value, issues };
}

export function fail<T = never>(source: ParseSource, path: string, message: string): ParseResult<T> {
  return { ok: false, error: { source: { ...source }, path, message } };
}

/**
 * Runs a record reader so that the record is either fully read or not at all: any WireError becomes
 * the failure of this record only. Other errors are bugs and propagate.
 */
export function parseRecord<T>(source: ParseSource, read: () => T): ParseResult<T> {
  try {
    return succeed(read());
  } catch (error) {
    if (error instanceof WireError) return fail(source, error.path, error.message);
    throw error;
  }
}

/**
 * Reads each element of an array as its own record: good ones are kept, bad ones become issues.
 * A value that is not an array fails as a whole.
 */
export function parseEach<T>(
  value: unknown,
  source: ParseSource,
  path: string,
  read: (item: unknown, itemPath: string, index: number) => T,
): ParseResult<T[]> {
  if (!Array.isArray(value)) return fail(source, path, `expected an array, got ${describeValue(value)}`);
  const items: T[] = [];
  const issues: ParseIssue[] = [];
  value.forEach((item, index) => {
    const result = parseRecord(source, () => read(item, indexPath(path, index), index));
    if (result.ok) items.push(result.value);
    else issues.push(result.error);
  });
  return succeed(items, issues);
}

/** One line for logs: `file:line path: message`. */
export function formatIssue(issue: ParseIssue): string {
  const { file, line, stream } = issue.source;
  const where = `${file ?? stream ?? 'input'}${line === undefined ? '' : `:${line}`}`;
  return `${where} ${issue.path === '' ? '(whole record)' : issue.path}: ${issue.message}`;
}

export function keyPath(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

export function indexPath(path: string, index: number): string {
  return `${path}[${index}]`;
}

/** Short description of an unexpected value for messages; long strings are cut so a log line stays a line. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value);
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}
