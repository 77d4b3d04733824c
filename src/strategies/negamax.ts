/**
 * Negamax with alpha–beta, a transposition table and iterative deepening over the Game interface
 * alone. No rules are re-derived here: every position comes from `game.play`, every move list from
 * `game.moves`.
 */
import type { Game, Outcome } from '../core/game.ts';

/**
 * The value of a finished position for the player to move there, in the solver's units: the
 * final score margin (mover minus opponent) when the outcome has scores, else +1 win, -1 loss, 0 draw.
 */
export function terminalValue<S>(game: Game<S, unknown>, state: S, outcome: Outcome): number {
  const me = game.toMove(state);
  if (outcome.scores) {
    const [first, second] = outcome.scores;
    return me === 'first' ? first - second : second - first;
  }
  if (outcome.winner === null) return 0;
  return outcome.winner === me ? 1 : -1;
}

/**
 * Internal value of a won (lost) win/loss position. A win in k plies scores WIN - k, so the search
 * prefers the quickest win and, when lost, the longest defence (the arena's prolong-when-lost rule).
 */
const WIN = 1e9;
const PROVEN = WIN / 2;
/** Horizon estimates are clamped well inside the proven range so they never pass for a result. */
const HORIZON_CAP = WIN / 4;

/** A table entry: a value with its bound type, the depth it was searched to, and the best move. */
interface Entry {
  /** Internal value (see WIN). */
  value: number;
  /** 0: exact, 1: lower bound, 2: upper bound. */
  flag: 0 | 1 | 2;
  /** Plies searched below this position; Infinity when every line was resolved to a finished game. */
  depth: number;
  /** Index of the best move in `game.moves(state)`, -1 when unknown. */
  best: number;
  /** The search that stored it: horizon estimates are anchored at that search's root. */
  search: number;
}

/**
 * A bounded transposition table keyed by `game.key`. Proven entries (depth Infinity) hold the
 * game's value and serve any later search of the same variant; the others serve searches no deeper
 * than theirs, within the same search (estimates are anchored at that search's root). Keys include
 * scores and the side to move (the Game contract), so a proven value is the same on every path;
 * horizon estimates may differ slightly between transpositions, which only affects the estimate,
 * never a proven result.
 */
export class TranspositionTable {
  readonly #map = new Map<string | number | bigint, Entry>();
  /** @param capacity entries kept before the table is cleared (a simple bound on memory). */
  constructor(readonly capacity = 1 << 20) {}
  /** The entry of a position key, if any. */
  get(key: string | number | bigint): Entry | undefined {
    return this.#map.get(key);
  }
  /** Stores an entry; clears the table first when it is full. */
  set(key: string | number | bigint, entry: Entry): void {
    if (this.#map.size >= this.capacity && !this.#map.has(key)) this.#map.clear();
    this.#map.set(key, entry);
  }
  /** Numbers the searches using this table, so estimates anchored at another root are not reused. */
  nextSearch = 0;
  /** Entries stored. */
  get size(): number {
    return this.#map.size;
  }
}

/** What `negamaxSearch` found. */
export interface SearchResult<M> {
  /** The chosen move (always one of the moves given). */
  readonly move: M;
  /**
   * Value for the player to move, in solver units when `exact` (±1/0 or the final margin); otherwise
   * the estimate of the last completed depth.
   */
  readonly value: number;
  /** True when the search reached the end of every line that matters: the value is the game's value. */
  readonly exact: boolean;
  /** Depth of the last completed iteration (0 when none completed before the stop time). */
  readonly depth: number;
  /** Positions visited. */
  readonly nodes: number;
  /**
   * True when `stopAt` (the clock) ended the search before its depth or node budget did: the move
   * may then differ from run to run. False when the search is a function of the position alone.
   */
  readonly clockStopped: boolean;
}

/** Options of `negamaxSearch`. */
export interface SearchOptions {
  /** Deepest iteration, in plies. */
  readonly maxDepth: number;
  /** Epoch ms at which to stop and answer with the last completed iteration: a safety net only when `maxNodes` is set. */
  readonly stopAt: number;
  /**
   * Positions one move may visit. The iteration that would pass it is dropped and the last
   * completed one answers: the same position and table give the same move on any machine, at any load.
   */
  readonly maxNodes?: number;
  /** A table to reuse across calls (per game variant); a fresh one otherwise. */
  readonly table?: TranspositionTable;
  /** The clock `stopAt` is on (a bot passes its `ctx.now`: the CPU clock by default); default `Date.now`. */
  readonly now?: () => number;
}

class Timeout extends Error {}
class OutOfNodes extends Error {}

/**
 * Negamax with alpha–beta over the Game interface, iterative deepening from depth 1 until the value
 * is proven, `maxDepth` is done, `maxNodes` would be passed or `stopAt` passes. At the horizon a
 * position is estimated by the heuristic gains along the line from the root (mover's gains minus
 * the opponent's). Deterministic unless the clock stops it (`clockStopped`): ties go to the earlier
 * move in heuristic order.
 */
export function negamaxSearch<S, M>(
  game: Game<S, M>,
  state: S,
  moves: readonly M[],
  options: SearchOptions,
): SearchResult<M> {
  if (moves.length === 0) throw new RangeError('negamaxSearch needs at least one legal move');
  const table = options.table ?? new TranspositionTable();
  const heuristic = game.heuristic?.bind(game);
  const search = table.nextSearch++;
  let nodes = 0;
  let horizonHits = 0;
  const maxNodes = options.maxNodes ?? Infinity;
  let clockStopped = false;
  const now = options.now ?? Date.now;

  const ordered = (s: S, list: readonly M[], best: number): number[] => {
    const idx = list.map((_, i) => i);
    if (heuristic) {
      const h = list.map((m) => heuristic(s, m));
      idx.sort((a, b) => h[b]! - h[a]! || a - b);
    }
    if (best >= 0 && best < list.length) {
      const at = idx.indexOf(best);
      idx.splice(at, 1);
      idx.unshift(best);
    }
    return idx;
  };

  const negamax = (s: S, depth: number, alpha: number, beta: number, acc: number): number => {
    if (++nodes > maxNodes) throw new OutOfNodes();
    // Every 64 positions: a coin-board position lists hundreds of moves, and 256 of them took
    // tens of ms on a busy machine, past the safety margin.
    if ((nodes & 63) === 0 && now() >= options.stopAt) throw new Timeout();
    const outcome = game.outcome(s);
    if (outcome) {
      const v = terminalValue(game, s, outcome);
      return outcome.scores ? v : v * WIN;
    }
    const key = game.key(s);
    const entry = table.get(key);
    if (entry && entry.depth >= depth && (entry.depth === Infinity || entry.search === search)) {
      const usable =
        entry.flag === 0 || (entry.flag === 1 && entry.value >= beta) || (entry.flag === 2 && entry.value <= alpha);
      if (usable) {
        // An unproven entry stands for horizon positions below it: the result is not proven either.
        if (entry.depth !== Infinity) horizonHits++;
        return entry.value;
      }
    }
    if (depth === 0) {
      horizonHits++;
      return Math.max(-HORIZON_CAP, Math.min(HORIZON_CAP, acc));
    }
    const list = game.moves(s);
    const hitsBefore = horizonHits;
    const alphaIn = alpha;
    let best = -Infinity;
    let bestIdx = -1;
    for (const i of ordered(s, list, entry?.best ?? -1)) {
      const m = list[i]!;
      const gain = heuristic ? heuristic(s, m) : 0;
      const v = fromChild(negamax(game.play(s, m), depth - 1, -fromChildBound(beta), -fromChildBound(alpha), -(acc + gain)));
      if (v > best) {
        best = v;
        bestIdx = i;
      }
      if (best > alpha) alpha = best;
      if (alpha >= beta) break;
    }
    const proven = horizonHits === hitsBefore;
    const flag = best <= alphaIn ? 2 : best >= beta ? 1 : 0;
    table.set(key, { value: best, flag, depth: proven ? Infinity : depth, best: bestIdx, search });
    return best;
  };

  let result: Omit<SearchResult<M>, 'clockStopped'> = { move: moves[ordered(state, moves, -1)[0]!]!, value: 0, exact: false, depth: 0, nodes: 0 };
  const rootKey = game.key(state);
  for (let depth = 1; depth <= options.maxDepth; depth++) {
    const hitsBefore = horizonHits;
    let bestValue = -Infinity;
    let bestIdx = -1;
    try {
      const rootEntry = table.get(rootKey);
      for (const i of ordered(state, moves, rootEntry?.best ?? -1)) {
        const m = moves[i]!;
        const gain = heuristic ? heuristic(state, m) : 0;
        // A move replaces the best only when strictly better, so ties keep the heuristic order.
        const v = fromChild(negamax(game.play(state, m), depth - 1, -fromChildBound(Infinity), -fromChildBound(bestValue), -gain));
        if (v > bestValue) {
          bestValue = v;
          bestIdx = i;
        }
      }
    } catch (err) {
      if (err instanceof OutOfNodes) break;
      if (err instanceof Timeout) {
        clockStopped = true;
        break;
      }
      throw err;
    }
    const exact = horizonHits === hitsBefore || Math.abs(bestValue) > PROVEN;
    table.set(rootKey, { value: bestValue, flag: 0, depth: horizonHits === hitsBefore ? Infinity : depth, best: bestIdx, search });
    result = { move: moves[bestIdx]!, value: toSolverUnits(bestValue), exact, depth, nodes };
    if (exact) break;
  }
  return { ...result, nodes: Math.min(nodes, maxNodes), clockStopped };
}

/** A child's value seen from the parent: negated, and a proven win/loss one ply further away. */
function fromChild(v: number): number {
  const u = -v;
  if (u > PROVEN) return u - 1;
  if (u < -PROVEN) return u + 1;
  return u;
}

/**
 * The window bound to pass down (before negation) so that `fromChild` of the child's value compares
 * with the parent's bound as intended: the inverse of the distance shift.
 */
function fromChildBound(parentBound: number): number {
  if (!Number.isFinite(parentBound)) return parentBound;
  if (parentBound > PROVEN) return parentBound + 1;
  if (parentBound < -PROVEN) return parentBound - 1;
  return parentBound;
}

/** Internal value to solver units: proven wins and losses become ±1. */
function toSolverUnits(v: number): number {
  if (v > PROVEN) return 1;
  if (v < -PROVEN) return -1;
  return v === 0 ? 0 : v; // no -0 from negating a draw
}
