/**
 * GAMES.md 5, the coins family's rules: boards, parameters, moves and positions. Its exact analysis
 * (tables, table files, search) is wired in coins-solver.ts.
 */
import { z } from 'zod';
import { MoveError, ParamError, show } from '../core/errors.ts';
import { otherSeat, type Game, type GameGoal, type Seat } from '../core/game.ts';
import { defineFamily, enumSchema, intSchema, intSetSchema, toNumber, variantId } from '../core/params.ts';
import {
  MAX_BONUS,
  boardSegments,
  coinCount,
  hasCell,
  isSubmask,
  maskCells,
  squareGraph,
  triangleGraph,
  withoutMask,
  type CoinScoring,
  type LineGraph,
} from '../solvers/coins.ts';
import { coinsSolverFor, type Take } from './coins-solver.ts';
import type { CoinBoard, CoinMove, CoinsState } from './coins-state.ts';

export type { CoinBoard, CoinMove, CoinsState } from './coins-state.ts';

/** `last-coin`: who takes the last coin loses; `points`: coins taken score, plus a bonus. */
export type { CoinScoring };

/**
 * Parameters of the coin board. `rows` applies to the triangle and `side` to the square only, and
 * `bonus` to `points` only: they are optional (not defaulted) so that `create` can reject one given
 * for the other board or scoring, and the variant's `params` (hence its id) hold only the ones in
 * force — `parseVariant(game.id).id === game.id` for every variant.
 */
export type CoinsParams = {
  readonly board: CoinBoard;
  readonly rows?: number | undefined;
  readonly side?: number | undefined;
  readonly start: 'full' | number;
  readonly coins?: readonly number[] | undefined;
  readonly scoring: CoinScoring;
  readonly bonus?: number | undefined;
};

/** Default rows of the triangle (21 coins), from GAMES.md. */
export const DEFAULT_ROWS = 6;
/** Default side of the square (36 coins), from GAMES.md. */
export const DEFAULT_SIDE = 6;
/** Default points bonus for not taking the last coin. */
export const DEFAULT_BONUS = 3;
/** Largest triangle: 8 rows, 36 coins (every board fits a 36-bit mask). */
export const MAX_ROWS = 8;
/** Largest square: 6 × 6, 36 coins. */
export const MAX_SIDE = 6;

/** `full`, or a density in (0, 1]: the text `full` or a number. */
const startSchema: z.ZodType<'full' | number> = z.preprocess(
  toNumber,
  z.union([z.literal('full'), z.number().gt(0).max(1)]),
);

interface Geometry {
  readonly graph: LineGraph;
  /** Coin numbers row by row, for `describe`. */
  readonly rowsOfCoins: readonly (readonly number[])[];
}

function geometry(board: CoinBoard, size: number): Geometry {
  const rowsOfCoins: number[][] = [];
  let next = 1;
  for (let r = 0; r < size; r++) {
    const width = board === 'triangle' ? r + 1 : size;
    rowsOfCoins.push(Array.from({ length: width }, () => next++));
  }
  return { graph: board === 'triangle' ? triangleGraph(size) : squareGraph(size), rowsOfCoins };
}

/** GAMES.md 5: take coins in a straight line from a triangle or a square; misère or on points. */
export { BLOCK_TABLE_COINS, coinTablesBuilt, SEARCH_BUDGET_MS } from './coins-solver.ts';

export const coins = defineFamily<CoinsParams, CoinsState, CoinMove>({
  id: 'coins',
  title: 'Coin board',
  summary:
    'Coins on a triangle or a square; a move takes one or more coins in a row along one line, without gaps. ' +
    'Who takes the last coin loses (or, with scoring=points, each coin scores a point and not taking the last one earns a bonus).',
  notation: 'the first and last coin numbers of the take, e.g. `13-15`, or one number for one coin, e.g. `8`',
  params: {
    board: {
      schema: enumSchema(['triangle', 'square']),
      description: 'the board: a triangle (row r holds r coins) or a square',
      expected: '`triangle` or `square`',
      default: 'triangle',
      choices: ['triangle', 'square'],
    },
    rows: {
      schema: intSchema(1, MAX_ROWS),
      description: `rows of the triangle board (default ${DEFAULT_ROWS}: 21 coins); triangle only`,
      expected: `an integer from 1 to ${MAX_ROWS}`,
      optional: true,
    },
    side: {
      schema: intSchema(1, MAX_SIDE),
      description: `side of the square board (default ${DEFAULT_SIDE}: 36 coins); square only`,
      expected: `an integer from 1 to ${MAX_SIDE}`,
      optional: true,
    },
    start: {
      schema: startSchema,
      description: 'the start position: the full board, or a density: each game deals round(density × coins) coins at random',
      expected: '`full` or a number in (0, 1], e.g. 0.5',
      default: 'full',
    },
    coins: {
      schema: intSetSchema(36, 36),
      description: 'the coins present at the start (overrides `start`)',
      expected: 'distinct coin numbers, e.g. 1,2,5',
      optional: true,
    },
    scoring: {
      schema: enumSchema(['last-coin', 'points']),
      description: 'last-coin: who takes the last coin loses; points: one point per coin taken, the higher total wins',
      expected: '`last-coin` or `points`',
      default: 'last-coin',
      choices: ['last-coin', 'points'],
    },
    bonus: {
      schema: intSchema(0, MAX_BONUS),
      description: `points for the player who did not take the last coin (default ${DEFAULT_BONUS}); scoring=points only`,
      expected: `an integer from 0 to ${MAX_BONUS}`,
      optional: true,
    },
  },
  create(raw) {
    const { board, scoring } = raw;
    if (board === 'triangle' && raw.side !== undefined) {
      throw new ParamError(`Expected \`side\` only with board=square (the triangle is sized by \`rows\`), got side=${raw.side}`);
    }
    if (board === 'square' && raw.rows !== undefined) {
      throw new ParamError(`Expected \`rows\` only with board=triangle (the square is sized by \`side\`), got rows=${raw.rows}`);
    }
    if (scoring !== 'points' && raw.bonus !== undefined) {
      throw new ParamError(`Expected \`bonus\` only with scoring=points, got bonus=${raw.bonus} with scoring=${scoring}`);
    }
    const size = board === 'triangle' ? (raw.rows ?? DEFAULT_ROWS) : (raw.side ?? DEFAULT_SIDE);
    const bonus = raw.bonus ?? DEFAULT_BONUS;
    const { graph, rowsOfCoins } = geometry(board, size);
    const n = graph.cells;
    if (raw.coins && raw.coins[raw.coins.length - 1]! > n) {
      throw new ParamError(`Expected \`coins\` to be coin numbers from 1 to ${n} on this board, got ${show(raw.coins)}`);
    }
    const start = raw.start === 1 ? 'full' : raw.start; // density 1 deals the full board: one id for one game
    // Only the parameters in force, in declaration order: the id is canonical.
    const params: Readonly<Record<string, unknown>> = {
      board,
      ...(board === 'triangle' ? { rows: size } : { side: size }),
      ...(raw.coins ? { coins: raw.coins } : { start }),
      scoring,
      ...(scoring === 'points' ? { bonus } : {}),
    };

    const takes: Take[] = boardSegments(graph).map((seg) => ({
      move: Object.freeze({ first: seg.cells[0]! + 1, last: seg.cells[seg.cells.length - 1]! + 1 }),
      mask: seg.mask,
      size: seg.cells.length,
    }));
    const byEnds = new Map(takes.map((t) => [t.move.first * 64 + t.move.last, t]));
    const byMask = new Map(takes.map((t) => [t.mask, t]));
    const legalTakes = (mask: number): Take[] => takes.filter((t) => isSubmask(t.mask, mask));
    const fullMask = 2 ** n - 1;
    const listMask = raw.coins ? raw.coins.reduce((m, c) => m + 2 ** (c - 1), 0) : null;
    const dealtCount = raw.coins ? raw.coins.length : start === 'full' ? n : Math.max(1, Math.round(start * n));
    const cellList = Array.from({ length: n }, (_, i) => i);

    const takeOf = (m: CoinMove): Take | undefined => byEnds.get(m.first * 64 + m.last);
    const boardText = board === 'triangle' ? `${size}-row triangle` : `${size}×${size} square`;
    const title = `Coins on a ${boardText}${scoring === 'points' ? `, on points (bonus ${bonus})` : ''}`;

    const game: Game<CoinsState, CoinMove> = {
      id: variantId('coins', params),
      family: 'coins',
      title,
      params,
      deal(rng) {
        let mask: number;
        if (listMask !== null) mask = listMask;
        else if (start === 'full') mask = fullMask;
        else mask = rng.shuffle(cellList).slice(0, dealtCount).reduce((m, c) => m + 2 ** c, 0);
        return { coins: mask, turn: 'first', scores: [0, 0] };
      },
      toMove: (s) => s.turn,
      moves: (s) => legalTakes(s.coins).map((t) => t.move),
      play(s, m) {
        const take = takeOf(m);
        if (!take || !isSubmask(take.mask, s.coins)) throw new MoveError(`Take ${game.formatMove(m)} is not legal here`);
        const gain = scoring === 'points' ? take.size : 0;
        const scores: [number, number] = s.turn === 'first' ? [s.scores[0] + gain, s.scores[1]] : [s.scores[0], s.scores[1] + gain];
        return { coins: withoutMask(s.coins, take.mask), turn: otherSeat(s.turn), scores };
      },
      outcome(s) {
        if (s.coins !== 0) return null;
        // The board is empty: the opponent of the player to move took the last coin.
        if (scoring === 'last-coin') return { winner: s.turn };
        const scores: [number, number] =
          s.turn === 'first' ? [s.scores[0] + bonus, s.scores[1]] : [s.scores[0], s.scores[1] + bonus];
        const winner = scores[0] > scores[1] ? 'first' : scores[0] < scores[1] ? 'second' : null;
        return { winner, scores };
      },
      key(s) {
        const base = s.coins * 2 + (s.turn === 'first' ? 0 : 1);
        // Scores are below 64 (at most 36 coins), so the key stays below 2^49: exact in a double.
        return scoring === 'points' ? (base * 64 + s.scores[0]) * 64 + s.scores[1] : base;
      },
      formatMove: (m) => (m.first === m.last ? String(m.first) : `${m.first}-${m.last}`),
      parseMove(text, s) {
        const found = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(text);
        if (!found) {
          throw new MoveError(`Expected a take as first-last coin numbers, e.g. \`13-15\`, or one coin, e.g. \`8\`, got ${show(text)}`);
        }
        const a = Number(found[1]);
        const b = found[2] === undefined ? a : Number(found[2]);
        for (const c of [a, b]) {
          if (c < 1 || c > n) throw new MoveError(`Coin ${c} is not on this board (coins 1 to ${n})`);
        }
        const take = takeOf({ first: Math.min(a, b), last: Math.max(a, b) });
        if (!take) throw new MoveError(`Coins ${a} and ${b} are not on one line`);
        const gone = maskCells(withoutMask(take.mask, s.coins), n).map((c) => c + 1);
        if (gone.length > 0) {
          throw new MoveError(`${gone.length === 1 ? 'Coin' : 'Coins'} ${gone.join(', ')} ${gone.length === 1 ? 'is' : 'are'} already taken`);
        }
        return take.move;
      },
      describe(s) {
        const picture = rowsOfCoins.map((row) => row.map((c) => (hasCell(s.coins, c - 1) ? String(c) : '·')).join(' ')).join(' / ');
        const scores = scoring === 'points' ? `, scores ${s.scores[0]}–${s.scores[1]}` : '';
        return `${picture} — ${s.turn} to move${scores}`;
      },
      toJSON: (s) => ({
        coins: maskCells(s.coins, n).map((c) => c + 1),
        turn: s.turn,
        ...(scoring === 'points' ? { scores: [s.scores[0], s.scores[1]] } : {}),
      }),
      // The solver wiring (tables, table files, search) is coins-solver.ts's.
      solver: () => coinsSolverFor({ board, size, graph, scoring, bonus, dealtCount, legalTakes, moveOf: (mask) => byMask.get(mask)!.move }),
      heuristic(s, m) {
        const take = takeOf(m);
        if (!take) return Number.NEGATIVE_INFINITY;
        const left = coinCount(s.coins) - take.size;
        if (scoring === 'points') return left === 0 ? take.size - bonus : take.size; // the bonus goes to the opponent
        if (left === 0) return -1; // taking the last coin loses at once: the worst take
        if (left === 1) return n + 1; // the opponent must take the last coin: the best take
        return take.size;
      },
      size: (s) => coinCount(s.coins),
      goal: coinsGoal(scoring, bonus),
    };
    return game;
  },
});

const LINE_MOVE = 'A move takes one or more coins lying next to each other on one straight line (a row, a column or a diagonal), with no gap between them.';

/** How a coin board is won: not taking the last coin, or the higher score on points with the bonus. */
function coinsGoal(scoring: CoinScoring, bonus: number): GameGoal<CoinsState> {
  if (scoring === 'last-coin') {
    return {
      short: 'Goal: do not take the last coin. Who takes the last coin loses.',
      full: [LINE_MOVE, 'Last-coin scoring (misère): the player who takes the last coin loses, so leave your opponent one coin.'],
      ending: (s, names) => `${names[otherSeat(s.turn)]} took the last coin: who takes the last coin loses`,
    };
  }
  return {
    short: `Goal: the higher score. Each coin you take is 1 point; whoever does not take the last coin gets a bonus of ${bonus}. Equal scores draw.`,
    full: [
      LINE_MOVE,
      `Points scoring: each coin taken scores one point to its taker; when the board is empty, the player who did not take the last coin scores a bonus of ${bonus} more.`,
      'The higher total wins; equal totals draw. Taking many coins can be worth more than the bonus, so the best move may give up the last-coin fight.',
    ],
    ending(s, names) {
      const last = otherSeat(s.turn);
      const a = s.scores[0] + (s.turn === 'first' ? bonus : 0);
      const b = s.scores[1] + (s.turn === 'second' ? bonus : 0);
      return `${names[last]} took the last coin, so ${names[s.turn]} scored the bonus ${bonus}: ${names.first} ${a}, ${names.second} ${b}; ${a === b ? 'equal totals draw' : 'the higher total wins'}`;
    },
  };
}
