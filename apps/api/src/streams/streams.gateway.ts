import {
  ConnectedSocket,
  MessageBody,
  OnGatewayConnection,
  OnGatewayDisconnect,
  SubscribeMessage,
  WebSocketGateway,
} from '@nestjs/websockets';
import type { IncomingMessage } from 'node:http';
import type { WebSocket } from 'ws';
import { Public } from '#auth';
import { StreamSessionsService } from '#streams';
import { STREAM_MESSAGE } from './stream-message.parser.js';

/**
 * `GET /ws`: the real-time streams (docs/product.md, "Websocket streams"). A connection is authenticated once,
 * at its upgrade (StreamSessionsService.open), so the global guard does not look at its messages.
 */
@Public()
@WebSocketGateway({ path: '/ws' })
export class StreamsGateway implements OnGatewayConnection, OnGatewayDisconnect {
  constructor(private readonly sessions: StreamSessionsService) {}

  handleConnection(client: WebSocket, request: IncomingMessage) {
    return this.sessions.open(client, request);
  }

  handleDisconnect(client: WebSocket) {
    return this.sessions.close(client);
  }

  @SubscribeMessage(STREAM_MESSAGE)
  handleMessage(@ConnectedSocket() client: WebSocket, @MessageBody() raw: string) {
    return this.sessions.receive(client, raw);
  }
}
