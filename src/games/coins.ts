import { z } from 'zod';
import { MoveError, ParamError, TooLargeError, show } from '../core/errors.ts';
import { otherSeat, type Game, type OutcomeClass, type Seat, type Solver } from '../core/game.ts';
import { defineFamily, enumSchema, intSchema, intSetSchema, toNumber, variantId } from '../core/params.ts';
import {
  DEFAULT_CAP,
  MAX_BONUS,
  SHARED_TABLE_COINS,
  boardSegments,
  coinCount,
  createCoinOracle,
  hasCell,
  isSubmask,
  maskCells,
  squareGraph,
  triangleGraph,
  withoutMask,
  type CoinOracle,
  type CoinScoring,
  type LineGraph,
} from '../solvers/coins.ts';
import { createBlockOracle, type BlockOracle } from '../solvers/coin-block-oracle.ts';
import { boardSymmetries, createCoinSearch, type CoinSearch } from '../solvers/coin-search.ts';
import { defaultTableDir, openTableFile, tableName, type TableFile } from '../solvers/coin-table-file.ts';

/** The two boards of GAMES.md 5. */
export type CoinBoard = 'triangle' | 'square';

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

/**
 * A take: the first and last coin numbers of k consecutive coins of one line, `first <= last`
 * (`first === last` for one coin). Two coins fix their line, so the pair names the take.
 */
export interface CoinMove {
  readonly first: number;
  readonly last: number;
}

/**
 * A position. `coins` is a board mask: bit i set when coin i + 1 is still on the board (a plain
 * number below 2^36; see `src/solvers/coins.ts` for why not int32). `scores` are the coins each
 * seat has taken `[first, second]` under `points` (the bonus is added only in the outcome); they
 * stay `[0, 0]` under `last-coin`, where they do not matter.
 */
export interface CoinsState {
  readonly coins: number;
  readonly turn: Seat;
  readonly scores: readonly [number, number];
}

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

/** A legal take shape with its board mask and size, in the family's fixed move order. */
interface Take {
  readonly move: CoinMove;
  readonly mask: number;
  readonly size: number;
}

// Tables outlive a game object: every variant on the same board and scoring (any start) shares one
// oracle, so a bot's worker builds each table once per tournament.
const ORACLES = new Map<string, CoinOracle>();

function oracleFor(board: CoinBoard, size: number, graph: LineGraph, scoring: CoinScoring, bonus: number): CoinOracle {
  const id = `${board}${size}:${scoring}:${scoring === 'points' ? bonus : ''}`;
  let oracle = ORACLES.get(id);
  if (!oracle) {
    oracle = createCoinOracle(graph, scoring, bonus);
    ORACLES.set(id, oracle);
  }
  return oracle;
}

// Whole-board tables on disk (`arena analyze coins --build-table`), opened once per board; null
// when absent. A table that fails to open (another layout, truncated) counts as absent: the
// search answers instead, so a stale cache file never breaks play.
const FILES = new Map<string, TableFile | null>();

function tableFileFor(board: CoinBoard, size: number, graph: LineGraph): TableFile | null {
  const dir = defaultTableDir();
  const id = `${dir}/${board}${size}`;
  let file = FILES.get(id);
  if (file === undefined) {
    try {
      file = openTableFile(dir, tableName(board, size), graph) ?? null;
    } catch {
      file = null;
    }
    FILES.set(id, file);
  }
  return file;
}

// One search (with its transposition table) per board, kept for the process like the oracles.
const SEARCHES = new Map<string, CoinSearch>();

function searchFor(board: CoinBoard, size: number, graph: LineGraph): CoinSearch {
  const id = `${board}${size}`;
  let search = SEARCHES.get(id);
  if (!search) {
    search = createCoinSearch(graph, { symmetries: boardSymmetries(board, size) });
    SEARCHES.set(id, search);
  }
  return search;
}

/** Default budget of the search solver's `value`/`bestMove` (`bestMoveBy` takes a deadline). */
export const SEARCH_BUDGET_MS = 5000;

/**
 * On boards beyond the dealt-position tables, positions of at most this many coins are solved by a
 * word-parallel table over their subsets (src/solvers/coin-block-oracle.ts: about 0.3 s of CPU for
 * 24 coins, 1 s for 26), larger ones by the search.
 */
export const BLOCK_TABLE_COINS = 26;

// One block oracle per board (its tables are per base position, reused within a game).
const BLOCK_ORACLES = new Map<string, BlockOracle>();

function blockOracleFor(board: CoinBoard, size: number, graph: LineGraph): BlockOracle {
  const id = `${board}${size}`;
  let oracle = BLOCK_ORACLES.get(id);
  if (!oracle) {
    oracle = createBlockOracle(graph, BLOCK_TABLE_COINS);
    BLOCK_ORACLES.set(id, oracle);
  }
  return oracle;
}

/**
 * The last-coin solver of a board too large for the subset tables and without a table file: a
 * memoized search per position (src/solvers/coin-search.ts). Positions of at most
 * BLOCK_TABLE_COINS coins are answered by `small` (a subset-table solver, with its tie-breaks);
 * larger ones by the search, whose tie-break is the same in a won position (the winning take with
 * the most coins, then the earliest) and, in a lost one, the earliest single coin. A position not
 * proved within the budget throws TooLargeError; `bestMoveBy` returns undefined instead.
 */
function searchSolver(
  search: CoinSearch,
  blocks: BlockOracle,
  small: Solver<CoinsState, CoinMove>,
  moveOf: (mask: number) => CoinMove,
  budgetMs: number,
): Solver<CoinsState, CoinMove> {
  const unproved = (s: CoinsState): TooLargeError =>
    new TooLargeError(`Expected a position the coin search proves within ${budgetMs} ms, got one of ${coinCount(s.coins)} coins it did not`);
  const wins = (s: CoinsState): boolean => {
    const w = search.wins(s.coins, Date.now() + budgetMs);
    if (w === undefined) throw unproved(s);
    return w;
  };
  const bestBy = (s: CoinsState, deadline: number): CoinMove | null | undefined => {
    const count = coinCount(s.coins);
    if (count <= BLOCK_TABLE_COINS) {
      // A new table costs about 2^(count − 16) ms here; give up rather than overrun the deadline.
      if (!blocks.covers(s.coins) && Date.now() + 2 ** (count - 16) > deadline) return undefined;
      return small.bestMove(s);
    }
    const take = search.bestTake(s.coins, deadline);
    return take === undefined || take === null ? take : moveOf(take);
  };
  return {
    scored: false,
    value: (s) => (coinCount(s.coins) <= BLOCK_TABLE_COINS ? small.value(s) : wins(s) ? 1 : -1),
    classify: (s): OutcomeClass => (coinCount(s.coins) <= BLOCK_TABLE_COINS ? small.classify(s) : wins(s) ? 'N' : 'P'),
    bestMove(s) {
      const move = bestBy(s, Date.now() + budgetMs);
      if (move === undefined) throw unproved(s);
      return move;
    },
    bestMoveBy: bestBy,
  };
}

/** How many solver tables this process has built for coin boards (a cache diagnostic). */
export function coinTablesBuilt(): number {
  let n = 0;
  for (const oracle of ORACLES.values()) n += oracle.built;
  for (const oracle of BLOCK_ORACLES.values()) n += oracle.built;
  return n;
}

/**
 * The reference solver of a coin variant, answering every position of at most `oracle.cap` coins.
 *
 * Tie-breaks (`bestMove`): under `last-coin`, among winning takes the one taking the most coins
 * (as subtraction's "largest winning take"), then the earliest in move order (smaller first coin,
 * then smaller last coin); in a lost position a single coin — the one after which the opponent has
 * the fewest winning replies, then the earliest — to prolong the game and leave the most room to
 * err (seed 003). Under `points`, the takes of best margin, then the most coins, then the earliest.
 */
function coinsSolver(
  oracle: CoinOracle,
  scoring: CoinScoring,
  legalTakes: (coins: number) => Take[],
): Solver<CoinsState, CoinMove> {
  const check = (coins: number): void => {
    const count = coinCount(coins);
    if (count > oracle.cap) throw new TooLargeError(`Expected a position of at most ${oracle.cap} coins for the solver, got ${count}`);
  };
  // The better of two takes of equal value: more coins, then earlier (takes come in move order).
  const pickBest = <T extends { take: Take; score: number }>(items: T[]): T | undefined => {
    let best: T | undefined;
    for (const it of items) {
      if (!best || it.score > best.score || (it.score === best.score && it.take.size > best.take.size)) best = it;
    }
    return best;
  };
  if (scoring === 'last-coin') {
    const wins = (coins: number): boolean => {
      check(coins);
      return oracle.win(coins);
    };
    return {
      scored: false,
      value: (s) => (wins(s.coins) ? 1 : -1),
      classify: (s): OutcomeClass => (wins(s.coins) ? 'N' : 'P'),
      bestMove(s) {
        if (s.coins === 0) return null;
        // Decide s itself first: that builds (or finds) the table whose base holds s, and every
        // position asked about below lies inside s, so none of them builds a table of its own.
        const won = wins(s.coins);
        const takes = legalTakes(s.coins);
        const winning = takes.filter((t) => !oracle.win(withoutMask(s.coins, t.mask)));
        const win = pickBest(winning.map((take) => ({ take, score: 0 })));
        if (won !== (win !== undefined)) throw new Error('coins solver: the table disagrees with its own children');
        if (win) return win.take.move;
        // Lost: of the single coins, the one leaving the opponent the fewest winning replies.
        const singles = takes.filter((t) => t.size === 1);
        const scored = singles.map((take) => {
          const child = withoutMask(s.coins, take.mask);
          const replies = legalTakes(child).filter((r) => !oracle.win(withoutMask(child, r.mask))).length;
          return { take, score: -replies };
        });
        let best = scored[0]!;
        for (const it of scored) if (it.score > best.score) best = it;
        return best.take.move;
      },
    };
  }
  const value = (s: CoinsState): number => {
    check(s.coins);
    const mine = s.turn === 'first' ? s.scores[0] - s.scores[1] : s.scores[1] - s.scores[0];
    return mine + oracle.future(s.coins);
  };
  return {
    scored: true,
    value,
    classify(s): OutcomeClass {
      const v = value(s);
      return v > 0 ? 'N' : v < 0 ? 'P' : 'D';
    },
    bestMove(s) {
      if (s.coins === 0) return null;
      value(s); // builds (or finds) the table holding s before its children are asked about
      const takes = legalTakes(s.coins).map((take) => ({
        take,
        score: take.size - oracle.future(withoutMask(s.coins, take.mask)),
      }));
      return pickBest(takes)!.take.move;
    },
  };
}

/** GAMES.md 5: take coins in a straight line from a triangle or a square; misère or on points. */
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
      // Offered when every dealt position has at most DEFAULT_CAP coins (25; 21 on points): any
      // board of that size, or a larger board dealt sparsely (density or coin list). Each position
      // is solved by a table over the subsets of the dealt coins (shared over the whole board for
      // boards up to 21 coins; on larger boards under last-coin, filled by the block algorithm of
      // coin-table.ts), built on first use and reused for the rest of the game; the 36-coin
      // boards dealt full are beyond it, and solver() is undefined there.
      // Under last-coin, larger deals are solved position by position: from the board's table file
      // when one has been built (exact lookups, the reference tie-breaks), else by the memoized
      // search, which throws TooLargeError (or, through bestMoveBy, gives up at a deadline) on a
      // position it cannot prove in time. Points on such deals stay without a solver.
      solver: () => {
        if (dealtCount <= DEFAULT_CAP[scoring]) {
          // Last-coin deals of a board too big for one shared table get a table per dealt position
          // filled by the block algorithm (25 coins: about 0.1 s, against 2 s for misereTable).
          const oracle = scoring === 'last-coin' && n > SHARED_TABLE_COINS ? blockOracleFor(board, size, graph) : oracleFor(board, size, graph, scoring, bonus);
          return coinsSolver(oracle, scoring, legalTakes);
        }
        if (scoring !== 'last-coin') return undefined;
        const file = tableFileFor(board, size, graph);
        if (file) {
          const fileOracle: CoinOracle = {
            cap: n,
            built: 0,
            win: (mask) => file.win(mask),
            future: () => {
              throw new Error('a coin table file answers last-coin only');
            },
          };
          return coinsSolver(fileOracle, 'last-coin', legalTakes);
        }
        const blocks = blockOracleFor(board, size, graph);
        const small = coinsSolver(blocks, 'last-coin', legalTakes);
        return searchSolver(searchFor(board, size, graph), blocks, small, (mask) => byMask.get(mask)!.move, SEARCH_BUDGET_MS);
      },
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
    };
    return game;
  },
});
