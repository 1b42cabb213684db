import { Injectable } from '@nestjs/common';
import type { SqlRunner } from '#database';

/** What sending to an endpoint needs: where, whose, and the signing secret. */
export interface EndpointTarget {
  id: number;
  consumerId: number;
  url: string;
  secretKey: string | null;
}

@Injectable()
export class EndpointTargetRepository {
  async find(runner: SqlRunner, endpointId: number): Promise<EndpointTarget | null> {
    const rows: Array<{ id: number; consumer_id: number; url: string; secret_key: string | null }> = await runner.query(
      'SELECT id, consumer_id, url, secret_key FROM webhook_endpoints WHERE id = $1',
      [endpointId],
    );
    const row = rows[0];
    return row ? { id: row.id, consumerId: row.consumer_id, url: row.url, secretKey: row.secret_key } : null;
  }
}
