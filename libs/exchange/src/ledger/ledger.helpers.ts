import type { LedgerDelta, LedgerMovement } from './ledger.types.js';

/**
 * A deposit to or a withdrawal from the exchange (the bridge), as the `ledger_update` alert means them.
 * Transfers between a user's own accounts, sends and vault moves are not: they return null.
 */
export function classifyLedgerDelta(delta: LedgerDelta): LedgerMovement | null {
  if (delta.type === 'deposit') return { direction: 'deposit', usdc: delta.usdc };
  if (delta.type === 'withdraw') return { direction: 'withdraw', usdc: delta.usdc };
  return null;
}

export function isDeposit(delta: LedgerDelta): boolean {
  return delta.type === 'deposit';
}

export function isWithdraw(delta: LedgerDelta): boolean {
  return delta.type === 'withdraw';
}
