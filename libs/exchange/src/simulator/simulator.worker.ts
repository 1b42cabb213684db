import { parentPort, workerData } from 'node:worker_threads';
import { generateSpan, skipTo, spanTransferList, type EngineAnswer, type EngineRequest } from './simulator-engine.js';
import { HyperliquidSimulator } from './simulator.js';
import { restoreSimulator, SavedStateRefusedError } from './simulator-saved-state.js';
import type { SimulatorSettings } from './simulator.types.js';

/** The worker side of WorkerSimulatorEngine: one simulator (replaced by a restored one), requests served in order. */
const settings = workerData as SimulatorSettings;
let simulator = new HyperliquidSimulator(settings);
const port = parentPort!;

port.on('message', (request: EngineRequest) => {
  const answer = (message: EngineAnswer) => port.postMessage(message);
  try {
    if (request.kind === 'skip') {
      const states = skipTo(simulator, request.untilMs, (nowMs) => answer({ id: request.id, kind: 'step', nowMs }), request.stateTimes);
      answer({ id: request.id, kind: 'done', states });
    } else if (request.kind === 'restore') {
      simulator = restoreSimulator(request.saved, settings);
      answer({ id: request.id, kind: 'done', reachedMs: simulator.reachedMs });
    } else {
      const span = generateSpan(simulator, request.untilMs, request.withState, request.save);
      port.postMessage({ id: request.id, kind: 'done', span } satisfies EngineAnswer, spanTransferList(span));
    }
  } catch (error) {
    answer({ id: request.id, kind: 'failed', message: (error as Error).message, refused: error instanceof SavedStateRefusedError });
  }
});
