/**
 * The conformance test of a game variant (`arena games check`), after OpenSpiel's RandomSimTest:
 * seeded random playouts from seeded deals, checking on every position what the arena relies on
 * (DESIGN.md, "The two contracts"): `play` and `moves` never mutate, turns alternate, states and
 * moves are plain JSON data, `key` is stable and collision-free on the sample, every move's text
 * parses back to it, every game ends within a bound, and a solver agrees with a brute-force search
 * on the sample's small positions. Pure: no I/O, so it runs in the child process that loads a
 * user's game (a rule that loops is stopped there by its CPU limit).
 */
import { isDeepStrictEqual } from 'node:util';
import { show } from '../core/errors.ts';
import type { AnyGame, Seat } from '../core/game.ts';
import { createRng, deriveSeed } from '../core/rng.ts';

/** One line of the check's report. */
export interface CheckItem {
  readonly name: string;
  readonly ok: boolean;
  /** Why it failed (the first counterexample), or what was checked. */
  readonly detail: string;
}

/** How much the check samples. */
export interface CheckOptions {
  /** Random playouts, each from its own seeded deal (default 200). */
  readonly games?: number;
  /** Master seed of the deals and the random moves (default 1). */
  readonly seed?: number;
  /** A game longer than this many moves fails "every game ends" (default 10,000). */
  readonly maxPlies?: number;
  /** Largest game tree (positions) the brute-force search expands from one position (default 20,000). */
  readonly bruteForceNodes?: number;
}

/** A failure after which a playout cannot go on (its rules disagree on whether it is over, or it does not end). */
class Stop extends Error {}

/** JSON round trip: what a state or move becomes in the results log and on an external bot's pipe. */
function viaJson(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value) ?? 'null');
}

const CHECKS = {
  deal: 'deal is deterministic (same seed, same start)',
  json: 'states and moves are plain JSON data',
  pure: 'play and moves never mutate their input',
  turns: 'turns alternate; moves() is empty exactly when outcome() is set',
  ends: 'every game ends within the move bound',
  key: 'key is stable and collision-free on the sample',
  notation: 'formatMove/parseMove round trip; bad text is refused',
  solver: 'solver agrees with a brute-force search on small positions',
} as const;

type CheckName = keyof typeof CHECKS;

/**
 * Runs the conformance test on one variant. Returns one item per check, in a fixed order; a check
 * that the game does not call for (no solver) is left out.
 */
export function checkGame(game: AnyGame, options: CheckOptions = {}): CheckItem[] {
  const games = options.games ?? 200;
  const seed = options.seed ?? 1;
  const maxPlies = options.maxPlies ?? 10_000;
  /** The first counterexample of each check: sampling goes on past it, so the other checks still see the whole sample. */
  const failures = new Map<CheckName, string>();
  const fail = (check: CheckName, message: string): void => {
    if (!failures.has(check)) failures.set(check, message);
  };
  const stop = (check: CheckName, message: string): never => {
    fail(check, message);
    throw new Stop();
  };
  /** States by key: a second state with a key already taken is a collision. */
  const byKey = new Map<string | number | bigint, unknown>();
  /** Positions sampled for the solver, the end of each game first (the small ones). */
  const sample: unknown[] = [];
  const sampled = new Set<string | number | bigint>();
  let plies = 0;
  let positions = 0;

  const look = (state: unknown, where: string): void => {
    positions++;
    if (!isDeepStrictEqual(viaJson(state), state)) fail('json', `${where}: the state ${show(state)} does not survive JSON (use numbers, strings, arrays and plain objects)`);
    const key = game.key(state);
    if (!isDeepStrictEqual(game.key(structuredClone(state)), key)) fail('key', `${where}: key(${show(state)}) differs between two copies of the state`);
    const seen = byKey.get(key);
    if (seen === undefined) byKey.set(key, structuredClone(state));
    else if (!isDeepStrictEqual(seen, state)) fail('key', `key ${show(key)} is shared by ${show(seen)} and ${show(state)}`);
  };

  /** Every legal move's text parses back to it, no two moves share a text, and text that is no move is refused. */
  const notation = (state: unknown, moves: readonly unknown[], at: string): void => {
    const texts = new Set<string>();
    for (const m of moves) {
      if (!isDeepStrictEqual(viaJson(m), m)) fail('json', `${at}: the move ${show(m)} does not survive JSON`);
      const text = game.formatMove(m);
      if (typeof text !== 'string' || text.trim() === '') {
        fail('notation', `${at}: formatMove(${show(m)}) gave ${show(text)}`);
        continue;
      }
      if (texts.has(text)) fail('notation', `${at}: two legal moves are both written ${show(text)}`);
      texts.add(text);
      try {
        const back = game.parseMove(text, state);
        if (!isDeepStrictEqual(back, m)) fail('notation', `${at}: parseMove(formatMove(${show(m)})) gave ${show(back)}`);
      } catch (err) {
        fail('notation', `${at}: parseMove(${show(text)}) threw: ${(err as Error).message}`);
      }
    }
    try {
      game.parseMove('\u0000not a move', state);
      fail('notation', `${at}: parseMove accepted text that is no move`);
    } catch {
      // refused, as it should be
    }
  };

  for (let g = 0; g < games; g++) {
    const dealSeed = deriveSeed(seed, 'deal', g);
    const where = `deal ${g} (seed ${dealSeed})`;
    let state = game.deal(createRng(dealSeed));
    const again = game.deal(createRng(dealSeed));
    if (!isDeepStrictEqual(state, again)) fail('deal', `${where}: two deals with one seed gave ${show(state)} and ${show(again)}`);
    const rng = createRng(deriveSeed(seed, 'moves', g));
    const path: unknown[] = [];
    try {
      for (let ply = 0; ; ply++) {
        const at = `${where}, move ${ply + 1}`;
        look(state, at);
        path.push(state);
        const before = structuredClone(state);
        const moves = game.moves(state);
        const over = game.outcome(state);
        if (!isDeepStrictEqual(state, before)) fail('pure', `${at}: moves() changed the state it was given`);
        if ((moves.length === 0) !== (over !== null)) stop('turns', `${at}: ${moves.length} legal moves but outcome() is ${show(over)} in ${show(state)}`);
        if (over !== null) {
          if (over.winner !== null && over.winner !== 'first' && over.winner !== 'second') fail('turns', `${at}: outcome winner ${show(over.winner)} is not first, second or null`);
          break;
        }
        if (ply >= maxPlies) stop('ends', `${where}: not over after ${maxPlies} moves (at ${show(state)})`);
        notation(state, moves, at);
        const move = rng.pick(moves);
        const seat: Seat = game.toMove(state);
        const next = game.play(state, move);
        if (!isDeepStrictEqual(state, before)) fail('pure', `${at}: play(${show(before)}, ${show(move)}) changed its input to ${show(state)}`);
        if (game.toMove(next) === seat) fail('turns', `${at}: ${seat} is to move again after ${game.formatMove(move)}`);
        plies++;
        state = next;
      }
    } catch (err) {
      if (!(err instanceof Stop)) throw err;
      break; // the playouts cannot go on meaningfully
    }
    for (let i = path.length - 1; i >= 0 && sample.length < 2_000; i--) {
      const key = game.key(path[i]);
      if (sampled.has(key)) continue;
      sampled.add(key);
      sample.push(path[i]);
    }
  }

  const items: CheckItem[] = [];
  const summary = `${games} games, ${plies} moves, ${positions} positions, ${byKey.size} distinct`;
  for (const name of Object.keys(CHECKS) as CheckName[]) {
    if (name === 'solver') continue;
    const failed = failures.get(name);
    items.push({ name: CHECKS[name], ok: failed === undefined, detail: failed ?? summary });
  }
  const solver = game.solver?.();
  if (solver) {
    // The brute force trusts what those checks test: pure rules, keys that tell positions apart, games that end.
    const blocked = (['pure', 'key', 'turns', 'ends'] as const).some((c) => failures.has(c));
    const { compared, ...item } = blocked ? { name: CHECKS.solver, ok: false, detail: '', compared: 0 } : solverItem(game, sample, options.bruteForceNodes ?? 20_000);
    // Without a position to compare on, say why when the other checks explain it.
    items.push(compared === 0 && failures.size > 0 ? { name: item.name, ok: false, detail: 'not compared: the failures above come first' } : item);
  }
  return items;
}

/** The solver's value and best move against a brute-force negamax on each sampled position whose tree is small. */
function solverItem(game: AnyGame, sample: readonly unknown[], maxNodes: number): CheckItem & { compared: number } {
  const name = CHECKS.solver;
  const solver = game.solver!()!;
  const memo = new Map<string | number | bigint, number>();
  /** Keys on the search's current line: a position that comes back has no finite game tree. */
  const line = new Set<string | number | bigint>();
  let budget = 0;
  /** Negamax value for the player to move, or null when the tree is past the budget. */
  const exact = (s: unknown): number | null => {
    const key = game.key(s);
    const known = memo.get(key);
    if (known !== undefined) return known;
    if (--budget < 0 || line.has(key)) return null;
    const over = game.outcome(s);
    let v: number;
    if (over !== null) {
      const me = game.toMove(s);
      if (solver.scored) {
        const [a, b] = over.scores ?? [0, 0];
        v = me === 'first' ? a - b : b - a;
      } else v = over.winner === null ? 0 : over.winner === me ? 1 : -1;
    } else {
      v = -Infinity;
      line.add(key);
      for (const m of game.moves(s)) {
        const child = exact(game.play(s, m));
        if (child === null) {
          line.delete(key);
          return null;
        }
        v = Math.max(v, -child);
      }
      line.delete(key);
    }
    memo.set(key, v);
    return v;
  };
  let compared = 0;
  for (const s of sample) {
    budget = maxNodes;
    const truth = exact(s);
    if (truth === null) continue;
    compared++;
    const said = solver.value(s);
    if (said !== truth) return { name, ok: false, compared, detail: `value(${show(s)}) is ${said}, brute force says ${truth}` };
    const best = solver.bestMove(s);
    if (game.outcome(s) !== null) continue;
    const legal = game.moves(s).some((m) => isDeepStrictEqual(m, best));
    if (!legal) return { name, ok: false, compared, detail: `bestMove(${show(s)}) is ${show(best)}, not a legal move` };
    const after = exact(game.play(s, best));
    if (after !== null && -after !== truth) return { name, ok: false, compared, detail: `bestMove(${show(s)}) is ${game.formatMove(best)}, which gives up the value ${truth}` };
  }
  if (compared === 0) return { name, ok: false, compared, detail: `no sampled position was small enough for the brute-force search (${maxNodes} positions); check a smaller variant` };
  return { name, ok: true, compared, detail: `${compared} positions compared` };
}
