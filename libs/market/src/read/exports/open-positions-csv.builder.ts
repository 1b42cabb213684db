import { stringify, type Stringifier } from 'csv-stringify';

/**
 * The open-positions CSV's columns: the API contract's Open position record, in its order. `text` marks the
 * columns whose values are names rather than numbers, ids or times: only those can carry a formula.
 */
export const OPEN_POSITION_CSV_COLUMNS = [
  { name: 'id', text: false },
  { name: 'address', text: true },
  { name: 'coin', text: true },
  { name: 'side', text: true },
  { name: 'dex', text: true },
  { name: 'size', text: false },
  { name: 'value', text: false },
  { name: 'entryPrice', text: false },
  { name: 'unrealizedPnl', text: false },
  { name: 'funding', text: false },
  { name: 'liquidationPrice', text: false },
  { name: 'liquidationProgress', text: false },
  { name: 'crossLeverage', text: false },
  { name: 'isolatedLeverage', text: false },
  { name: 'openTime', text: false },
  { name: 'profile_totalEquity', text: false },
  { name: 'profile_perpEquity', text: false },
  { name: 'profile_countOpenPositions', text: false },
  { name: 'profile_pnl', text: false },
  { name: 'profile_balance', text: false },
  { name: 'profile_perpPnlSegmentId', text: false },
  { name: 'profile_sizeSegmentId', text: false },
] as const;

/** What makes a spreadsheet read a cell as a formula (OWASP, CSV injection): these characters at its start. */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A text cell as a spreadsheet will show it and never run it: one starting like a formula gets a leading
 * single quote, OWASP's form, which spreadsheets take as "text follows". Numbers never pass through here:
 * a negative decimal such as `-12.5` in a numeric column is a value, not a formula, and stays as it is.
 */
export function neutralisedTextCell(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

const TEXT_COLUMNS = new Set(OPEN_POSITION_CSV_COLUMNS.flatMap((c, i) => (c.text ? [i] : [])));

/** The CSV writer of the open positions: rows are arrays in column order, text cells neutralised by column. */
export function openPositionsCsv(): Stringifier {
  return stringify({
    header: true,
    columns: OPEN_POSITION_CSV_COLUMNS.map((c) => c.name),
    cast: {
      string: (value, context) =>
        !context.header && typeof context.column === 'number' && TEXT_COLUMNS.has(context.column) ? neutralisedTextCell(value) : value,
    },
  });
}
