import { MoveError, show } from '../core/errors.ts';
import { otherSeat, type Game, type Seat, type Solver } from '../core/game.ts';
import { defineFamily, intListSchema, intSchema, rangeSchema, variantId, type Range } from '../core/params.ts';
import { EndGameTables } from '../solvers/end-game.ts';

/** Longest row (GAMES.md 6: 1 to 10,000). The solvers themselves go to 50,000 and beyond (bench/end-game.bench.ts). */
export const MAX_LENGTH = 10_000;

/** Largest absolute value of a number in a row (margins stay far below 2^53). */
export const MAX_ABS_VALUE = 1_000_000_000;

/**
 * Parameters of End Game: the length and value range of dealt rows, or an explicit `row`. With a
 * row, every deal is that row, `length` is set to its length and `values` plays no part.
 */
export type EndGameParams = {
  readonly length: number;
  readonly values: Range;
  readonly row?: readonly number[] | undefined;
};

/**
 * A position: the numbers `row[lo..hi)` are left (hi exclusive). `row` is shared by every state of
 * a game and never mutated, so a move costs O(1). Scores are `[first, second]`.
 */
export interface EndGameState {
  readonly row: readonly number[];
  readonly lo: number;
  readonly hi: number;
  readonly scores: readonly [number, number];
  readonly turn: Seat;
}

/** Take the leftmost (`L`) or rightmost (`R`) number. */
export type EndGameMove = 'L' | 'R';

const BOTH: readonly EndGameMove[] = ['L', 'R'];
const NONE: readonly EndGameMove[] = [];

/** The numbers left, for describe: all of them, or the ends of a long row. */
function rowText(s: EndGameState): string {
  const left = s.hi - s.lo;
  if (left <= 20) return s.row.slice(s.lo, s.hi).join(' ');
  return `${s.row.slice(s.lo, s.lo + 8).join(' ')} … ${s.row.slice(s.hi - 8, s.hi).join(' ')} (${left} numbers)`;
}

/**
 * The exact solver: interval DP over the state's row, cached per row (see `EndGameTables`).
 * `value` is the final margin for the player to move, scores already made included.
 */
export function endGameSolver(): Solver<EndGameState, EndGameMove> {
  const tables = new EndGameTables();
  const value = (s: EndGameState): number => {
    const mine = s.turn === 'first' ? 0 : 1;
    const made = s.scores[mine] - s.scores[1 - mine]!;
    return made + (s.lo === s.hi ? 0 : tables.get(s.row).value(s.lo, s.hi));
  };
  return {
    scored: true,
    value,
    classify(s) {
      const v = value(s);
      return v > 0 ? 'N' : v < 0 ? 'P' : 'D';
    },
    // Ties prefer `L` (see EndGameTable.bestMove).
    bestMove: (s) => (s.lo === s.hi ? null : tables.get(s.row).bestMove(s.lo, s.hi)),
  };
}

/** GAMES.md 6: take a number from either end of a row; the larger total wins. */
export const endGame = defineFamily<EndGameParams, EndGameState, EndGameMove>({
  id: 'end-game',
  title: 'End Game',
  summary:
    'A row of integers; a move takes the leftmost or rightmost number and adds it to your score. The larger total wins; equal totals draw.',
  notation: '`L` (take the leftmost number) or `R` (take the rightmost)',
  params: {
    length: {
      schema: intSchema(1, MAX_LENGTH),
      description: 'the length of dealt rows (derived from `row` when a row is given)',
      expected: `an integer in 1..${MAX_LENGTH}`,
      default: 10,
    },
    values: {
      schema: rangeSchema(-MAX_ABS_VALUE, MAX_ABS_VALUE),
      description: 'the range dealt numbers are drawn from',
      expected: `a range lo..hi within ${-MAX_ABS_VALUE}..${MAX_ABS_VALUE}, e.g. -10..10`,
      default: { min: -10, max: 10 },
    },
    row: {
      schema: intListSchema(1, MAX_LENGTH, -MAX_ABS_VALUE, MAX_ABS_VALUE),
      description: 'a fixed start row (then every deal is this row)',
      expected: `1 to ${MAX_LENGTH} integers within ±${MAX_ABS_VALUE}, e.g. -1,3,9,4`,
      optional: true,
    },
  },
  create(raw) {
    const row = raw.row;
    // A given row fixes the length; the id then names only the row, so it round-trips.
    const params: EndGameParams = row ? { ...raw, length: row.length } : raw;
    const { values } = params;
    const game: Game<EndGameState, EndGameMove> = {
      id: row ? variantId('end-game', { row }) : variantId('end-game', { length: params.length, values }),
      family: 'end-game',
      title: row ? `End Game, row ${row.length > 12 ? `of ${row.length}` : row.join(' ')}` : `End Game, ${params.length} numbers`,
      params,
      deal: (rng) => {
        const dealt = row ?? Array.from({ length: params.length }, () => rng.int(values.min, values.max));
        return { row: dealt, lo: 0, hi: dealt.length, scores: [0, 0], turn: 'first' };
      },
      toMove: (s) => s.turn,
      moves: (s) => (s.lo < s.hi ? BOTH : NONE),
      play(s, m) {
        const left = m === 'L';
        const x = s.row[left ? s.lo : s.hi - 1]!;
        const scores: [number, number] = s.turn === 'first' ? [s.scores[0] + x, s.scores[1]] : [s.scores[0], s.scores[1] + x];
        return {
          row: s.row, // shared, never copied
          lo: left ? s.lo + 1 : s.lo,
          hi: left ? s.hi : s.hi - 1,
          scores,
          turn: otherSeat(s.turn),
        };
      },
      outcome(s) {
        if (s.lo < s.hi) return null;
        const [a, b] = s.scores;
        return { winner: a > b ? 'first' : a < b ? 'second' : null, scores: [a, b] };
      },
      // The numbers left, the scores and the side to move decide everything that follows.
      key: (s) => `${s.turn === 'first' ? 'f' : 's'}|${s.scores[0]},${s.scores[1]}|${s.row.slice(s.lo, s.hi).join(',')}`,
      formatMove: (m) => m,
      parseMove(text, s) {
        const t = text.trim().toUpperCase();
        if (t !== 'L' && t !== 'R') throw new MoveError(`Expected a move \`L\` or \`R\`, got ${show(text)}`);
        if (s.lo === s.hi) throw new MoveError('The row is empty: the game is over');
        return t;
      },
      describe: (s) => `row ${rowText(s) || '(empty)'}, scores ${s.scores[0]}–${s.scores[1]}, ${s.turn} to move`,
      toJSON: (s) => ({ row: s.row.slice(s.lo, s.hi), scores: s.scores }),
      solver: () => endGameSolver(),
      heuristic: (s, m) => s.row[m === 'L' ? s.lo : s.hi - 1]!,
      size: (s) => s.hi - s.lo,
      goal: {
        short: 'Goal: the larger sum. Take the number at either end (L or R) of the row; it is added to your score. Equal sums draw.',
        full: [
          'A move takes the leftmost (L) or the rightmost (R) number of the row and adds it to your score; numbers can be negative.',
          'When the row is empty the player with the larger sum of the numbers taken wins; equal sums draw.',
          'The first player can always at least draw on a row of even length: take every number at odd places, or every one at even places, whichever sums to more.',
        ],
        ending(s, names) {
          const [a, b] = s.scores;
          return `the row is empty: ${names.first} ${a}, ${names.second} ${b}; ${a === b ? 'equal sums draw' : 'the larger sum wins'}`;
        },
      },
    };
    return game;
  },
});
