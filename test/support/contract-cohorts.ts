/** the API contract's cohort table, written out independently of the code under test. */
export const SPEC_COHORTS = [
  { id: 16, name: 'Shrimp', category: 'size', criteria: { minSize: 0, maxSize: 250 }, emoji: '🦐' },
  { id: 1, name: 'Fish', category: 'size', criteria: { minSize: 250, maxSize: 10000 }, emoji: '🐟' },
  { id: 2, name: 'Dolphin', category: 'size', criteria: { minSize: 10000, maxSize: 50000 }, emoji: '🐬' },
  { id: 3, name: 'Apex Predator', category: 'size', criteria: { minSize: 50000, maxSize: 100000 }, emoji: '🦈' },
  { id: 4, name: 'Small Whale', category: 'size', criteria: { minSize: 100000, maxSize: 500000 }, emoji: '🐋' },
  { id: 5, name: 'Whale', category: 'size', criteria: { minSize: 500000, maxSize: 1000000 }, emoji: '🐳' },
  { id: 6, name: 'Tidal Whale', category: 'size', criteria: { minSize: 1000000, maxSize: 5000000 }, emoji: '🌊' },
  { id: 7, name: 'Leviathan', category: 'size', criteria: { minSize: 5000000 }, emoji: '🐉' },
  { id: 8, name: 'Money Printer', category: 'pnl', criteria: { minPnl: 1000000 }, emoji: '🖨️' },
  { id: 9, name: 'Smart Money', category: 'pnl', criteria: { minPnl: 100000, maxPnl: 1000000 }, emoji: '🧠' },
  { id: 10, name: 'Consistent Grinder', category: 'pnl', criteria: { minPnl: 10000, maxPnl: 100000 }, emoji: '⚙️' },
  { id: 11, name: 'Humble Earner', category: 'pnl', criteria: { minPnl: 0, maxPnl: 10000 }, emoji: '🌱' },
  { id: 12, name: 'Exit Liquidity', category: 'pnl', criteria: { minPnl: -10000, maxPnl: 0 }, emoji: '💧' },
  { id: 13, name: 'Semi-Rekt', category: 'pnl', criteria: { minPnl: -100000, maxPnl: -10000 }, emoji: '🩹' },
  { id: 14, name: 'Full Rekt', category: 'pnl', criteria: { minPnl: -1000000, maxPnl: -100000 }, emoji: '💀' },
  { id: 15, name: 'Giga-Rekt', category: 'pnl', criteria: { maxPnl: -1000000 }, emoji: '☠️' },
];
