/**
 * The standings' accuracy judged as a game is played (the match feeds `MoveJudge` its own
 * positions) against the same game judged by replaying its logged line (`judgeGame`): for every
 * family, for games that end normally, by a forfeit, or by adjudication, and with the bots on
 * worker threads too. The judge never leaves the runner: the log line does not carry it.
 */
import { describe, expect, it } from 'vitest';
import type { GameRecord } from '../../src/arena/match.ts';
import { parseRecordLine, recordLine } from '../../src/arena/results.ts';
import { JUDGED, judgeGame } from '../../src/arena/standings.ts';
import { createRng } from '../../src/core/rng.ts';
import { parseVariant } from '../../src/games/index.ts';
import { runSpec } from './helpers.ts';

const GAMES = [
  'subtraction{moves=1,5,8,10;n=50..200}',
  'no-repeat{moves=1,2,3,4,5;n=20..80}',
  'partizan{left=2,5,9;right=3,4,8;n=20..60;start=right}', // the second seat moves first
  'piles{rule=squares;piles=3;size=1..20}',
  'piles{rule=nim;piles=3;size=1..15}',
  'coins{board=triangle;rows=4;start=full;scoring=last-coin}',
  'end-game{length=8;values=-5..5}', // scored
];

/** Checks each record the run reported against a replay of its logged line; returns how many moves were judged. */
function checkAgainstReplay(records: readonly GameRecord[]): number {
  let judged = 0;
  for (const rec of records) {
    const inPlay = rec[JUDGED];
    expect(inPlay, rec.key).toBeDefined();
    const logged = parseRecordLine(recordLine(rec).trimEnd())!;
    expect(logged[JUDGED]).toBeUndefined();
    const game = parseVariant(rec.variant);
    const start = game.deal(createRng(rec.dealSeed));
    let solver = game.solver?.();
    if (solver?.bestMoveBy) solver = undefined;
    const replayed = judgeGame({ game, solver }, logged, start);
    expect(inPlay!.judged(), rec.key).toEqual(replayed);
    expect(inPlay!.startSeat).toBe(game.toMove(start));
    judged += (replayed?.first.moves ?? 0) + (replayed?.second.moves ?? 0);
  }
  return judged;
}

async function reported(raw: Parameters<typeof runSpec>[0]): Promise<GameRecord[]> {
  const records: GameRecord[] = [];
  const result = await runSpec(raw, { sink: { emit: (e) => void (e.type === 'game-ended' && records.push(e.record)) } });
  expect(result.interrupted).toBe(false);
  return records;
}

describe('accuracy judged in play', () => {
  it('equals the replay of the logged game in every family, forfeits included', async () => {
    const records = await reported({ name: 'in-play', seed: 11, games: GAMES, bots: ['random', 'greedy', 'fx-illegal'], deals: 3, timePerMoveMs: 1000, isolation: 'none', concurrency: 2 });
    expect(records).toHaveLength(GAMES.length * 3 * 3 * 2);
    expect(records.some((r) => r.termination === 'illegal-move' && r.moves.length > 0)).toBe(true);
    expect(checkAgainstReplay(records)).toBeGreaterThan(300);
  });

  it('equals it for adjudicated games and for bots on worker threads', async () => {
    const records = await reported({ name: 'in-play-w', seed: 12, games: GAMES, bots: ['random', 'greedy'], deals: 2, timePerMoveMs: 1000, isolation: 'worker', concurrency: 4, adjudicate: true });
    expect(records.some((r) => r.termination === 'adjudicated')).toBe(true);
    expect(checkAgainstReplay(records)).toBeGreaterThan(50);
  });
});
