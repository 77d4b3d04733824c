/**
 * Generic UCT Monte-Carlo tree search (Kocsis & Szepesvári 2006; the standard MCTS bot of OpenSpiel
 * and boardgame.io) over the Game interface: selection by UCB1, one expansion per iteration, a
 * uniformly random playout with the bot's own rng, and win/draw/loss backed up the path.
 */
import type { Game, Seat } from '../core/game.ts';
import type { Rng } from '../core/rng.ts';

interface Node<S, M> {
  readonly state: S;
  /** The move that led here from the parent (undefined at the root). */
  readonly move: M | undefined;
  /** The seat that played `move` (the reward of this node is counted for that seat). */
  readonly mover: Seat | undefined;
  readonly parent: Node<S, M> | undefined;
  readonly children: Node<S, M>[];
  /** Moves not yet expanded, in the random order they will be tried. */
  untried: M[];
  visits: number;
  /** Sum of rewards for `mover`: 1 win, 0.5 draw, 0 loss. */
  reward: number;
}

/** Options of `mctsSearch`. */
export interface MctsOptions {
  /** Stop after this many iterations (playouts). */
  readonly iterations: number;
  /** Epoch ms at which to stop and answer. */
  readonly stopAt: number;
  /** UCB1 exploration constant (√2 is the textbook value for rewards in [0, 1]). */
  readonly exploration: number;
  /** The clock `stopAt` is on (a bot passes its `ctx.now`: the CPU clock by default); default `Date.now`. */
  readonly now?: () => number;
}

/** What `mctsSearch` found. */
export interface MctsResult<M> {
  /** The most visited root move (always one of the moves given). */
  readonly move: M;
  /** Iterations completed. */
  readonly iterations: number;
  /** The chosen move's mean reward for the player to move, in [0, 1]. */
  readonly winRate: number;
  /** True when `stopAt` (the clock) ended the search before `iterations`: the move may then differ from run to run. */
  readonly clockStopped: boolean;
}

/** Runs UCT from `state` and returns the most visited move. Same rng seed and iteration count, same answer, unless the clock stops it first (`clockStopped`). */
export function mctsSearch<S, M>(
  game: Game<S, M>,
  state: S,
  moves: readonly M[],
  rng: Rng,
  options: MctsOptions,
): MctsResult<M> {
  if (moves.length === 0) throw new RangeError('mctsSearch needs at least one legal move');
  const root: Node<S, M> = {
    state,
    move: undefined,
    mover: undefined,
    parent: undefined,
    children: [],
    untried: rng.shuffle(moves),
    visits: 0,
    reward: 0,
  };
  let done = 0;
  let clockStopped = false;
  const now = options.now ?? Date.now;
  while (done < options.iterations) {
    // Checking the clock every iteration costs ~30 ns, far below one playout. It is a safety net:
    // with an iteration budget that fits the time control, the search ends on its budget.
    if (done > 0 && now() >= options.stopAt) {
      clockStopped = true;
      break;
    }
    let node = root;
    // Selection: descend fully expanded nodes by UCB1.
    while (node.untried.length === 0 && node.children.length > 0) {
      const logN = Math.log(node.visits);
      let best = node.children[0]!;
      let bestScore = -Infinity;
      for (const child of node.children) {
        const score = child.reward / child.visits + options.exploration * Math.sqrt(logN / child.visits);
        if (score > bestScore) {
          bestScore = score;
          best = child;
        }
      }
      node = best;
    }
    // Expansion: one new child.
    const move = node.untried.pop();
    if (move !== undefined) {
      const next = game.play(node.state, move);
      const child: Node<S, M> = {
        state: next,
        move,
        mover: game.toMove(node.state),
        parent: node,
        children: [],
        untried: game.outcome(next) ? [] : rng.shuffle(game.moves(next)),
        visits: 0,
        reward: 0,
      };
      node.children.push(child);
      node = child;
    }
    // Playout: uniformly random moves to the end.
    let s = node.state;
    let outcome = game.outcome(s);
    while (!outcome) {
      s = game.play(s, rng.pick(game.moves(s)));
      outcome = game.outcome(s);
    }
    // Back-up: each node's reward is counted for the seat that moved into it.
    for (let n: Node<S, M> | undefined = node; n; n = n.parent) {
      n.visits++;
      if (n.mover !== undefined) n.reward += outcome.winner === null ? 0.5 : outcome.winner === n.mover ? 1 : 0;
    }
    done++;
  }
  let best = root.children[0];
  for (const child of root.children) {
    if (!best || child.visits > best.visits || (child.visits === best.visits && child.reward > best.reward)) best = child;
  }
  if (!best || best.move === undefined) return { move: moves[0]!, iterations: done, winRate: 0.5, clockStopped };
  return { move: best.move, iterations: done, winRate: best.visits ? best.reward / best.visits : 0.5, clockStopped };
}
