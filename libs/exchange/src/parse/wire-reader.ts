import { describeValue, indexPath, keyPath, WireError } from './parse-result.js';
import { expectNodeTime, type NodeTime } from './node-time.js';

// Every price, size and amount on the Hyperliquid wire is a plain decimal string; exponent forms never
// occur in the recorded samples, so one here means the input is not what we think it is.
const DECIMAL = /^-?\d+(\.\d+)?$/;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const HASH = /^0x[0-9a-fA-F]{64}$/;

export type Side = 'A' | 'B';

export function isDecimalString(value: unknown): value is string {
  return typeof value === 'string' && DECIMAL.test(value);
}

export function isAddress(value: unknown): value is string {
  return typeof value === 'string' && ADDRESS.test(value);
}

function isHash(value: unknown): value is string {
  return typeof value === 'string' && HASH.test(value);
}

function isUint(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

export function expectDecimal(value: unknown, path: string): string {
  if (!isDecimalString(value)) throw new WireError(path, `expected a decimal string, got ${describeValue(value)}`);
  return value;
}

/** Ids and millisecond times: JS numbers are exact only up to 2^53 - 1, so anything past it is refused. */
export function expectUint(value: unknown, path: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0)
    throw new WireError(path, `expected a non-negative integer, got ${describeValue(value)}`);
  if (!Number.isSafeInteger(value)) throw new WireError(path, `integer beyond 2^53 - 1 cannot be exact (read as ${value})`);
  return value;
}

export function expectString(value: unknown, path: string): string {
  if (typeof value !== 'string') throw new WireError(path, `expected a string, got ${describeValue(value)}`);
  return value;
}

export function expectNonEmptyString(value: unknown, path: string): string {
  if (expectString(value, path) === '') throw new WireError(path, 'expected a non-empty string');
  return value as string;
}

export function expectBoolean(value: unknown, path: string): boolean {
  if (typeof value !== 'boolean') throw new WireError(path, `expected true or false, got ${describeValue(value)}`);
  return value;
}

/** Addresses are kept as received (case included); compare them case-insensitively. */
export function expectAddress(value: unknown, path: string): string {
  if (!isAddress(value)) throw new WireError(path, `expected a 0x address of 40 hex digits, got ${describeValue(value)}`);
  return value;
}

export function expectHash(value: unknown, path: string): string {
  if (!isHash(value)) throw new WireError(path, `expected a 0x hash of 64 hex digits, got ${describeValue(value)}`);
  return value;
}

export function expectSide(value: unknown, path: string): Side {
  if (value !== 'A' && value !== 'B') throw new WireError(path, `expected side "A" or "B", got ${describeValue(value)}`);
  return value;
}

export function expectArray(value: unknown, path: string): unknown[] {
  if (!Array.isArray(value)) throw new WireError(path, `expected an array, got ${describeValue(value)}`);
  return value;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A JSON object being read, with the wire path that messages name. Each reader checks the valid case
 * first and builds the field's path only to report a bad one: a path string per good field is pure cost
 * on a feed of millions of fields.
 */
export class WireObject {
  readonly raw: Record<string, unknown>;

  constructor(
    value: unknown,
    readonly path: string,
  ) {
    if (!isPlainObject(value)) throw new WireError(path, `expected an object, got ${describeValue(value)}`);
    this.raw = value;
  }

  at(key: string): string {
    return keyPath(this.path, key);
  }

  has(key: string): boolean {
    return this.raw[key] !== undefined;
  }

  /** Absent and null are the same to the readers of optional fields: both become null. */
  private isMissing(key: string): boolean {
    return this.raw[key] === undefined || this.raw[key] === null;
  }

  required(key: string): unknown {
    if (this.raw[key] === undefined) throw new WireError(this.at(key), 'missing');
    return this.raw[key];
  }

  string(key: string): string {
    const value = this.raw[key];
    return typeof value === 'string' ? value : expectString(this.required(key), this.at(key));
  }

  nonEmptyString(key: string): string {
    const value = this.raw[key];
    return typeof value === 'string' && value !== '' ? value : expectNonEmptyString(this.required(key), this.at(key));
  }

  optionalString(key: string): string | null {
    const value = this.raw[key];
    if (value === undefined || value === null) return null;
    return typeof value === 'string' ? value : expectString(value, this.at(key));
  }

  decimal(key: string): string {
    const value = this.raw[key];
    return isDecimalString(value) ? value : expectDecimal(this.required(key), this.at(key));
  }

  optionalDecimal(key: string): string | null {
    const value = this.raw[key];
    if (value === undefined || value === null) return null;
    return isDecimalString(value) ? value : expectDecimal(value, this.at(key));
  }

  /** A field that must be present but may be null (liquidationPx of a position that cannot be liquidated). */
  nullableDecimal(key: string): string | null {
    const value = this.required(key);
    return value === null ? null : expectDecimal(value, this.at(key));
  }

  uint(key: string): number {
    const value = this.raw[key];
    return isUint(value) ? value : expectUint(this.required(key), this.at(key));
  }

  optionalUint(key: string): number | null {
    const value = this.raw[key];
    if (value === undefined || value === null) return null;
    return isUint(value) ? value : expectUint(value, this.at(key));
  }

  boolean(key: string): boolean {
    const value = this.raw[key];
    return typeof value === 'boolean' ? value : expectBoolean(this.required(key), this.at(key));
  }

  optionalBoolean(key: string): boolean | null {
    return this.isMissing(key) ? null : expectBoolean(this.raw[key], this.at(key));
  }

  address(key: string): string {
    const value = this.raw[key];
    return isAddress(value) ? value : expectAddress(this.required(key), this.at(key));
  }

  optionalAddress(key: string): string | null {
    const value = this.raw[key];
    if (value === undefined || value === null) return null;
    return isAddress(value) ? value : expectAddress(value, this.at(key));
  }

  hash(key: string): string {
    const value = this.raw[key];
    return isHash(value) ? value : expectHash(this.required(key), this.at(key));
  }

  nullableHash(key: string): string | null {
    const value = this.required(key);
    return value === null ? null : expectHash(value, this.at(key));
  }

  side(key: string): Side {
    const value = this.raw[key];
    return value === 'A' || value === 'B' ? value : expectSide(this.required(key), this.at(key));
  }

  nodeTime(key: string): NodeTime {
    return expectNodeTime(this.required(key), this.at(key));
  }

  object(key: string): WireObject {
    return new WireObject(this.required(key), this.at(key));
  }

  optionalObject(key: string): WireObject | null {
    return this.isMissing(key) ? null : new WireObject(this.raw[key], this.at(key));
  }

  /** Reads every element; one bad element fails the whole field (the record it belongs to is skipped). */
  array<T>(key: string, read: (item: unknown, path: string) => T): T[] {
    const path = this.at(key);
    return expectArray(this.required(key), path).map((item, index) => read(item, indexPath(path, index)));
  }

  optionalArray<T>(key: string, read: (item: unknown, path: string) => T): T[] | null {
    return this.isMissing(key) ? null : this.array(key, read);
  }
}

/** The single key of a `{Kind: {...}}` wrapper, as hl-node writes misc events and the info API delegator deltas. */
export function singleKey(object: WireObject): string {
  const keys = Object.keys(object.raw);
  if (keys.length !== 1)
    throw new WireError(object.path, `expected exactly one kind key, got ${keys.length === 0 ? 'none' : keys.join(', ')}`);
  return keys[0]!;
}
