import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../../core/errors.ts';
import type { AnyGame, Seat } from '../../core/game.ts';
import { createRng } from '../../core/rng.ts';
import { parseVariant } from '../../games/index.ts';
import type { GameRecord } from '../../arena/match.ts';
import { readFinishedGames, RESULTS_FILES } from '../../arena/results/index.ts';

/** One replayed move: the positions around it, its notation, who played it and in how long. */
export interface ReplayPly {
  readonly before: unknown;
  readonly after: unknown;
  readonly text: string;
  readonly seat: Seat;
  readonly ms: number;
}

/** A logged game rebuilt move by move. */
export interface Replay {
  readonly record: GameRecord;
  readonly game: AnyGame;
  readonly start: unknown;
  readonly plies: readonly ReplayPly[];
  /** Set when the log's moves could not all be replayed (a forfeit's bad move is not in the log). */
  readonly problem: string | null;
}

/**
 * Every finished game of a results folder's `games.jsonl` in schedule order, as the report reads
 * them (`readFinishedGames`): a line that is not a game, fails its checksum or repeats a game is
 * left out, as the report and resume leave it out.
 */
export function readGames(dir: string): GameRecord[] {
  const file = join(dir, RESULTS_FILES.games);
  if (!existsSync(file)) throw new UsageError(`Expected a results folder with ${RESULTS_FILES.games} in it, got ${JSON.stringify(dir)}`);
  const records: GameRecord[] = [];
  readFinishedGames(dir, file, (rec) => records.push(rec));
  // Concurrent games are logged as they finish; the list reads in schedule order (#1, #2, …).
  return records.sort((a, b) => a.index - b.index);
}

/** Rebuilds a logged game: the variant from its id, the deal from its seed, then each logged move. */
export function replayRecord(record: GameRecord): Replay {
  const game = parseVariant(record.variant);
  const start = game.deal(createRng(record.dealSeed));
  if (JSON.stringify(game.toJSON(start)) !== JSON.stringify(record.start)) {
    return { record, game, start, plies: [], problem: 'the deal does not match the log (the variant’s rules changed since)' };
  }
  const plies: ReplayPly[] = [];
  let state = start;
  for (let i = 0; i < record.moves.length; i++) {
    const m = record.moves[i]!;
    const seat = game.toMove(state);
    try {
      const move = game.parseMove(m, state);
      const after = game.play(state, move);
      plies.push({ before: state, after, text: m, seat, ms: (record.us[i] ?? 0) / 1000 });
      state = after;
    } catch (err) {
      return { record, game, start, plies, problem: `move ${plies.length + 1} (${m}) does not replay: ${err instanceof Error ? err.message : String(err)}` };
    }
  }
  return { record, game, start, plies, problem: null };
}
