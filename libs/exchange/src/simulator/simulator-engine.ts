import { Worker } from 'node:worker_threads';
import type { ExchangeState } from '../state/exchange-state.types.js';
import { simulatorExchangeState } from '../state/simulator-state.source.js';
import type { NodeStream } from '../node/node-block.types.js';
import { hourlyFileName } from './hl-node-writer.js';
import { HyperliquidSimulator } from './simulator.js';
import { restoreSimulator, saveSimulator, SavedStateRefusedError } from './simulator-saved-state.js';
import { Utf8Lines } from './utf8-lines.js';
import type { SimulatorSettings } from './simulator.types.js';

const HOUR_MS = 3_600_000;

/** The lines of a span of exchange time, joined per hourly file, and the books at its end when asked for. */
export interface GeneratedSpan {
  untilMs: number;
  /**
   * Paths relative to the simulator directory, in the order their first line came, and their lines as
   * UTF-8: bytes move from a worker thread without a copy, and are appended as they are.
   */
  files: Array<{ path: string; bytes: Uint8Array }>;
  lines: number;
  state: ExchangeState | null;
  /** The simulator's whole state at the span's end (simulator-saved-state.ts), when asked for. */
  saved: Uint8Array | null;
}

/**
 * Runs the simulator for a SimulatorDirectory: in this thread, or in a worker thread so the next spans
 * are generated while the last ones are stored. Calls are served in the order they are made, so a caller
 * may ask for several spans ahead and write them in that order.
 */
export interface SimulatorEngine {
  /**
   * Runs to `untilMs` without output (replaying what the directory holds), in hour-long steps; resolves to
   * the books at each of `stateTimes` passed on the way (as `generate` gives them at a span's end).
   */
  skip(untilMs: number, onStep?: (nowMs: number) => void, stateTimes?: readonly number[]): Promise<ExchangeState[]>;
  generate(untilMs: number, withState: boolean, save?: boolean): Promise<GeneratedSpan>;
  /**
   * Replaces the simulator by the one a span's `saved` holds; resolves to the exchange time it reached.
   * Should it be refused (SavedStateRefusedError's reason), the simulator is left as it was.
   */
  restore(saved: Uint8Array): Promise<number>;
  close(): Promise<void>;
}

/**
 * The span's lines grouped per file (one append each, so a tailing reader never sees a stream out of
 * order), then the books at its end (and the whole state with `save`): taken after the last line.
 */
export function generateSpan(simulator: HyperliquidSimulator, untilMs: number, withState: boolean, save = false): GeneratedSpan {
  const files = new Map<string, Utf8Lines>();
  // The files of the hour being written, per stream: a path is only made when a file starts.
  let hour = '';
  let ofHour = new Map<NodeStream, Utf8Lines>();
  let lines = 0;
  for (const line of simulator.run(untilMs)) {
    const name = hourlyFileName(line.blockTimeMs);
    if (name !== hour) {
      hour = name;
      ofHour = new Map();
    }
    let file = ofHour.get(line.stream);
    if (!file) {
      ofHour.set(line.stream, (file = new Utf8Lines()));
      files.set(`${line.stream}/${name}`, file);
    }
    file.append(line.line);
    lines++;
  }
  const state = withState ? simulatorExchangeState(simulator) : null;
  const saved = save ? saveSimulator(simulator) : null;
  return { untilMs, files: [...files].map(([path, file]) => ({ path, bytes: file.bytes() })), lines, state, saved };
}

/** The span's buffers, to be moved to the other thread rather than copied (each has its own). */
export function spanTransferList(span: GeneratedSpan): ArrayBuffer[] {
  const buffers = span.files.map((f) => f.bytes.buffer as ArrayBuffer);
  return span.saved ? [...buffers, span.saved.buffer as ArrayBuffer] : buffers;
}

/** Runs to `untilMs` without output, stopping at each of `stateTimes` for the books (runs chain: the same blocks). */
export function skipTo(
  simulator: HyperliquidSimulator,
  untilMs: number,
  onStep?: (nowMs: number) => void,
  stateTimes: readonly number[] = [],
): ExchangeState[] {
  // A restored simulator may be exactly at a stop: its books then are the state at once.
  const stops = stateTimes.filter((t) => t >= simulator.reachedMs && t <= untilMs).sort((a, b) => a - b);
  const states: ExchangeState[] = [];
  while (simulator.reachedMs < untilMs || stops.length > 0) {
    const target = Math.min(untilMs, simulator.reachedMs + HOUR_MS, stops[0] ?? untilMs);
    for (const _line of simulator.run(target)) void _line;
    if (target === stops[0]) {
      states.push(simulatorExchangeState(simulator));
      stops.shift();
    }
    onStep?.(simulator.nowMs);
    if (target === untilMs) break;
  }
  return states;
}

/** The simulator in this thread: every call runs to completion before it returns. */
export class InProcessSimulatorEngine implements SimulatorEngine {
  private current: HyperliquidSimulator;

  constructor(private readonly settings: SimulatorSettings) {
    this.current = new HyperliquidSimulator(settings);
  }

  get simulator(): HyperliquidSimulator {
    return this.current;
  }

  async skip(untilMs: number, onStep?: (nowMs: number) => void, stateTimes?: readonly number[]): Promise<ExchangeState[]> {
    return skipTo(this.simulator, untilMs, onStep, stateTimes);
  }

  async generate(untilMs: number, withState: boolean, save = false): Promise<GeneratedSpan> {
    return generateSpan(this.simulator, untilMs, withState, save);
  }

  async restore(saved: Uint8Array): Promise<number> {
    this.current = restoreSimulator(saved, this.settings);
    return this.current.reachedMs;
  }

  async close(): Promise<void> {}
}

/** Requests to the worker (simulator.worker.ts) and its answers. */
type EngineCall =
  | { kind: 'skip'; untilMs: number; stateTimes: readonly number[] }
  | { kind: 'generate'; untilMs: number; withState: boolean; save: boolean }
  | { kind: 'restore'; saved: Uint8Array };
export type EngineRequest = EngineCall & { id: number };
interface EngineResult {
  span?: GeneratedSpan;
  states?: ExchangeState[];
  reachedMs?: number;
}
export type EngineAnswer =
  | { id: number; kind: 'step'; nowMs: number }
  | ({ id: number; kind: 'done' } & EngineResult)
  | { id: number; kind: 'failed'; message: string; refused: boolean };

interface Pending {
  resolve: (answer: EngineResult) => void;
  reject: (error: Error) => void;
  onStep?: (nowMs: number) => void;
}

/**
 * The simulator in a worker thread (its own core): generate() returns at once with the span to come,
 * so spans asked for ahead are made while this thread stores the earlier ones.
 */
export class WorkerSimulatorEngine implements SimulatorEngine {
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private failure: Error | null = null;

  constructor(settings: SimulatorSettings, workerUrl: URL = new URL('./simulator.worker.js', import.meta.url)) {
    this.worker = new Worker(workerUrl, { workerData: settings });
    this.worker.on('message', (answer: EngineAnswer) => this.answered(answer));
    this.worker.on('error', (error) => this.fail(error));
    this.worker.on('exit', (code) => this.fail(new Error(`the simulator worker exited with code ${code}`)));
    // A worker waiting for work must not keep the process alive on its own.
    this.worker.unref();
  }

  skip(untilMs: number, onStep?: (nowMs: number) => void, stateTimes: readonly number[] = []): Promise<ExchangeState[]> {
    return this.request({ kind: 'skip', untilMs, stateTimes }, onStep).then(({ states }) => states ?? []);
  }

  generate(untilMs: number, withState: boolean, save = false): Promise<GeneratedSpan> {
    return this.request({ kind: 'generate', untilMs, withState, save }).then(({ span }) => span!);
  }

  restore(saved: Uint8Array): Promise<number> {
    return this.request({ kind: 'restore', saved }).then(({ reachedMs }) => reachedMs!);
  }

  async close(): Promise<void> {
    this.failure ??= new Error('the simulator worker is closed');
    await this.worker.terminate();
  }

  private request(body: EngineCall, onStep?: (nowMs: number) => void): Promise<EngineResult> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, onStep });
      this.worker.postMessage({ id, ...body } satisfies EngineRequest);
    });
  }

  private answered(answer: EngineAnswer): void {
    const pending = this.pending.get(answer.id);
    if (!pending) return;
    if (answer.kind === 'step') return pending.onStep?.(answer.nowMs);
    this.pending.delete(answer.id);
    if (answer.kind === 'done') pending.resolve(answer);
    else pending.reject(answer.refused ? new SavedStateRefusedError(answer.message) : new Error(answer.message));
  }

  private fail(error: Error): void {
    this.failure ??= error;
    for (const pending of this.pending.values()) pending.reject(this.failure);
    this.pending.clear();
  }
}
