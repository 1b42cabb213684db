import { parentPort, workerData } from 'node:worker_threads';
import { generateSpan, skipTo, spanTransferList, type EngineAnswer, type EngineRequest } from './simulator-engine.js';
import { HyperliquidSimulator } from './simulator.js';
import type { SimulatorSettings } from './simulator.types.js';

/** The worker side of WorkerSimulatorEngine: one simulator, requests served in order. */
const simulator = new HyperliquidSimulator(workerData as SimulatorSettings);
const port = parentPort!;

port.on('message', (request: EngineRequest) => {
  const answer = (message: EngineAnswer) => port.postMessage(message);
  try {
    if (request.kind === 'skip') {
      const states = skipTo(simulator, request.untilMs, (nowMs) => answer({ id: request.id, kind: 'step', nowMs }), request.stateTimes);
      answer({ id: request.id, kind: 'done', states });
    } else {
      const span = generateSpan(simulator, request.untilMs, request.withState);
      port.postMessage({ id: request.id, kind: 'done', span } satisfies EngineAnswer, spanTransferList(span));
    }
  } catch (error) {
    answer({ id: request.id, kind: 'failed', message: (error as Error).message });
  }
});
