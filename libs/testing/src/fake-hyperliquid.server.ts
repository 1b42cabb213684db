import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocket, WebSocketServer } from 'ws';
import { fixtureJson } from './hyperliquid-fixtures.js';

type Wire = Record<string, unknown>;

/** A wallet's history as the info API holds it (wire shapes, times in ms; TWAP history times in seconds). */
export interface FakeAccount {
  fills: Wire[];
  /** Info `userFunding` items: `{time, hash, delta: {type: "funding", ...}}`. */
  fundings: Wire[];
  ledger: Wire[];
  twaps: Wire[];
}

export interface FakeConnection {
  socket: WebSocket;
  subscriptions: Wire[];
  closed: boolean;
}

/** Items per info response, as the real API caps them. */
export interface FakePageSizes {
  userFillsByTime: number;
  userFunding: number;
  userNonFundingLedgerUpdates: number;
}

/** info_userFills.json predates trade ids: fixture fill i is served with tid FIXTURE_TID_BASE + i, as today's API sends one. */
export const FIXTURE_TID_BASE = 900_000_000_000;

export function fixtureFills(): Wire[] {
  return (fixtureJson('info_userFills.json') as Wire[]).map((fill, index) => ({ ...fill, tid: FIXTURE_TID_BASE + index }));
}

/** Info requests answered with a fixture whatever the user or coin asked for. */
const STATIC_INFO: Record<string, string> = {
  clearinghouseState: 'info_clearinghouseState.json',
  frontendOpenOrders: 'info_frontendOpenOrders.json',
  openOrders: 'info_openOrders.json',
  meta: 'info_meta.json',
  allMids: 'info_allMids.json',
  l2Book: 'info_l2Book_DYDX.json',
  historicalOrders: 'info_historicalOrders.json',
  fundingHistory: 'info_fundingHistory_BTC.json',
  delegatorHistory: 'info_delegatorHistory.json',
};

const byTimeAsc = (a: Wire, b: Wire) => (a['time'] as number) - (b['time'] as number);

/** Items from `startTime` to `endTime` (inclusive), oldest first, at most `limit`: how the info API pages. */
function timeWindow(items: Wire[], body: Wire, limit: number): Wire[] {
  const start = Number(body['startTime'] ?? 0);
  const end = body['endTime'] === undefined || body['endTime'] === null ? Infinity : Number(body['endTime']);
  return items
    .filter((item) => (item['time'] as number) >= start && (item['time'] as number) <= end)
    .sort(byTimeAsc)
    .slice(0, limit);
}

/**
 * A local stand-in for the public API: POST /info answers from the recorded fixtures and the accounts a
 * test fills in; a websocket at /ws (same port) takes subscriptions, answers pings, sends snapshot frames
 * (`isSnapshot: true`) for the user channels that have them, and sends whatever frames a test pushes.
 * Every info request and subscription is recorded for assertions, and a test can drop every connection.
 */
export class FakeHyperliquidServer {
  readonly infoRequests: Wire[] = [];
  readonly connections: FakeConnection[] = [];
  /** Send the history snapshot on subscription, as the real server does. */
  snapshots = true;
  answerPings = true;
  /** When set, `allMids` answers these mids instead of the fixture. */
  mids: Record<string, string> | null = null;
  private readonly accounts = new Map<string, FakeAccount>();
  private readonly failures: number[] = [];

  private constructor(
    private readonly http: Server,
    private readonly wss: WebSocketServer,
    readonly pageSizes: FakePageSizes,
  ) {}

  static async start(pageSizes: Partial<FakePageSizes> = {}): Promise<FakeHyperliquidServer> {
    const http = createServer();
    const wss = new WebSocketServer({ server: http, path: '/ws' });
    const server = new FakeHyperliquidServer(http, wss, {
      userFillsByTime: 2000,
      userFunding: 500,
      userNonFundingLedgerUpdates: 500,
      ...pageSizes,
    });
    http.on('request', (req, res) => void server.onInfo(req, res));
    wss.on('connection', (socket) => server.onConnection(socket));
    http.listen(0, '127.0.0.1');
    await once(http, 'listening');
    return server;
  }

  get port(): number {
    return (this.http.address() as AddressInfo).port;
  }

  get infoUrl(): string {
    return `http://127.0.0.1:${this.port}/info`;
  }

  get wsUrl(): string {
    return `ws://127.0.0.1:${this.port}/ws`;
  }

  account(address: string): FakeAccount {
    const key = address.toLowerCase();
    let account = this.accounts.get(key);
    if (!account) {
      account = { fills: [], fundings: [], ledger: [], twaps: [] };
      this.accounts.set(key, account);
    }
    return account;
  }

  /** Gives the wallet the recorded history: 500 fills, 13 funding payments, 5 ledger updates. */
  loadFixtureHistory(address: string): void {
    const account = this.account(address);
    account.fills.push(...fixtureFills());
    account.fundings.push(...(fixtureJson('info_userFunding.json') as Wire[]));
    account.ledger.push(...(fixtureJson('info_userNonFundingLedgerUpdates.json') as Wire[]));
  }

  /** New fills in the wallet's history; `live` also sends them now, on `userFills` and on `user` (userEvents), as the exchange does. */
  addFills(address: string, fills: Wire[], { live }: { live: boolean }): void {
    this.account(address).fills.push(...fills);
    if (!live) return;
    this.send(address, 'userFills', { channel: 'userFills', data: { user: address.toLowerCase(), fills } });
    this.send(address, 'userEvents', { channel: 'user', data: { fills } });
  }

  /** Sends the frames of ws_frames_mixed.json verbatim to the wallet's `userEvents` subscribers. */
  replayFixtureFrames(address: string): void {
    for (const frame of fixtureJson('ws_frames_mixed.json') as Wire[]) this.send(address, 'userEvents', frame);
  }

  /** Sends one frame (an object is JSON-encoded, a string goes as it is) to the connections subscribed to that channel of the wallet. */
  send(address: string, type: string, frame: Wire | string): number {
    const text = typeof frame === 'string' ? frame : JSON.stringify(frame);
    const targets = this.connections.filter(
      (c) => !c.closed && c.subscriptions.some((s) => s['type'] === type && String(s['user']).toLowerCase() === address.toLowerCase()),
    );
    for (const connection of targets) connection.socket.send(text);
    return targets.length;
  }

  /** The next info requests fail with these statuses, one each, before any is answered. */
  failNextInfo(...statuses: number[]): void {
    this.failures.push(...statuses);
  }

  /** Cuts every websocket at once, as a network drop would. */
  dropConnections(): void {
    for (const connection of this.connections) {
      connection.closed = true;
      connection.socket.terminate();
    }
  }

  openConnections(): FakeConnection[] {
    return this.connections.filter((c) => !c.closed);
  }

  async close(): Promise<void> {
    this.dropConnections();
    this.wss.close();
    this.http.closeAllConnections();
    await new Promise((resolve) => this.http.close(resolve));
  }

  private async onInfo(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const reply = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    };
    if (req.method !== 'POST' || req.url !== '/info') return reply(404, 'not found');
    let body: Wire;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Wire;
    } catch {
      return reply(400, 'Failed to parse the request body as JSON');
    }
    this.infoRequests.push(body);
    const failure = this.failures.shift();
    if (failure !== undefined)
      return reply(failure, failure === 429 ? 'rate limited' : 'server error', failure === 429 ? { 'retry-after': '0' } : {});
    const type = String(body['type']);
    const account = this.account(String(body['user'] ?? ''));
    switch (type) {
      case 'userFillsByTime':
        return reply(200, timeWindow(account.fills, body, this.pageSizes.userFillsByTime));
      case 'userFills':
        return reply(200, [...account.fills].sort((a, b) => byTimeAsc(b, a)).slice(0, 2000));
      case 'userFunding':
        return reply(200, timeWindow(account.fundings, body, this.pageSizes.userFunding));
      case 'userNonFundingLedgerUpdates':
        return reply(200, timeWindow(account.ledger, body, this.pageSizes.userNonFundingLedgerUpdates));
      case 'twapHistory':
        return reply(200, account.twaps);
      case 'allMids':
        return reply(200, this.mids ?? fixtureJson(STATIC_INFO.allMids!));
      default:
        if (STATIC_INFO[type]) return reply(200, fixtureJson(STATIC_INFO[type]));
        return reply(422, 'Failed to deserialize the JSON body into the target type');
    }
  }

  private onConnection(socket: WebSocket): void {
    const connection: FakeConnection = { socket, subscriptions: [], closed: false };
    this.connections.push(connection);
    socket.on('close', () => (connection.closed = true));
    socket.send('Websocket connection established.');
    socket.on('message', (data) => {
      let message: Wire;
      try {
        message = JSON.parse(data.toString()) as Wire;
      } catch {
        socket.send(JSON.stringify({ channel: 'error', data: `Invalid message: ${data.toString()}` }));
        return;
      }
      const subscription = message['subscription'] as Wire | undefined;
      if (message['method'] === 'ping') {
        if (this.answerPings) socket.send(JSON.stringify({ channel: 'pong' }));
      } else if (message['method'] === 'subscribe' && subscription) {
        connection.subscriptions.push(subscription);
        socket.send(JSON.stringify({ channel: 'subscriptionResponse', data: message }));
        if (this.snapshots) this.sendSnapshot(socket, subscription);
      } else if (message['method'] === 'unsubscribe' && subscription) {
        const same = JSON.stringify(subscription);
        connection.subscriptions = connection.subscriptions.filter((s) => JSON.stringify(s) !== same);
        socket.send(JSON.stringify({ channel: 'subscriptionResponse', data: message }));
      } else {
        socket.send(JSON.stringify({ channel: 'error', data: `Invalid message: ${data.toString()}` }));
      }
    });
  }

  private sendSnapshot(socket: WebSocket, subscription: Wire): void {
    const user = String(subscription['user']).toLowerCase();
    const account = this.account(user);
    const lists: Record<string, [string, Wire[]]> = {
      userFills: ['fills', account.fills],
      userFundings: ['fundings', account.fundings.map(({ time, delta }) => ({ time, ...(delta as Wire), type: undefined }))],
      userNonFundingLedgerUpdates: ['nonFundingLedgerUpdates', account.ledger],
      userTwapHistory: ['history', account.twaps],
    };
    const list = lists[String(subscription['type'])];
    if (list) socket.send(JSON.stringify({ channel: subscription['type'], data: { isSnapshot: true, user, [list[0]]: list[1] } }));
  }
}
