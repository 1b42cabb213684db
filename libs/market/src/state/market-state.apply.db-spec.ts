import { describe, expect, it } from '@jest/globals';
import Big from 'big.js';
import { dumpTables, resetDatabase, startedWriter } from '#testing';
import { InvalidStateError, MarketStateWriter } from './market-state.writer.js';
import {
  config,
  dataSource,
  writer,
  T0,
  MIN,
  HOUR,
  address,
  A,
  B,
  wallet,
  position,
  state,
  useStateDatabase,
  apply,
} from './market-state.db-fixture.js';

useStateDatabase();

describe('a state update', () => {
  describe('MarketStateWriter', () => {
    it('records HYPE balances only when they change, and the state status', async () => {
      await apply(writer, state(10, T0, [wallet(A, { spotHype: '5', stakedHype: '1' }), wallet(B)]));
      await apply(writer, state(11, T0 + 15 * MIN, [wallet(A, { spotHype: '5', stakedHype: '1' }), wallet(B, { spotHype: '0.5' })]));
      await apply(
        writer,
        state(12, T0 + 30 * MIN, [wallet(A, { spotHype: '5', stakedHype: '3' }), wallet(B, { spotHype: '0.5' })], '41.5'),
      );
      const history = await dataSource.query(
        `SELECT address, created_at, spot_amount::text, staked_amount::text FROM holder_history ORDER BY created_at, address`,
      );
      expect(history).toEqual([
        { address: A, created_at: new Date(T0), spot_amount: '5', staked_amount: '1' },
        { address: B, created_at: new Date(T0 + 15 * MIN), spot_amount: '0.5', staked_amount: '0' },
        { address: A, created_at: new Date(T0 + 30 * MIN), spot_amount: '5', staked_amount: '3' },
      ]);
      const [a] = await dataSource.query(
        `SELECT spot_equity::text, staked_equity::text, total_equity::text FROM wallets WHERE address = $1`,
        [A],
      );
      expect(a).toEqual({ spot_equity: '207.5', staked_equity: '124.5', total_equity: '1332.0' });
      const [status] = await dataSource.query(`SELECT latest_height, processed_height, processed_state_time FROM state_status`);
      expect(status).toEqual({ latest_height: '12', processed_height: '12', processed_state_time: new Date(T0 + 30 * MIN) });
    });

    it('applies an update once: a repeated or older one changes nothing', async () => {
      const first = state(10, T0, [wallet(A, { positions: [position('BTC')] })]);
      const second = state(11, T0 + 15 * MIN, [wallet(A, { positions: [position('ETH')] }), wallet(B)]);
      expect((await apply(writer, first)).applied).toBe(true);
      expect((await apply(writer, second)).applied).toBe(true);
      const tables = {
        wallets: 'address',
        positions: 'id',
        cohort_position_snapshots: 'coin, cohort_id, timeframe, created_at',
        market_snapshots: 'id',
        wallets_equity_history: 'created_at',
        holder_history: 'address, created_at',
      };
      const before = await dumpTables(dataSource, tables);
      expect((await apply(writer, second)).applied).toBe(false);
      expect((await apply(writer, first)).applied).toBe(false);
      expect(await dumpTables(dataSource, tables)).toEqual(before);
    });

    it('leaves the rankings and PnL periods to a later update when told one follows, which then writes them as if none had been left', async () => {
      const updates = [
        state(10, T0 - 26 * HOUR, [
          wallet(A, { allTimePnl: '100', perpEquity: '500' }),
          wallet(B, { allTimePnl: '-40', perpEquity: '900' }),
        ]),
        state(11, T0 - 2 * HOUR, [wallet(A, { allTimePnl: '250', perpEquity: '700' }), wallet(B, { allTimePnl: '60', perpEquity: '300' })]),
        state(12, T0, [wallet(A, { allTimePnl: '175', perpEquity: '650' }), wallet(B, { allTimePnl: '90', perpEquity: '310' })]),
      ];
      const latestOnly = { wallet_rankings: 'ranking, chunk', wallet_rankings_status: 'id', wallet_pnl_periods: 'address' };
      for (const update of updates) await apply(writer, update);
      const everyUpdate = await dumpTables(dataSource, latestOnly);
      const dayPnl = () => dataSource.query(`SELECT address, trim_scale(pnl_day)::text AS day FROM wallet_pnl_periods ORDER BY address`);
      const rankedAt = () => dataSource.query(`SELECT state_time, wallets FROM wallet_rankings_status`);
      // Against the newest history row at or before a day earlier: the first update's.
      expect(await dayPnl()).toEqual([
        { address: A, day: '75' },
        { address: B, day: '130' },
      ]);
      expect(everyUpdate.wallet_rankings!.length).toBeGreaterThan(0);

      await resetDatabase(config.DATABASE_URL);
      await apply(writer, updates[0]!);
      const afterFirst = await dumpTables(dataSource, latestOnly);
      await apply(writer, updates[1]!, { laterUpdateFollows: true });
      // Untouched by the update told another follows: still as of the first.
      expect(await dumpTables(dataSource, latestOnly)).toEqual(afterFirst);
      expect(await rankedAt()).toEqual([{ state_time: new Date(T0 - 26 * HOUR), wallets: 2 }]);
      expect(await dayPnl()).toEqual([
        { address: A, day: '0' },
        { address: B, day: '0' },
      ]);
      await apply(writer, updates[2]!);
      expect(await dumpTables(dataSource, latestOnly)).toEqual(everyUpdate);
    });

    it('runs its registered steps in the transaction of an applied update only, and its hooks after the commit', async () => {
      const own = await startedWriter(dataSource, MarketStateWriter);
      const seen: string[] = [];
      let failing = true;
      own.steps.register({
        name: 'test-step',
        run: async (q, update) => {
          const [{ n }] = await q.query(`SELECT count(*)::int AS n FROM state_updates WHERE height = $1`, [update.state.height]);
          seen.push(`step ${update.state.height} ${update.stateTime} stored=${n} wallets=${update.result.wallets}`);
          if (failing) throw new Error('step failed');
        },
      });
      own.steps.registerAfterCommit({ name: 'test-hook', afterCommit: async (update) => void seen.push(`hook ${update.state.height}`) });

      await expect(apply(own, state(10, T0, [wallet(A)]))).rejects.toThrow('step failed');
      expect(await dataSource.query(`SELECT count(*)::int AS n FROM wallets`)).toEqual([{ n: 0 }]);
      failing = false;
      expect((await apply(own, state(10, T0, [wallet(A)]))).applied).toBe(true);
      expect((await apply(own, state(10, T0, [wallet(A)]))).applied).toBe(false);
      const at = new Date(T0).toISOString();
      expect(seen).toEqual([`step 10 ${at} stored=1 wallets=1`, `step 10 ${at} stored=1 wallets=1`, 'hook 10']);
    });

    it('refuses a state with a wallet twice, naming it, and writes nothing', async () => {
      await expect(apply(writer, state(10, T0, [wallet(A), wallet(A.toUpperCase().replace('0X', '0x'))]))).rejects.toThrow(
        new InvalidStateError(`wallet ${A} appears twice in the state at height 10`),
      );
      expect(await dataSource.query(`SELECT count(*)::int AS n FROM wallets`)).toEqual([{ n: 0 }]);
    });

    it('sums as the tests do, exactly, over many wallets', async () => {
      const wallets = Array.from({ length: 500 }, (_, i) =>
        wallet(address(5000 + i), {
          perpEquity: new Big(i).times('1234.567891').toFixed(),
          positions: [position('BTC', { szi: i % 2 ? '0.1' : '-0.3', positionValue: new Big(i).times('0.333333').plus('1').toFixed() })],
        }),
      );
      await apply(writer, state(10, T0, wallets));
      const expected = wallets.reduce((sum, w) => sum.plus(w.positions[0]!.positionValue), new Big(0));
      const [row] = await dataSource.query(`SELECT open_interest::text FROM market_snapshots`);
      expect(new Big(row.open_interest).toFixed()).toBe(expected.toFixed());
    });
  });
});
