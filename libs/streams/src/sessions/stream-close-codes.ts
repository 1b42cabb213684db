/** The close codes of `GET /ws` (docs/product.md, "Websocket streams"); 4000-4999 are the application's own. */
export const STREAM_CLOSE = {
  /** No credentials, a bad, expired or revoked token, or an unknown, expired or used ticket. */
  unauthorized: { code: 4401, reason: 'unauthorized' },
  /** The consumer's plan has no websocket streams. */
  planWithoutStreams: { code: 4403, reason: 'plan has no websocket streams' },
  /** The consumer already holds its plan's number of connections. */
  tooManyConnections: { code: 4429, reason: 'connection limit of the plan reached' },
  /** Nothing received for WS_IDLE_TIMEOUT_MS. */
  idle: { code: 4408, reason: 'idle timeout' },
  /** The server is shutting down: reconnect (to another process). */
  draining: { code: 1001, reason: 'server shutting down' },
  /** The credentials could not be checked (a dependency is down): retry later. */
  unavailable: { code: 1011, reason: 'service unavailable' },
} as const;

export type StreamClose = (typeof STREAM_CLOSE)[keyof typeof STREAM_CLOSE];
