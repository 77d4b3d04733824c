/**
 * boardgame.io's `Simulate` on the tournament bench's game, the baseline of issue 4's target
 * ("in-process ≥ 100× what boardgame.io's Simulate does on the same game"). boardgame.io is not a
 * dependency of take-arena: it is installed on demand into `bench/baselines/node_modules` from the
 * pinned lockfile next to this file (`npm ci --prefix bench/baselines`).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = join(dirname(fileURLToPath(import.meta.url)), 'baselines');

/** The few boardgame.io types used here (its own typings are not installed with the product). */
interface Ctx {
  readonly currentPlayer: string;
  readonly gameover?: unknown;
}
interface Pile {
  n: number;
}
interface BgioGame {
  readonly name: string;
  readonly setup: () => Pile;
  readonly moves: Record<string, (ctx: { G: Pile }, take: number) => void>;
  readonly turn: { readonly minMoves: number; readonly maxMoves: number };
  readonly endIf: (ctx: { G: Pile; ctx: Ctx }) => { winner: string } | undefined;
}
interface BgioState {
  readonly _stateID: number;
  readonly ctx: Ctx;
}
interface Enumerated {
  readonly move: string;
  readonly args: readonly number[];
}
interface Bgio {
  readonly InitializeGame: (o: { game: BgioGame; numPlayers: number }) => BgioState;
  readonly RandomBot: new (o: { game: BgioGame; enumerate: (G: Pile) => Enumerated[]; seed: string }) => object;
  readonly Simulate: (o: { game: BgioGame; bots: Record<string, object>; state: BgioState }) => Promise<{ state: BgioState }>;
}

/** Loads boardgame.io, installing it first when needed; null (after saying why) when it cannot. */
function load(): Bgio | null {
  if (!existsSync(join(here, 'node_modules', 'boardgame.io'))) {
    console.log('  installing boardgame.io for the comparison (npm ci --prefix bench/baselines)…');
    const npm = spawnSync('npm', ['ci', '--prefix', here, '--no-audit', '--no-fund', '--loglevel=error'], { encoding: 'utf8' });
    if (npm.status !== 0) {
      console.log(`  boardgame.io comparison skipped: npm ci failed (${(npm.stderr || String(npm.error)).trim().split('\n')[0]})`);
      return null;
    }
  }
  const require = createRequire(join(here, 'package.json'));
  const ai = require('boardgame.io/ai') as Pick<Bgio, 'RandomBot' | 'Simulate'>;
  const internal = require('boardgame.io/internal') as Pick<Bgio, 'InitializeGame'>;
  return { ...ai, ...internal };
}

/**
 * Games and moves per second of random against random under `Simulate`, on the one-pile game
 * with takes `moves` and start piles `lo..hi` drawn in turn from a fixed sequence, as in the
 * take-arena bench.
 */
export async function simulateRate(moves: readonly number[], lo: number, hi: number, games: number): Promise<{ gamesPerSec: number; movesPerSec: number } | null> {
  const bgio = load();
  if (!bgio) return null;
  let deal = 0;
  const game: BgioGame = {
    name: 'subtraction',
    setup: () => ({ n: lo + ((deal++ * 7919) % (hi - lo + 1)) }),
    moves: {
      take: ({ G }, k) => {
        G.n -= k;
      },
    },
    turn: { minMoves: 1, maxMoves: 1 },
    // Normal play: whoever cannot move loses, so the player who just moved wins.
    endIf: ({ G, ctx }) => (moves.every((k) => k > G.n) ? { winner: ctx.currentPlayer } : undefined),
  };
  const enumerate = (G: Pile): Enumerated[] => moves.filter((k) => k <= G.n).map((k) => ({ move: 'take', args: [k] }));
  const run = async (count: number): Promise<{ ms: number; plies: number }> => {
    let plies = 0;
    const t0 = performance.now();
    for (let i = 0; i < count; i++) {
      const state = bgio.InitializeGame({ game, numPlayers: 2 });
      const bots = { '0': new bgio.RandomBot({ game, enumerate, seed: `a${i}` }), '1': new bgio.RandomBot({ game, enumerate, seed: `b${i}` }) };
      const end = await bgio.Simulate({ game, bots, state });
      if (end.state.ctx.gameover === undefined) throw new Error('boardgame.io Simulate stopped before the end of a game');
      plies += end.state._stateID;
    }
    return { ms: performance.now() - t0, plies };
  };
  await run(Math.min(200, games)); // warm-up
  const r = await run(games);
  return { gamesPerSec: (games / r.ms) * 1000, movesPerSec: (r.plies / r.ms) * 1000 };
}
