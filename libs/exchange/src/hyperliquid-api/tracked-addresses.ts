const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/**
 * HL_TRACKED_ADDRESSES (comma-separated) as lower-case addresses, each once. Throws naming every entry
 * that is not a 0x address of 40 hex digits, or when there is none: EXCHANGE_SOURCE=hyperliquid can only
 * follow listed wallets.
 */
export function parseTrackedAddresses(list: string | undefined): string[] {
  const entries = (list ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  const bad = entries.filter((entry) => !ADDRESS.test(entry));
  if (bad.length > 0)
    throw new Error(`HL_TRACKED_ADDRESSES: not a 0x address of 40 hex digits: ${bad.map((entry) => JSON.stringify(entry)).join(', ')}`);
  if (entries.length === 0)
    throw new Error('HL_TRACKED_ADDRESSES is empty: EXCHANGE_SOURCE=hyperliquid follows only the wallets listed there');
  return [...new Set(entries.map((entry) => entry.toLowerCase()))];
}
