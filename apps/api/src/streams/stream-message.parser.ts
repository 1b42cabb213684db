export const STREAM_MESSAGE = 'message';

/**
 * Clients speak Hyperliquid's `{"method": ...}` shape, not Nest's `{event, data}`: every frame goes to the
 * gateway's one handler as text, and the protocol (bad JSON included) is the sessions service's.
 */
export const streamMessageParser = (data: string | Buffer | ArrayBuffer | Buffer[]) => ({
  event: STREAM_MESSAGE,
  data:
    typeof data === 'string' ? data : Array.isArray(data) ? Buffer.concat(data).toString() : Buffer.from(new Uint8Array(data)).toString(),
});
