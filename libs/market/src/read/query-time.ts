import { InvalidInputError } from '#errors';

// A date, or a date and time with optional seconds, fraction and zone.
const ISO_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;

export const queryTimeMessage = (field: string): string =>
  `${field} must be an ISO 8601 date or time, e.g. 2026-01-01T00:00:00Z (a time without a zone is UTC)`;

/**
 * Epoch ms of a time given in a query. The API contract's times are UTC, so a time without a zone is read
 * as UTC (never as the server's zone) and a date alone is its midnight UTC. A date that does not exist
 * (30 February) or any other text is an InvalidInputError naming `field`.
 */
export function queryTimeMs(field: string, value: string): number {
  const match = ISO_TIME.exec(value);
  if (match === null) throw new InvalidInputError(field, queryTimeMessage(field));
  const [, year, month, day, zone] = match;
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  if (date.getUTCFullYear() !== Number(year) || date.getUTCMonth() !== Number(month) - 1 || date.getUTCDate() !== Number(day)) {
    throw new InvalidInputError(field, queryTimeMessage(field));
  }
  const ms = Date.parse(value.includes('T') && zone === undefined ? `${value}Z` : value);
  if (Number.isNaN(ms)) throw new InvalidInputError(field, queryTimeMessage(field));
  return ms;
}
