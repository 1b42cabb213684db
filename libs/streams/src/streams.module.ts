import { Module } from '@nestjs/common';
import { ApiAuthModule } from '#auth';
import { MarketWriteModule } from '#market';
import { StreamEventsPublisher } from './fanout/stream-events.publisher.js';
import { StreamEventsSubscriber } from './fanout/stream-events.subscriber.js';
import { StreamConnectionsRegistry } from './sessions/stream-connections.registry.js';
import { StreamSessionsService } from './sessions/stream-sessions.service.js';

/** The ingestor's part of the streams: committed events published for every api process. */
@Module({
  imports: [MarketWriteModule],
  providers: [StreamEventsPublisher],
})
export class StreamsPublishModule {}

/** The api's part of the streams: the websocket sessions fed by the published events. */
@Module({
  imports: [ApiAuthModule],
  providers: [StreamEventsSubscriber, StreamConnectionsRegistry, StreamSessionsService],
  exports: [StreamSessionsService],
})
export class StreamsModule {}
