/**
 * The standings' accuracy judged as a game is played (the match feeds its `MoveJudge` observer its
 * own positions, and the judgement goes with the record to the runner's `finish`) against the same
 * game judged by replaying its logged line (`judgeGame`): for every family, for games that end
 * normally, by a forfeit, or by adjudication, and with the bots on worker threads too. The judge
 * never leaves the runner: the log line carries the game alone.
 */
import { describe, expect, it } from 'vitest';
import type { Executor } from '../../../src/arena/executor.ts';
import { judgeGame, type GameJudgement } from '../../../src/arena/fold/accuracy.ts';
import type { GameRecord } from '../../../src/arena/match.ts';
import { parseRecordLine, recordLine } from '../../../src/arena/results/index.ts';
import { localExecutor, type PreparedTournament } from '../../../src/arena/tournament.ts';
import { createRng } from '../../../src/core/rng.ts';
import { parseVariant } from '../../../src/games/index.ts';
import { runSpec } from '../helpers.ts';

const GAMES = [
  'subtraction{moves=1,5,8,10;n=50..200}',
  'no-repeat{moves=1,2,3,4,5;n=20..80}',
  'partizan{left=2,5,9;right=3,4,8;n=20..60;start=right}', // the second seat moves first
  'piles{rule=squares;piles=3;size=1..20}',
  'piles{rule=nim;piles=3;size=1..15}',
  'coins{board=triangle;rows=4;start=full;scoring=last-coin}',
  'end-game{length=8;values=-5..5}', // scored
];

/** A game as the local pool handed it to the runner: its record and what its judge found in play. */
type Finished = readonly [GameRecord, GameJudgement | undefined];

/** Checks each game the run folded against a replay of its logged line; returns how many moves were judged. */
function checkAgainstReplay(games: readonly Finished[]): number {
  let judged = 0;
  for (const [rec, inPlay] of games) {
    expect(inPlay, rec.key).toBeDefined();
    const logged = parseRecordLine(recordLine(rec).trimEnd())!;
    expect(logged).toEqual(rec);
    const game = parseVariant(rec.variant);
    const start = game.deal(createRng(rec.dealSeed));
    let solver = game.solver?.();
    if (solver?.bestMoveBy) solver = undefined;
    const replayed = judgeGame({ game, solver }, logged, start);
    expect(inPlay!.accuracy, rec.key).toEqual(replayed);
    expect(inPlay!.startSeat).toBe(game.toMove(start));
    judged += (replayed?.first.moves ?? 0) + (replayed?.second.moves ?? 0);
  }
  return judged;
}

/** Runs a tournament on the local pool; returns every game it handed over, with its judgement, once each game was reported. */
async function reported(raw: Parameters<typeof runSpec>[0]): Promise<Finished[]> {
  const games: Finished[] = [];
  const watched = (t: PreparedTournament, dir: string): Executor => {
    const pool = localExecutor(t, dir);
    return {
      concurrency: pool.concurrency,
      run: (ctx) => pool.run({ ...ctx, finish: (rec, judgement) => (games.push([rec, judgement]), ctx.finish(rec, judgement)) }),
      close: () => pool.close(),
    };
  };
  const ended: string[] = [];
  const result = await runSpec(raw, { executor: watched, sink: { emit: (e) => void (e.type === 'game-ended' && ended.push(e.record.key)) } });
  expect(result.interrupted).toBe(false);
  expect(ended.sort()).toEqual(games.map(([rec]) => rec.key).sort());
  return games;
}

describe('accuracy judged in play', () => {
  it('equals the replay of the logged game in every family, forfeits included', async () => {
    const games = await reported({ name: 'in-play', seed: 11, games: GAMES, bots: ['random', 'greedy', 'fx-illegal'], deals: 3, timePerMoveMs: 1000, isolation: 'none', concurrency: 2 });
    expect(games).toHaveLength(GAMES.length * 3 * 3 * 2);
    expect(games.some(([r]) => r.termination === 'illegal-move' && r.moves.length > 0)).toBe(true);
    expect(checkAgainstReplay(games)).toBeGreaterThan(300);
  });

  it('equals it for adjudicated games and for bots on worker threads', async () => {
    const games = await reported({ name: 'in-play-w', seed: 12, games: GAMES, bots: ['random', 'greedy'], deals: 2, timePerMoveMs: 1000, isolation: 'worker', concurrency: 4, adjudicate: true });
    expect(games.some(([r]) => r.termination === 'adjudicated')).toBe(true);
    expect(checkAgainstReplay(games)).toBeGreaterThan(50);
  });
});
