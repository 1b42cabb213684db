import { createHash } from 'node:crypto';
import { deserialize, serialize } from 'node:v8';
import { LedgerEventsWriter } from './ledger-events.writer.js';
import { LiquidationsWriter } from './liquidations.writer.js';
import { Ladder, MarketMakers } from './market-maker.js';
import { Market, MarketBook } from './market-book.js';
import { MarketOrdersWriter } from './market-orders.writer.js';
import { MinHeap } from './min-heap.js';
import { OrderDesk } from './order-desk.js';
import { OrderMatcher } from './order-matching.js';
import { BookSide, LevelHeap, RestingBook, RestingBooks } from './resting-book.js';
import { SeededRandom } from './seeded-random.js';
import { HyperliquidSimulator } from './simulator.js';
import type { SimulatorSettings } from './simulator.types.js';
import { TradeWriter } from './trade-writer.js';
import { TriggerOrdersWriter } from './trigger-orders.writer.js';
import { TwapOrdersWriter } from './twap-orders.writer.js';
import { ExpiryHeap, UserLimitOrders } from './user-limit-orders.js';
import { Wallet, WalletBook } from './wallet-book.js';

/** Version of the layout below; a saved state of another is not restored. */
const SAVED_STATE_VERSION = 1;
const CHECKSUM_BYTES = 32;

// Every class whose instances the simulator holds: a saved instance is restored with its prototype.
const CLASSES = [
  HyperliquidSimulator,
  SeededRandom,
  MarketBook,
  Market,
  WalletBook,
  Wallet,
  RestingBooks,
  RestingBook,
  BookSide,
  MinHeap,
  LevelHeap,
  ExpiryHeap,
  OrderDesk,
  OrderMatcher,
  TradeWriter,
  MarketMakers,
  Ladder,
  UserLimitOrders,
  MarketOrdersWriter,
  TriggerOrdersWriter,
  TwapOrdersWriter,
  LiquidationsWriter,
  LedgerEventsWriter,
] as const;
const CLASS_BY_NAME = new Map<string, { prototype: object }>(CLASSES.map((c) => [c.name, c]));
const CLASS_NAMES = new Map<unknown, string>(CLASSES.map((c) => [c, c.name]));

/**
 * The classes' code as this build has it: a state saved by other code (a field renamed, an order kept
 * otherwise) is not restored into this one, where it could continue with other blocks than a replay.
 */
const CODE_FINGERPRINT = createHash('sha256')
  .update(CLASSES.map((c) => c.toString()).join('\n'))
  .digest('hex');

export class SavedStateRefusedError extends Error {}

type Kind = 'object' | 'array' | 'map' | 'set';

/**
 * The object graph as flat tables (v8 writes a few long arrays far faster than many small ones). Node i
 * has shape `shapes[nodeShapes[i]]` (its kind, its class, '' when plain, and an object's keys in order)
 * and `nodeSizes[i]` values (a map's keys and values alternate), taken in turn from `values`; where
 * `isReference` is 1, the value is the index of another node.
 */
interface SavedState {
  version: number;
  code: string;
  settings: SimulatorSettings;
  shapes: Array<[kind: Kind, className: string, keys: string[]]>;
  nodeShapes: number[];
  nodeSizes: number[];
  values: unknown[];
  isReference: Uint8Array;
}

/**
 * The simulator's whole state (books, wallets, orders, random generator, clock) as bytes: a checksum,
 * then the object graph (SavedState, v8's serializer for the values). A restored simulator continues
 * with exactly the blocks the saved one would have written.
 */
export function saveSimulator(simulator: HyperliquidSimulator): Uint8Array {
  const index = new Map<object, number>([[simulator, 0]]);
  const queue: object[] = [simulator];
  const shapeIndex = new Map<string, number>();
  const state: SavedState = {
    version: SAVED_STATE_VERSION,
    code: CODE_FINGERPRINT,
    settings: simulator.settings,
    shapes: [],
    nodeShapes: [],
    nodeSizes: [],
    values: [],
    isReference: new Uint8Array(0),
  };
  const references: number[] = [];
  const add = (value: unknown): void => {
    if (typeof value === 'function' || typeof value === 'symbol')
      throw new Error(`the simulator holds a ${typeof value}, which cannot be saved`);
    if (typeof value !== 'object' || value === null) {
      state.values.push(value);
      return;
    }
    let at = index.get(value);
    if (at === undefined) {
      index.set(value, (at = queue.length));
      queue.push(value);
    }
    references.push(state.values.length);
    state.values.push(at);
  };
  // Breadth first, by a queue: no recursion however long a chain of references is.
  for (let i = 0; i < queue.length; i++) {
    const node = queue[i]!;
    const [kind, className, keys] = shapeOf(node);
    const shape = `${kind} ${className} ${keys.join(' ')}`;
    let shapeAt = shapeIndex.get(shape);
    if (shapeAt === undefined) {
      shapeIndex.set(shape, (shapeAt = state.shapes.length));
      state.shapes.push([kind, className, keys]);
    }
    const from = state.values.length;
    if (kind === 'array' || kind === 'set') for (const item of node as Iterable<unknown>) add(item);
    else if (kind === 'map')
      for (const [k, v] of node as Map<unknown, unknown>) {
        add(k);
        add(v);
      }
    else for (const key of keys) add((node as Record<string, unknown>)[key]);
    state.nodeShapes.push(shapeAt);
    state.nodeSizes.push(state.values.length - from);
  }
  state.isReference = new Uint8Array(state.values.length);
  for (const at of references) state.isReference[at] = 1;
  const body = serialize(state);
  const saved = new Uint8Array(CHECKSUM_BYTES + body.length);
  saved.set(createHash('sha256').update(body).digest());
  saved.set(body, CHECKSUM_BYTES);
  return saved;
}

function shapeOf(value: object): [Kind, string, string[]] {
  if (Array.isArray(value)) return ['array', '', []];
  if (value instanceof Map) return ['map', '', []];
  if (value instanceof Set) return ['set', '', []];
  const prototype = Object.getPrototypeOf(value) as { constructor?: unknown } | null;
  const className = prototype === Object.prototype ? '' : CLASS_NAMES.get(prototype?.constructor);
  if (className === undefined)
    throw new Error(`the simulator holds an instance of ${String(prototype?.constructor)}, which cannot be saved`);
  return ['object', className, Object.keys(value)];
}

/** The simulator a `saveSimulator` made, for these settings; SavedStateRefusedError says why it cannot be. */
export function restoreSimulator(saved: Uint8Array, settings: SimulatorSettings): HyperliquidSimulator {
  const body = saved.subarray(CHECKSUM_BYTES);
  if (saved.length <= CHECKSUM_BYTES || !createHash('sha256').update(body).digest().equals(saved.subarray(0, CHECKSUM_BYTES)))
    throw new SavedStateRefusedError('its checksum does not match its content (a file cut short or damaged)');
  const state = deserialize(body) as SavedState;
  if (state.version !== SAVED_STATE_VERSION)
    throw new SavedStateRefusedError(`it has layout ${state.version}, this build reads ${SAVED_STATE_VERSION}`);
  if (state.code !== CODE_FINGERPRINT) throw new SavedStateRefusedError("it was saved by another build of the simulator's code");
  if (canonical(state.settings) !== canonical(settings))
    throw new SavedStateRefusedError(`it was saved with ${JSON.stringify(state.settings)}, not ${JSON.stringify(settings)}`);
  const { shapes, nodeShapes, nodeSizes, values, isReference } = state;
  const objects = nodeShapes.map((shape) => shellOf(shapes[shape]![0], shapes[shape]![1]));
  let at = 0;
  const next = (): unknown => (isReference[at] === 1 ? objects[values[at++] as number] : values[at++]);
  objects.forEach((target, i) => {
    const [kind, , keys] = shapes[nodeShapes[i]!]!;
    const end = at + nodeSizes[i]!;
    if (kind === 'array') while (at < end) (target as unknown[]).push(next());
    else if (kind === 'set') while (at < end) (target as Set<unknown>).add(next());
    else if (kind === 'map') while (at < end) (target as Map<unknown, unknown>).set(next(), next());
    else for (const key of keys) (target as Record<string, unknown>)[key] = next();
  });
  const simulator = objects[0];
  if (!(simulator instanceof HyperliquidSimulator)) throw new SavedStateRefusedError('it does not hold a simulator');
  return simulator;
}

function canonical(settings: SimulatorSettings): string {
  return JSON.stringify(settings, Object.keys(settings).sort());
}

function shellOf(kind: Kind, className: string): object {
  if (kind === 'array') return [];
  if (kind === 'map') return new Map();
  if (kind === 'set') return new Set();
  if (className === '') return {};
  const type = CLASS_BY_NAME.get(className);
  if (!type) throw new SavedStateRefusedError(`it holds an instance of ${className}, a class this build does not have`);
  return Object.create(type.prototype) as object;
}
