/**
 * The seed strategies, measured: parity's End Game margins beside optimal's (first player against
 * an optimal second player, seed 004), and the learner's accuracy over five tournaments against
 * greedy from one store (seed 003's dynamic improvement). Not timings: figures of play quality,
 * the same on any machine (every run is seeded; the learner's node budget, not the clock, bounds it).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRng, deriveSeed } from '../src/core/index.ts';
import { discoverBots } from '../src/hosting/index.ts';
import { validateSpec } from '../src/arena/spec.ts';
import { prepareTournament, runTournament } from '../src/arena/tournament.ts';
import { parityMove } from '../src/strategies/index.ts';
import { endGameValue } from '../src/solvers/end-game.ts';

/** The first player's margin when it plays `first` and the second player plays optimally (the DP). */
function marginAgainstOptimal(row: readonly number[], first: (lo: number, hi: number) => 'L' | 'R'): number {
  let lo = 0;
  let hi = row.length;
  let margin = 0;
  let mine = true;
  while (lo < hi) {
    const m = mine
      ? first(lo, hi)
      : row[lo]! - endGameValue(row, lo + 1, hi) >= row[hi - 1]! - endGameValue(row, lo, hi - 1)
        ? 'L'
        : 'R';
    const x = m === 'L' ? row[lo++]! : row[--hi]!;
    margin += mine ? x : -x;
    mine = !mine;
  }
  return margin;
}

console.log('parity against optimal (first player, even rows of -10..10, 300 rows each):');
for (const n of [10, 20, 40]) {
  let parity = 0;
  let optimal = 0;
  let worse = 0;
  const rows = 300;
  for (let i = 0; i < rows; i++) {
    const rng = createRng(deriveSeed(17, n, i));
    const row = Array.from({ length: n }, () => rng.int(-10, 10));
    const p = marginAgainstOptimal(row, (lo, hi) => parityMove({ row, lo, hi })!);
    const o = endGameValue(row);
    parity += p;
    optimal += o;
    if (p < o) worse++;
  }
  console.log(`  length ${n}: mean margin parity ${(parity / rows).toFixed(2)}, optimal ${(optimal / rows).toFixed(2)}; parity below optimal on ${worse} of ${rows} rows`);
}

const VARIANT = 'coins{board=triangle;rows=6;start=0.7}';
const registry = await discoverBots([]);
const botData = mkdtempSync(join(tmpdir(), 'take-arena-learner-'));
const out = mkdtempSync(join(tmpdir(), 'take-arena-bench-'));
console.log(`\nlearner:nodes=300 against greedy on ${VARIANT}, 30 deals × 2 seatings, seed 11, five runs from one store:`);
try {
  for (let run = 1; run <= 5; run++) {
    const spec = validateSpec({ bots: ['learner:nodes=300', 'greedy'], games: [VARIANT], deals: 30, seed: 11, isolation: 'none', botData, out });
    const { summary } = await runTournament(prepareTournament(spec, registry));
    const me = summary.standings.pooled.bots.find((b) => b.bot.startsWith('learner'))!;
    const a = me.accuracy!;
    console.log(`  run ${run}: accuracy ${((100 * a.accurate) / a.moves).toFixed(1)} % (${a.accurate}/${a.moves} moves), won ${me.wins} of ${me.games}`);
  }
} finally {
  rmSync(botData, { recursive: true, force: true });
  rmSync(out, { recursive: true, force: true });
}
