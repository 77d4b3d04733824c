/**
 * The coins family's exact analysis, kept apart from its rules (coins.ts): which solver answers a
 * variant (shared subset tables, per-position block tables, a whole-board table file on disk, or
 * the memoized search), the process-wide caches that let every variant of a board share them, and
 * the reference tie-breaks.
 */
import { TooLargeError } from '../core/errors.ts';
import type { OutcomeClass, Solver } from '../core/game.ts';
import {
  DEFAULT_CAP,
  SHARED_TABLE_COINS,
  coinCount,
  createCoinOracle,
  withoutMask,
  type CoinOracle,
  type CoinScoring,
  type LineGraph,
} from '../solvers/coins.ts';
import { createBlockOracle, type BlockOracle } from '../solvers/coin-block-oracle.ts';
import { boardSymmetries, createCoinSearch, type CoinSearch } from '../solvers/coin-search.ts';
import { defaultTableDir, openTableFile, tableName, type TableFile } from '../solvers/coin-table-file.ts';
import type { CoinBoard, CoinMove, CoinsState } from './coins-state.ts';

/** A legal take shape with its board mask and size, in the family's fixed move order. */
export interface Take {
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
 * err (the optimal bot's prolong-when-lost rule). Under `points`, the takes of best margin, then the most coins, then the earliest.
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

/** What the solver of one coins variant is chosen from. */
export interface CoinsVariant {
  readonly board: CoinBoard;
  readonly size: number;
  readonly graph: LineGraph;
  readonly scoring: CoinScoring;
  readonly bonus: number;
  /** Coins in a dealt position (the most any position of the variant holds). */
  readonly dealtCount: number;
  readonly legalTakes: (coins: number) => Take[];
  /** The move of a take, by its mask. */
  readonly moveOf: (mask: number) => CoinMove;
}

/**
 * The solver of a coins variant. Offered when every dealt position has at most DEFAULT_CAP coins (25; 21 on points): any
 * board of that size, or a larger board dealt sparsely (density or coin list). Each position
 * is solved by a table over the subsets of the dealt coins (shared over the whole board for
 * boards up to 21 coins; on larger boards under last-coin, filled by the block algorithm of
 * coin-table.ts), built on first use and reused for the rest of the game; the 36-coin
 * boards dealt full are beyond it, and solver() is undefined there.
 * Under last-coin, larger deals are solved position by position: from the board's table file
 * when one has been built (exact lookups, the reference tie-breaks), else by the memoized
 * search, which throws TooLargeError (or, through bestMoveBy, gives up at a deadline) on a
 * position it cannot prove in time. Points on such deals stay without a solver.
 */
export function coinsSolverFor({ board, size, graph, scoring, bonus, dealtCount, legalTakes, moveOf }: CoinsVariant): Solver<CoinsState, CoinMove> | undefined {
  const n = graph.cells;
  if (dealtCount <= DEFAULT_CAP[scoring]) {
    // Last-coin deals of a board too big for one shared table get a table per dealt position
    // filled by the block algorithm (about twenty times as fast as misereTable at 25 coins).
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
  return searchSolver(searchFor(board, size, graph), blocks, small, moveOf, SEARCH_BUDGET_MS);
}
