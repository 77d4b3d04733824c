/**
 * Isolation `sandbox` against `process` and `worker`: the per-move overhead of `session.move` with
 * bots that answer at once (so the figure is the transport's cost, not thinking), and the start-up
 * of one bot process (spawn to `hello` answered; for module bots the bundle is built first, once).
 * Target (issue 18): sandbox's per-move overhead at most 2× the process transport's.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRng } from '../src/core/rng.ts';
import { parseVariant } from '../src/games/index.ts';
import { createHost, discoverBots, resolveBot, type BotHost } from '../src/hosting/index.ts';
import { sandboxProblem } from '../src/platform/sandbox.ts';
import { moveRoundTrips, report } from './util.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const logs = mkdtempSync(join(tmpdir(), 'sandbox-bench-'));
const problem = sandboxProblem();
if (problem) {
  report('sandbox', `skipped: ${problem}`);
  process.exit(0);
}
const registry = await discoverBots([join(root, 'examples/python-bot')]);
const variant = 'subtraction{moves=1,5,8,10;n=200}';
const game = parseVariant(variant);
const state = game.deal(createRng(1));
const moves = game.moves(state);
const N = 2000;

async function measure(label: string, bot: string, isolation: 'worker' | 'sandbox'): Promise<void> {
  const choice = resolveBot(registry, bot);
  const host: BotHost = createHost(choice.entry, { label: choice.label, name: choice.entry.name, options: choice.options }, { isolation, memoryMb: 256, resultsDir: logs });
  const t0 = performance.now();
  await host.start();
  report(`${label}: start (first process or thread ready)`, `${(performance.now() - t0).toFixed(1)} ms`);
  const session = await host.open({ key: 'bench', variant, seat: 'first', rngSeed: 1 });
  const trips = await moveRoundTrips(session, state, moves, N, label);
  session.close();
  // A second process: the bundle is built, so this is the start-up per bot process.
  const t1 = performance.now();
  const again = await host.open({ key: 'bench2', variant, seat: 'second', rngSeed: 2 });
  await again.move(state, moves, 5000);
  const second = performance.now() - t1;
  again.close();
  await host.close();
  report(`${label}: move round trip (${moves.length} legal moves), ${N} requests`, trips);
  report(`${label}: a later game's first move (reuses the warm process)`, `${second.toFixed(1)} ms`);
}

await measure('worker, module bot random', 'random', 'worker');
await measure('process, python example', 'python-bot', 'worker');
await measure('sandbox, python example', 'python-bot', 'sandbox');
await measure('sandbox, module bot random', 'random', 'sandbox');
