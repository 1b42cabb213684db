/**
 * Non-funding ledger deltas, shared by the info API's `userNonFundingLedgerUpdates` and hl-node's
 * `LedgerUpdate` misc events. Fields the exchange added over time are null when absent.
 */
export type LedgerDelta =
  | { type: 'deposit'; usdc: string }
  | { type: 'withdraw'; usdc: string; nonce: number | null; fee: string | null }
  | { type: 'accountClassTransfer'; usdc: string; toPerp: boolean }
  | {
      type: 'spotTransfer';
      token: string;
      amount: string;
      usdcValue: string | null;
      user: string;
      destination: string;
      fee: string | null;
      nativeTokenFee: string | null;
      nonce: number | null;
      feeToken: string | null;
    }
  | { type: 'internalTransfer'; usdc: string; user: string; destination: string; fee: string | null }
  | { type: 'subAccountTransfer'; usdc: string; user: string; destination: string }
  | {
      type: 'send';
      user: string;
      destination: string;
      /** "" or "spot" for the main venues, a HIP-3 dex name otherwise. */
      sourceDex: string;
      destinationDex: string;
      token: string;
      amount: string;
      usdcValue: string | null;
      fee: string | null;
      nativeTokenFee: string | null;
      nonce: number | null;
      feeToken: string | null;
    }
  | {
      type: 'liquidation';
      liquidatedNtlPos: string;
      accountValue: string;
      leverageType: string;
      liquidatedPositions: { coin: string; szi: string }[];
    }
  | { type: 'vaultCreate'; vault: string; usdc: string; fee: string | null }
  | { type: 'vaultDeposit'; vault: string; usdc: string }
  | {
      type: 'vaultWithdraw';
      vault: string;
      user: string;
      requestedUsd: string;
      commission: string | null;
      closingCost: string | null;
      basis: string | null;
      netWithdrawnUsd: string | null;
    }
  | { type: 'vaultDistribution'; vault: string; usdc: string }
  | { type: 'vaultLeaderCommission'; user: string; usdc: string }
  /** A delta type this code does not know: kept whole so new exchange features never stop the feed. */
  | { type: 'unknown'; wireType: string; raw: Record<string, unknown> };

export type LedgerDeltaType = LedgerDelta['type'];

/** An item of `userNonFundingLedgerUpdates`. */
export interface LedgerUpdate {
  time: number;
  hash: string;
  delta: LedgerDelta;
}

/** What the `ledger_update` alert calls a deposit or a withdrawal, with its USDC amount. */
export interface LedgerMovement {
  direction: 'deposit' | 'withdraw';
  usdc: string;
}
