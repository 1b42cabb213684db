import { Injectable } from '@nestjs/common';
import type { OrderBlock } from './open-order.types.js';
import { type SqlRunner } from '#database';

/** Blocks of the stream that runs ahead, parked until the other stream has reached them. */
@Injectable()
export class OrderBacklogRepository {
  async put(q: SqlRunner, source: string, blocks: OrderBlock[]): Promise<void> {
    if (blocks.length === 0) return;
    await q.query(
      `INSERT INTO open_order_backlog (source, stream, block_number, block)
       SELECT $1, * FROM unnest($2::text[], $3::bigint[], $4::jsonb[])
       ON CONFLICT DO NOTHING`,
      [source, blocks.map((b) => b.stream), blocks.map((b) => b.blockNumber), blocks.map((b) => JSON.stringify(b))],
    );
  }

  /** Removes and returns the parked blocks up to `lastBlock`, in block order. */
  async takeUpTo(q: SqlRunner, source: string, lastBlock: number): Promise<OrderBlock[]> {
    const rows: Array<{ block: OrderBlock }> = await q.query(
      `WITH taken AS (DELETE FROM open_order_backlog WHERE source = $1 AND block_number <= $2 RETURNING block_number, stream, block)
       SELECT block FROM taken ORDER BY block_number, stream`,
      [source, lastBlock],
    );
    return rows.map((r) => r.block);
  }
}
