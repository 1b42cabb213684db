import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What the liquidation-risk and cohort-summary routes read, written at each state update instead of
 * summed over every open position of a cohort at each request (a parallel scan of positions, 0.5 to
 * 1.3 s, on the analytics benchmark's 500,000 open positions; docs/benchmarks.md):
 *
 * - `cohort_position_snapshots.value_near_liquidation`: per coin, cohort and timeframe, the value of the
 *   open positions at or past 75 % of the way to their liquidation price. Rows written before this
 *   migration have none (NULL): positions keep no history of their progress. The latest update's rows,
 *   the only ones the route reads, are filled here from the open positions, which that update wrote.
 * - `cohort_summary_snapshots`: per cohort and position age, the summary's sums over the cohort's
 *   traders (wallets with counted open positions), every cohort and age at every update (zeros too).
 *   Filled here for the latest update only.
 *
 * The index on (created_at, timeframe, segment_id) replaces the one on created_at alone: the routes read
 * one update's rows of one timeframe (and cohort), 40 or 640 of its 2,560 rows.
 *
 * The two fills below are the state writer's statements (StateSnapshotsRepository) as of this migration,
 * copied: a migration must not change when the writer later does.
 */
export class CohortPrecomputed1765110000000 implements MigrationInterface {
  name = 'CohortPrecomputed1765110000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE cohort_position_snapshots ADD COLUMN value_near_liquidation numeric`);
    await q.query(
      `CREATE INDEX cohort_position_snapshots_time_cohort_idx ON cohort_position_snapshots (created_at, timeframe, segment_id)`,
    );
    await q.query(`DROP INDEX cohort_position_snapshots_time_idx`);
    await q.query(`
      CREATE TABLE cohort_summary_snapshots (
        created_at timestamptz NOT NULL,
        segment_id smallint NOT NULL,
        position_age text NOT NULL CHECK (position_age IN ('all', '24h', '7d', '30d')),
        traders integer NOT NULL,
        traders_in_profit integer NOT NULL,
        positions integer NOT NULL,
        long_positions integer NOT NULL,
        short_positions integer NOT NULL,
        value numeric NOT NULL,
        long_value numeric NOT NULL,
        short_value numeric NOT NULL,
        active_perp_equity numeric NOT NULL,
        PRIMARY KEY (segment_id, position_age, created_at)
      )`);
    await q.query(`CREATE INDEX cohort_summary_snapshots_time_idx ON cohort_summary_snapshots (created_at)`);

    const [{ latest }]: Array<{ latest: Date | null }> = await q.query(`SELECT max(state_time) AS latest FROM state_updates`);
    if (latest === null) return;
    await q.query(`UPDATE cohort_position_snapshots SET value_near_liquidation = 0 WHERE created_at = $1`, [latest]);
    await q.query(
      `UPDATE cohort_position_snapshots s SET value_near_liquidation = near.value
       FROM (
         SELECT p.coin, seg.id AS segment_id, tf.name AS timeframe, sum(p.value) AS value
         FROM positions p JOIN wallets w ON w.address = p.address
         CROSS JOIN LATERAL (VALUES (w.size_segment_id), (w.pnl_segment_id)) AS seg(id)
         CROSS JOIN (VALUES ('24h', interval '24 hours'), ('7d', interval '7 days'), ('30d', interval '30 days'), ('all', NULL)) AS tf(name, within)
         WHERE p.close_time IS NULL AND p.liquidation_progress >= 0.75 AND (tf.within IS NULL OR p.open_time >= $1::timestamptz - tf.within)
         GROUP BY 1, 2, 3
       ) near
       WHERE s.created_at = $1 AND s.coin = near.coin AND s.segment_id = near.segment_id AND s.timeframe = near.timeframe`,
      [latest],
    );
    await q.query(
      `WITH traders AS (
         SELECT w.size_segment_id, w.pnl_segment_id, w.perp_equity,
                count(*) AS positions, count(*) FILTER (WHERE p.side = 'long') AS long_positions, count(*) FILTER (WHERE p.side = 'short') AS short_positions,
                sum(p.value) AS value, coalesce(sum(p.value) FILTER (WHERE p.side = 'long'), 0) AS long_value,
                coalesce(sum(p.value) FILTER (WHERE p.side = 'short'), 0) AS short_value, sum(p.unrealized_pnl) > 0 AS in_profit,
                CASE WHEN max(p.open_time) >= $1::timestamptz - interval '24 hours' THEN 0 WHEN max(p.open_time) >= $1::timestamptz - interval '7 days' THEN 1
                     WHEN max(p.open_time) >= $1::timestamptz - interval '30 days' THEN 2 ELSE 3 END AS age
         FROM positions p JOIN wallets w ON w.address = p.address
         WHERE p.close_time IS NULL
         GROUP BY w.address
       ), buckets AS (
         SELECT seg.id AS segment_id, t.age, count(*) AS traders, count(*) FILTER (WHERE t.in_profit) AS traders_in_profit,
                sum(t.positions) AS positions, sum(t.long_positions) AS long_positions, sum(t.short_positions) AS short_positions,
                sum(t.value) AS value, sum(t.long_value) AS long_value, sum(t.short_value) AS short_value, sum(t.perp_equity) AS equity
         FROM traders t CROSS JOIN LATERAL (VALUES (t.size_segment_id), (t.pnl_segment_id)) AS seg(id)
         GROUP BY 1, 2
       )
       INSERT INTO cohort_summary_snapshots (created_at, segment_id, position_age, traders, traders_in_profit, positions, long_positions, short_positions,
         value, long_value, short_value, active_perp_equity)
       SELECT $1::timestamptz, c.id, tf.name, coalesce(sum(b.traders), 0), coalesce(sum(b.traders_in_profit), 0), coalesce(sum(b.positions), 0),
              coalesce(sum(b.long_positions), 0), coalesce(sum(b.short_positions), 0), coalesce(sum(b.value), 0), coalesce(sum(b.long_value), 0),
              coalesce(sum(b.short_value), 0), coalesce(sum(b.equity), 0)
       FROM generate_series(1, 16) AS c(id)
       CROSS JOIN (VALUES ('24h', 0), ('7d', 1), ('30d', 2), ('all', 3)) AS tf(name, max_age)
       LEFT JOIN buckets b ON b.segment_id = c.id AND b.age <= tf.max_age
       GROUP BY c.id, tf.name`,
      [latest],
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE cohort_summary_snapshots`);
    await q.query(`CREATE INDEX cohort_position_snapshots_time_idx ON cohort_position_snapshots (created_at)`);
    await q.query(`DROP INDEX cohort_position_snapshots_time_cohort_idx`);
    await q.query(`ALTER TABLE cohort_position_snapshots DROP COLUMN value_near_liquidation`);
  }
}
