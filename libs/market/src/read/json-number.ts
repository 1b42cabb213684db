/**
 * The API contract types prices, sizes, values and PnL as JSON numbers, so a stored decimal (a `numeric`
 * read as its exact string) becomes the nearest double only here, at the edge of the response: every
 * sum, comparison and ratio that decides a result is done before, in SQL `numeric` or big.js. Values
 * with up to 15 significant digits come out with exactly the stored digits. Exports written as files
 * (CSV, JSON) go through the same conversion so a download and a route agree.
 */
export const jsonNumber = (decimal: string | number): number => Number(decimal);

export const jsonNumberOrNull = (decimal: string | number | null | undefined): number | null => (decimal == null ? null : Number(decimal));
