/**
 * Per-move overhead of the external-bot protocol: the round trip of `session.move` (position to
 * JSON, one line to the bot's stdin, its answer line parsed and checked with `parseMove`) against
 * bots that answer at once, so the figure is the protocol's cost, not thinking time. Target: a
 * median under 1 ms.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ProcessHost } from '../src/hosting/index.ts';
import { createRng } from '../src/core/rng.ts';
import { parseVariant } from '../src/games/index.ts';
import { moveRoundTrips, report } from './util.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const logs = mkdtempSync(join(tmpdir(), 'protocol-bench-'));
const bots: { label: string; command: string[]; cwd: string }[] = [
  { label: 'python example', command: ['python3', 'bot.py'], cwd: join(root, 'examples/python-bot') },
  ...(existsSync(join(root, 'examples/c-bot/c-bot')) ? [{ label: 'C example', command: ['./c-bot'], cwd: join(root, 'examples/c-bot') }] : []),
];
const variants = ['subtraction{moves=1,5,8,10;n=200}', 'coins{board=square;side=6}'];
const N = 2000;

for (const bot of bots) {
  const t0 = performance.now();
  const host = new ProcessHost(bot.label, { name: 'bench', command: bot.command, cwd: bot.cwd, stderrLog: join(logs, 'bench.log') });
  await host.start();
  report(`${bot.label}: start to hello answered`, `${(performance.now() - t0).toFixed(1)} ms`);
  for (const variant of variants) {
    const game = parseVariant(variant);
    if (bot.label === 'C example' && game.family !== 'subtraction') continue;
    const state = game.deal(createRng(1));
    const moves = game.moves(state);
    const session = await host.open({ key: 'bench', variant, seat: 'first', rngSeed: 1 });
    const trips = await moveRoundTrips(session, state, moves, N, bot.label);
    session.close();
    report(`${bot.label}: move round trip, ${game.family} (${moves.length} legal moves), ${N} requests`, trips);
  }
  await host.close();
}
if (bots.length === 1) report('C example', 'not built (make -C examples/c-bot) — skipped');
