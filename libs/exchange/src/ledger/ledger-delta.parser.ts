import { parseEach, type ParseResult, type ParseSource } from '../parse/parse-result.js';
import { WireObject } from '../parse/wire-reader.js';
import type { LedgerDelta, LedgerUpdate } from './ledger.types.js';

type Reader = (o: WireObject) => LedgerDelta;

const READERS: Record<Exclude<LedgerDelta['type'], 'unknown'>, Reader> = {
  deposit: (o) => ({ type: 'deposit', usdc: o.decimal('usdc') }),
  withdraw: (o) => ({ type: 'withdraw', usdc: o.decimal('usdc'), nonce: o.optionalUint('nonce'), fee: o.optionalDecimal('fee') }),
  accountClassTransfer: (o) => ({ type: 'accountClassTransfer', usdc: o.decimal('usdc'), toPerp: o.boolean('toPerp') }),
  spotTransfer: (o) => ({
    type: 'spotTransfer',
    token: o.nonEmptyString('token'),
    amount: o.decimal('amount'),
    usdcValue: o.optionalDecimal('usdcValue'),
    user: o.address('user'),
    destination: o.address('destination'),
    fee: o.optionalDecimal('fee'),
    nativeTokenFee: o.optionalDecimal('nativeTokenFee'),
    nonce: o.optionalUint('nonce'),
    feeToken: o.optionalString('feeToken'),
  }),
  internalTransfer: (o) => ({
    type: 'internalTransfer',
    usdc: o.decimal('usdc'),
    user: o.address('user'),
    destination: o.address('destination'),
    fee: o.optionalDecimal('fee'),
  }),
  subAccountTransfer: (o) => ({
    type: 'subAccountTransfer',
    usdc: o.decimal('usdc'),
    user: o.address('user'),
    destination: o.address('destination'),
  }),
  send: (o) => ({
    type: 'send',
    user: o.address('user'),
    destination: o.address('destination'),
    sourceDex: o.string('sourceDex'),
    destinationDex: o.string('destinationDex'),
    token: o.nonEmptyString('token'),
    amount: o.decimal('amount'),
    usdcValue: o.optionalDecimal('usdcValue'),
    fee: o.optionalDecimal('fee'),
    nativeTokenFee: o.optionalDecimal('nativeTokenFee'),
    nonce: o.optionalUint('nonce'),
    feeToken: o.optionalString('feeToken'),
  }),
  liquidation: (o) => ({
    type: 'liquidation',
    liquidatedNtlPos: o.decimal('liquidatedNtlPos'),
    accountValue: o.decimal('accountValue'),
    leverageType: o.nonEmptyString('leverageType'),
    liquidatedPositions: o.array('liquidatedPositions', (item, path) => {
      const position = new WireObject(item, path);
      return { coin: position.nonEmptyString('coin'), szi: position.decimal('szi') };
    }),
  }),
  vaultCreate: (o) => ({ type: 'vaultCreate', vault: o.address('vault'), usdc: o.decimal('usdc'), fee: o.optionalDecimal('fee') }),
  vaultDeposit: (o) => ({ type: 'vaultDeposit', vault: o.address('vault'), usdc: o.decimal('usdc') }),
  vaultWithdraw: (o) => ({
    type: 'vaultWithdraw',
    vault: o.address('vault'),
    user: o.address('user'),
    requestedUsd: o.decimal('requestedUsd'),
    commission: o.optionalDecimal('commission'),
    closingCost: o.optionalDecimal('closingCost'),
    basis: o.optionalDecimal('basis'),
    netWithdrawnUsd: o.optionalDecimal('netWithdrawnUsd'),
  }),
  vaultDistribution: (o) => ({ type: 'vaultDistribution', vault: o.address('vault'), usdc: o.decimal('usdc') }),
  vaultLeaderCommission: (o) => ({ type: 'vaultLeaderCommission', user: o.address('user'), usdc: o.decimal('usdc') }),
};

/** A delta `{type, ...}`: known types are checked field by field, any other type is kept as `unknown`. */
export function readLedgerDelta(value: unknown, path: string): LedgerDelta {
  const o = new WireObject(value, path);
  const wireType = o.nonEmptyString('type');
  const reader = Object.hasOwn(READERS, wireType) ? READERS[wireType as keyof typeof READERS] : undefined;
  return reader ? reader(o) : { type: 'unknown', wireType, raw: o.raw };
}

export function readLedgerUpdate(value: unknown, path: string): LedgerUpdate {
  const o = new WireObject(value, path);
  return { time: o.uint('time'), hash: o.hash('hash'), delta: readLedgerDelta(o.required('delta'), o.at('delta')) };
}

/** Info `userNonFundingLedgerUpdates`. */
export function parseLedgerUpdates(value: unknown, source: ParseSource): ParseResult<LedgerUpdate[]> {
  return parseEach(value, source, '', readLedgerUpdate);
}
