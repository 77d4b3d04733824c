/**
 * Game families users drop in (`games/`, `--games-dir`): `defineGame` turns a game file's rules
 * into a family like the built-in ones (GameFamily), so tournaments, play, replay, analyze and the
 * report take it as they take `subtraction`. A user's rules get their parameters as a last argument
 * (a family is one object, not a constructor of variants), and every call into them is wrapped so
 * that a rule that throws is reported as that game's fault, naming its file, never as the arena's.
 */
import { ArenaError, MoveError, show } from '../core/errors.ts';
import type { Game, GameFamily, Outcome, Seat, Solver } from '../core/game.ts';
import type { ParamSpec } from '../core/param-spec.ts';
import { variantId } from '../core/params.ts';
import type { Rng } from '../core/rng.ts';

/**
 * A user's game solver: the exact value of a position, from the point of view of the player to
 * move (+1 win, -1 loss, 0 draw; the final score margin when `scored`). The arena derives the
 * outcome class and, without `bestMove`, the best move (the first move whose value is the
 * position's) from it. `arena games check` compares it with a brute-force search.
 */
export interface SolverDefinition<P, S, M> {
  /** True when `value` is a score margin rather than win/loss. */
  readonly scored?: boolean;
  /** Whether the solver handles a variant (say no for variants too large to solve); default yes. */
  supports?(params: P): boolean;
  value(state: S, params: P): number;
  /** A best move (optional): one whose resulting value for the opponent is minus this position's. */
  bestMove?(state: S, params: P): M | null;
}

/**
 * What a game file default-exports (through `defineGame`). Every rule gets the variant's validated
 * parameters last. States and moves must be plain JSON data (numbers, strings, booleans, arrays,
 * plain objects): they cross process boundaries, fill the results log and reach external bots as
 * they are. Rules must be pure and deterministic: `play` returns a new state, and the only
 * randomness is the `rng` that `deal` receives.
 */
export interface GameDefinition<P extends object, S, M> {
  /** The family id used in variant ids (`kayles{n=10}`): letters, digits, - and _, starting with a letter. */
  readonly name: string;
  /** A readable title (default: the name). */
  readonly title?: string;
  /** The rules in a sentence or two, for `arena games`. */
  readonly summary?: string;
  /** How a move is written, for `arena games` and the play screen. */
  readonly notation?: string;
  /**
   * How the game is won, in a sentence or two, for the play screen and its help (e.g. "Take the
   * last stone: who cannot move loses."); without it the screen says the game's rules decide.
   */
  readonly goal?: string;
  /** The parameters, each a ParamSpec built with the schema helpers (intSchema, enumSchema, …). */
  readonly params: { readonly [K in keyof P]-?: ParamSpec<P[K]> };
  /** A start position drawn with `rng` (the only source of randomness). */
  deal(rng: Rng, params: P): S;
  /** The seat to move; turns alternate, so it changes with every move. */
  toMove(state: S, params: P): Seat;
  /** The legal moves; empty exactly when the game is over. */
  moves(state: S, params: P): readonly M[];
  /** The position after a legal move; never mutates `state`. */
  play(state: S, move: M, params: P): S;
  /** Null while the game is on; the winner (null for a draw) and, for scored games, the scores once over. */
  outcome(state: S, params: P): Outcome | null;
  /** Equal for equal states, different for different ones (the side to move included). */
  key(state: S, params: P): string | number | bigint;
  /** The move as text; `parseMove(formatMove(m))` gives `m` back. */
  formatMove(move: M, params: P): string;
  /** One of `moves(state)` from its text; throws (any Error) for text that is not a legal move. */
  parseMove(text: string, state: S, params: P): M;
  /** The position as text for the boards (several lines allowed); default: its key. */
  formatState?(state: S, params: P): string;
  /** Heaps to draw as rows of stones, instead of `formatState`'s text. */
  view?(state: S, params: P): { readonly piles: readonly number[] };
  /** Exact analysis: makes the `optimal` bot, `arena analyze` and adjudication work on the game. */
  readonly solver?: SolverDefinition<P, S, M>;
  /** Immediate gain of a move (the `greedy` bot's measure): larger is better. */
  heuristic?(state: S, move: M, params: P): number;
  /** How much game is left (the `hybrid` bot's switch). */
  size?(state: S, params: P): number;
}

/** A game definition with its types erased, as registries hold it. */
export type AnyGameDefinition = GameDefinition<Record<string, unknown>, unknown, unknown>;

/** Marks what `defineGame` returned: a global symbol, so a bundle's copy of this module agrees. */
const GAME_MARK = Symbol.for('take-arena.game-definition');

/**
 * Declares a game family for `games/`: `export default defineGame({ name, params, deal, moves,
 * play, outcome, key, formatMove, parseMove, … })`. Types flow from `params`, `deal` and `moves`
 * into the other rules. See docs/WRITE-A-GAME.md.
 */
export function defineGame<P extends object, S, M>(definition: GameDefinition<P, S, M>): GameDefinition<P, S, M> {
  return Object.freeze(Object.defineProperty({ ...definition }, GAME_MARK, { value: true, enumerable: false }));
}

/** A rule of a user's game threw: the message names the game, its file and the rule. */
export class GameRuleError extends ArenaError {
  override name = 'GameRuleError';
}

const REQUIRED = ['deal', 'toMove', 'moves', 'play', 'outcome', 'key', 'formatMove', 'parseMove'] as const;
const OPTIONAL = ['formatState', 'view', 'heuristic', 'size'] as const;

/** What is wrong with a module's default export as a game, or null when it is one. */
export function gameProblem(value: unknown): string | null {
  if (value === null || typeof value !== 'object') return `expected a default export made with defineGame, got ${show(value)}`;
  const d = value as Record<string | symbol, unknown>;
  if (d[GAME_MARK] !== true) return 'the default export was not made with defineGame (import { defineGame } from "take-arena")';
  if (typeof d['name'] !== 'string' || !/^[A-Za-z][\w-]{0,63}$/.test(d['name'])) {
    return `expected \`name\` to be letters, digits, - or _ (starting with a letter, at most 64), got ${show(d['name'])}`;
  }
  for (const f of REQUIRED) if (typeof d[f] !== 'function') return `game ${d['name']}: expected \`${f}\` to be a function, got ${show(d[f])}`;
  for (const f of OPTIONAL) if (d[f] !== undefined && typeof d[f] !== 'function') return `game ${d['name']}: expected \`${f}\` to be a function, got ${show(d[f])}`;
  for (const f of ['title', 'summary', 'notation', 'goal']) if (d[f] !== undefined && typeof d[f] !== 'string') return `game ${d['name']}: expected \`${f}\` to be text, got ${show(d[f])}`;
  const params = d['params'];
  if (params === null || typeof params !== 'object') return `game ${d['name']}: expected \`params\` to be an object of parameters ({} for none), got ${show(params)}`;
  for (const [key, p] of Object.entries(params)) {
    if (!/^[A-Za-z][\w-]*$/.test(key)) return `game ${d['name']}: parameter name ${show(key)} is not letters, digits, - or _`;
    const spec = p as Partial<ParamSpec<unknown>> | null;
    if (spec === null || typeof spec !== 'object' || typeof (spec.schema as { safeParse?: unknown } | undefined)?.safeParse !== 'function') {
      return `game ${d['name']}: parameter \`${key}\` needs a \`schema\` (intSchema, rangeSchema, enumSchema, … from take-arena)`;
    }
    if (typeof spec.description !== 'string' || typeof spec.expected !== 'string') return `game ${d['name']}: parameter \`${key}\` needs \`description\` and \`expected\` texts`;
    if (spec.default !== undefined && !spec.schema!.safeParse(spec.default).success) return `game ${d['name']}: the default of parameter \`${key}\` does not pass its own schema`;
  }
  const solver = d['solver'] as Record<string, unknown> | undefined;
  if (solver !== undefined && (solver === null || typeof solver !== 'object' || typeof solver['value'] !== 'function')) {
    return `game ${d['name']}: expected \`solver\` to be an object with a \`value(state, params)\` function`;
  }
  return null;
}

/**
 * The game a module exports, or why it is not one. A TypeScript file that tsx compiled to CommonJS
 * (a folder without `"type": "module"`) arrives as `{ default: { default: game } }`.
 */
export function exportedGame(mod: unknown): AnyGameDefinition | { reason: string } {
  let value = (mod as { default?: unknown } | null)?.default;
  if (value !== null && typeof value === 'object' && !(GAME_MARK in value) && 'default' in value) value = (value as { default: unknown }).default;
  if (value === undefined) return { reason: 'has no default export (expected `export default defineGame({...})`)' };
  const problem = gameProblem(value);
  return problem === null ? (value as AnyGameDefinition) : { reason: `default export is not a valid game: ${problem}` };
}

/** One line of an error a user's rule threw. */
function errorLine(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text.split('\n')[0]!.slice(0, 300);
}

/**
 * The family of a user's game. `file` names the game in errors: a rule that throws becomes a
 * GameRuleError (`game kayles (games/kayles.ts): moves threw: …`), except `parseMove`'s refusal of
 * a typed move, which is a MoveError (the player mistyped, the game is fine).
 */
export function userFamily(definition: AnyGameDefinition, file: string): GameFamily<Record<string, unknown>, unknown, unknown> {
  const d = definition;
  const where = `game ${d.name} (${file})`;
  /** A rule's throw as the game's fault. Each wrapper below spells its arguments out: no array per call on the referee's path. */
  const fault = (rule: string, err: unknown): never => {
    throw new GameRuleError(`${where}: ${rule} threw: ${errorLine(err)}`);
  };
  return {
    id: d.name,
    title: d.title ?? d.name,
    summary: d.summary ?? `A game from ${file}.`,
    notation: d.notation ?? 'as the game formats its moves',
    params: d.params,
    create(params) {
      const p = params;
      const solverDef = d.solver;
      const game: Game<unknown, unknown> = {
        id: variantId(d.name, p),
        family: d.name,
        title: d.title ?? d.name,
        params: p,
        ...(d.goal !== undefined ? { goal: { short: d.goal, full: [d.goal] } } : {}),
        deal(rng: Rng) {
          try {
            return d.deal(rng, p);
          } catch (err) {
            return fault('deal', err);
          }
        },
        toMove(s) {
          try {
            return d.toMove(s, p);
          } catch (err) {
            return fault('toMove', err);
          }
        },
        moves(s) {
          try {
            return d.moves(s, p);
          } catch (err) {
            return fault('moves', err);
          }
        },
        play(s, m) {
          try {
            return d.play(s, m, p);
          } catch (err) {
            return fault('play', err);
          }
        },
        outcome(s) {
          try {
            return d.outcome(s, p);
          } catch (err) {
            return fault('outcome', err);
          }
        },
        key(s) {
          try {
            return d.key(s, p);
          } catch (err) {
            return fault('key', err);
          }
        },
        formatMove(m) {
          try {
            return d.formatMove(m, p);
          } catch (err) {
            return fault('formatMove', err);
          }
        },
        parseMove(text, s) {
          let move: unknown;
          try {
            move = d.parseMove(text, s, p);
          } catch (err) {
            throw new MoveError(errorLine(err));
          }
          if (!game.moves(s).some((m) => game.formatMove(m) === game.formatMove(move))) throw new MoveError(`${show(text)} is not a legal move here`);
          return move;
        },
        describe(s) {
          try {
            return d.formatState ? d.formatState(s, p) : String(d.key(s, p));
          } catch (err) {
            return fault('formatState', err);
          }
        },
        toJSON: (s) => s,
        ...(d.view
          ? {
              view(s: unknown) {
                try {
                  return d.view!(s, p);
                } catch (err) {
                  return fault('view', err);
                }
              },
            }
          : {}),
        ...(d.heuristic
          ? {
              heuristic(s: unknown, m: unknown) {
                try {
                  return d.heuristic!(s, m, p);
                } catch (err) {
                  return fault('heuristic', err);
                }
              },
            }
          : {}),
        ...(d.size
          ? {
              size(s: unknown) {
                try {
                  return d.size!(s, p);
                } catch (err) {
                  return fault('size', err);
                }
              },
            }
          : {}),
        ...(solverDef ? { solver: () => (solverDef.supports?.(p) === false ? undefined : userSolver(solverDef, game, p, where)) } : {}),
      };
      return game;
    },
  };
}

/** The Solver contract over a user's `value` (and `bestMove`, else the first move that keeps the value). */
function userSolver(def: SolverDefinition<Record<string, unknown>, unknown, unknown>, game: Game<unknown, unknown>, params: Record<string, unknown>, where: string): Solver<unknown, unknown> {
  const value = (s: unknown): number => {
    let v: number;
    try {
      v = def.value(s, params);
    } catch (err) {
      throw new GameRuleError(`${where}: solver.value threw: ${errorLine(err)}`);
    }
    if (typeof v !== 'number' || Number.isNaN(v)) throw new GameRuleError(`${where}: solver.value returned ${show(v)}, expected a number`);
    return v;
  };
  const scored = def.scored === true;
  return {
    scored,
    value,
    classify: (s) => {
      const v = value(s);
      return v > 0 ? 'N' : v < 0 ? 'P' : 'D';
    },
    bestMove: (s) => {
      if (game.outcome(s) !== null) return null;
      if (def.bestMove) {
        try {
          return def.bestMove(s, params);
        } catch (err) {
          throw new GameRuleError(`${where}: solver.bestMove threw: ${errorLine(err)}`);
        }
      }
      const target = value(s);
      const moves = game.moves(s);
      return moves.find((m) => -value(game.play(s, m)) === target) ?? moves[0] ?? null;
    },
  };
}
