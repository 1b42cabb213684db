import { describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { SimulatorDirectory } from './simulator-directory.js';
import type { GeneratedSpan } from './simulator-engine.js';
import type { SimulatorSettings } from './simulator.types.js';

// The default settings (SIM_* in AppConfig) over 2 hours 20 minutes from a whole hour: three hourly files
// per stream, a funding hour, and chunked writes as the ingestor makes them.
const START = Date.UTC(2026, 10, 18, 7, 0);
const SETTINGS: SimulatorSettings = { seed: 1, startTimeMs: START, wallets: 300, markets: 8, eventsPerSecond: 1, bookOrders: 5_000 };
const CHUNK_MS = 15 * 60_000;
const UNTIL = START + 140 * 60_000;

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort();
}

/**
 * The simulator's bytes are its contract with every database built from it: the same seed must give the
 * same files whatever is done to make it faster. The hashes were recorded from the simulator before any
 * speed-up; a change here means the simulation changed, and that needs SIMULATOR_FORMAT bumped too.
 * This is the simulator in this thread, from the TypeScript sources; the worker thread runs the build's
 * JavaScript, so that it gives these same bytes is checked after the build, by simulator-output.worker.db-spec.ts.
 */

describe('simulator output (pinned bytes)', () => {
  it('writes exactly the recorded files for the default settings', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hl-sim-pin-'));
    // A state saved with every hour, whatever the wall time between them.
    const directory = await SimulatorDirectory.open(dir, SETTINGS, undefined, { saveStateEveryMs: 0 });
    try {
      let last: GeneratedSpan | undefined;
      for (let end = START + CHUNK_MS; ; end = Math.min(end + CHUNK_MS, UNTIL)) {
        await directory.write((last = await directory.generate(end, end === UNTIL)));
        if (end === UNTIL) break;
      }
      const hashes: Record<string, string> = {};
      // The simulator's saved state is not output: its bytes follow its code, and when it is saved the wall time.
      const { savedState, ...manifest } = JSON.parse(await readFile(join(dir, 'simulator.json'), 'utf8')) as Record<string, unknown>;
      await writeFile(join(dir, 'simulator.json'), JSON.stringify(manifest, null, 2));
      expect(savedState).toEqual({ file: `simulator-state-${START + 7_200_000}.bin`, reachedMs: START + 7_200_000 });
      for (const file of (await filesUnder(dir)).filter((name) => !name.startsWith('simulator-state-'))) {
        hashes[file] = createHash('sha256')
          .update(await readFile(join(dir, file)))
          .digest('hex');
      }
      expect(hashes).toEqual(PINNED);
      // The books a state update is taken from are part of the output too.
      expect(createHash('sha256').update(JSON.stringify(last!.state)).digest('hex')).toBe(PINNED_STATE);
    } finally {
      await directory.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

const PINNED_STATE = '4662d1c592b1303aad7a138485a4722f5c5dd6ec5f4639ac07c06de10cfe5e8b';

const PINNED: Record<string, string> = {
  'misc_events_by_block/hourly/20261118/7': '4ec26b02f5551a09a653030a891e20b60305cb35a11b34e85a6069134c71ccde',
  'misc_events_by_block/hourly/20261118/8': 'd48042fcd11dd340bb5ddd0e1cc588c844b90e1a7c25a253c56c70cd1c47cd0f',
  'misc_events_by_block/hourly/20261118/9': '1cba7bb711230f1b6d178b742ede62f1c6c04daf1836d21e69e5fcaf45540bb3',
  'node_fills_by_block/hourly/20261118/7': 'c4d135a8b671cc56fc612cfc1ccc09047d0b30a84659c1df518ffbd1c8543046',
  'node_fills_by_block/hourly/20261118/8': '9b96a49a004eb6f5debeaeeeec90c4c30330e7eb4ce7c6c01a098a59e6db51db',
  'node_fills_by_block/hourly/20261118/9': 'c03e525ebcda21d62ed1785ddc01233d130beaf04984e6b39caeda35d4c08ee4',
  'node_order_statuses_by_block/hourly/20261118/7': 'c453b6e9466d206f695cab17f5783b713266650db0ce0e4e5f44fc7a0dc31743',
  'node_order_statuses_by_block/hourly/20261118/8': 'bccb157ef8a533a1dc23f3d85399110d47f8297bd24e6ea5595c58d7b552af14',
  'node_order_statuses_by_block/hourly/20261118/9': '51b4d31fa3349c9dd8f922026ced5e3e6c74a032281ba08b361a949d50f30136',
  'node_twap_statuses_by_block/hourly/20261118/7': '86a34c181db82177a2252027225b289dc095a5e2bd15393e965acd0229edfca3',
  'node_twap_statuses_by_block/hourly/20261118/8': '4a0be5e5638fe78575711737664380ead00a87b9b1e8e1ad8425dcd3648d5510',
  'node_twap_statuses_by_block/hourly/20261118/9': '98e6267f633a701c68163ffcccb263f5ed9a9c721fbee27b808203d557d5148f',
  'simulator.json': '6ffc4c60cfe5ec03bfea9062622c9c962d4a849246bd94b8eaf3b4734ad0954e',
};
