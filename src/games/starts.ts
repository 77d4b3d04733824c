/**
 * Start positions written as text, one a line (start-position suites, docs/TOURNAMENTS.md "Start
 * positions"): each family's notation is the text of the parameter that fixes its start (a pile
 * `57`, piles `3,4,5`, the coins on the board `1,2,5,8`, a row `-1,3,9,4`, heaps `7,12`). A start
 * is played as the variant with that parameter set, so everything that deals, replays and judges a
 * game from its variant id (match, accuracy, report, replay, remote workers) plays the start too.
 *
 * Also the solver's balanced suites (`arena starts --balanced`): positions drawn from a variant's
 * deals and a few random moves, kept by their exact value.
 */
import { ArenaError, ParamError, TooLargeError, show } from '../core/errors.ts';
import type { AnyGame, Solver } from '../core/game.ts';
import { splitVariantId } from '../core/params.ts';
import { createRng } from '../core/rng.ts';
import { makeGame } from './index.ts';

/** How one family writes a start position: the parameter it sets, and its words for users. */
interface StartNotation {
  /** The family parameter that fixes the start. */
  readonly param: string;
  /** What a line should look like, for messages. */
  readonly expected: string;
  /** One non-negative integer (a pile), rather than a list. */
  readonly one: boolean;
  /** The start's text from the position's `toJSON` (the same notation, so it parses back). */
  readonly text: (json: Readonly<Record<string, unknown>>) => string;
}

const list = (key: string) => (json: Readonly<Record<string, unknown>>): string => (json[key] as readonly unknown[]).join(',');
const PILE: StartNotation = { param: 'n', expected: 'one pile size, e.g. 57', one: true, text: (json) => String(json['pile']) };

/** Each built-in family's start notation. A family without one cannot take a suite. */
const NOTATIONS: Readonly<Record<string, StartNotation>> = {
  subtraction: PILE,
  'no-repeat': PILE,
  partizan: PILE,
  piles: { param: 'piles', expected: 'pile sizes separated by commas, e.g. 3,4,5', one: false, text: list('piles') },
  coins: { param: 'coins', expected: 'the numbers of the coins on the board, e.g. 1,2,5,8', one: false, text: list('coins') },
  'end-game': { param: 'row', expected: 'the row of numbers, e.g. -1,3,9,4', one: false, text: list('row') },
  octal: { param: 'heaps', expected: 'heap sizes separated by commas, e.g. 7,12', one: false, text: list('heaps') },
  grundy: { param: 'heaps', expected: 'heap sizes separated by commas, e.g. 7,12', one: false, text: list('heaps') },
};

/** The notation of a family's start positions, or a ParamError saying the family has none. */
function notationOf(family: string): StartNotation {
  const notation = NOTATIONS[family];
  if (!notation) throw new ParamError(`${family} has no start-position notation; suites take ${Object.keys(NOTATIONS).join(', ')}`);
  return notation;
}

/** What a line of a suite for `family` should be, for messages: `one pile size, e.g. 57`. */
export function startExpected(family: string): string {
  return notationOf(family).expected;
}

/**
 * The variant that starts at the position `text` (in the family's start notation) and is otherwise
 * `game`: `subtraction{moves=1,5,8,10;n=57}` from `subtraction{moves=1,5,8,10;n=50..200}` and `57`.
 * Throws ParamError saying what a start of this family looks like, also for a position where the
 * game is already over.
 */
export function startVariant(game: AnyGame, text: string): AnyGame {
  const notation = notationOf(game.family);
  const tokens = text.split(/[\s,]+/).filter((t) => t !== '');
  const like = `a start of ${game.family} (${notation.expected})`;
  if (tokens.length === 0 || !tokens.every((t) => /^-?\d+$/.test(t)) || (notation.one && (tokens.length !== 1 || tokens[0]!.startsWith('-')))) {
    throw new ParamError(`expected ${like}, got ${show(text)}`);
  }
  const { family, params } = splitVariantId(game.id);
  let start: AnyGame;
  try {
    // A pile stays text: piles above 2^53 keep every digit.
    start = makeGame(family, { ...params, [notation.param]: notation.one ? tokens[0]! : tokens.map(Number) });
  } catch (err) {
    if (err instanceof ArenaError) throw new ParamError(`expected ${like}: ${err.message}`);
    throw err;
  }
  if (start.moves(start.deal(createRng(0))).length === 0) throw new ParamError(`expected ${like} where a move is left, got ${show(text)}: the game is over there`);
  return start;
}

/** A position of `game` in its family's start notation (what it leaves out, such as the side to move or scores, a start does not have). */
export function startText(game: AnyGame, state: unknown): string {
  return notationOf(game.family).text(game.toJSON(state) as Record<string, unknown>);
}

/** One line of a suite: its number in the text (1-based) and the position, comment and blanks stripped. */
export interface SuiteLine {
  readonly line: number;
  readonly text: string;
}

/** The positions of a suite's lines: `#` starts a comment, blank lines are skipped. */
export function suitePositions(lines: readonly string[]): SuiteLine[] {
  const out: SuiteLine[] = [];
  lines.forEach((raw, i) => {
    const text = raw.replace(/#.*$/, '').trim();
    if (text !== '') out.push({ line: i + 1, text });
  });
  return out;
}

/** What `balancedStarts` writes: the suite's lines (position and comment) and the header that says how it was made. */
export interface BalancedSuite {
  readonly header: readonly string[];
  readonly lines: readonly { readonly text: string; readonly comment: string; readonly value: number; readonly plies: number }[];
}

/** Options of `balancedStarts`. */
export interface BalancedOptions {
  /** Normal play: this many first-player wins and as many losses; scored: twice this many positions nearest to 0. */
  readonly count: number;
  readonly seed: number;
  /** Only positions whose game, played by the solver's reference moves, lasts exactly this many plies (then 2 × count positions of any verdict). */
  readonly depth?: number;
}

/** Most random moves played from a deal to reach a candidate position. */
const MAX_RANDOM_PLIES = 12;
/** Positions drawn per position wanted before giving up. */
const DRAWS_PER_POSITION = 50;
/** Scored games: candidates judged per position wanted, of which those nearest 0 are kept. */
const POOL_PER_POSITION = 10;

/** Plies of the game from `state` when both sides play the solver's reference move (the optimal bot's): the winner's tie-break, the loser holding out. */
function referencePlies(game: AnyGame, solver: Solver<unknown, unknown>, state: unknown): number {
  let plies = 0;
  for (let s = state, m = solver.bestMove(s); m !== null; m = solver.bestMove(s)) {
    s = game.play(s, m);
    plies++;
  }
  return plies;
}

/** The solver's verdict on a start, as a suite line's comment says it. */
function verdict(start: AnyGame, solver: Solver<unknown, unknown>, state: unknown, value: number, plies: number): string {
  const best = solver.bestMove(state)!;
  const move = start.formatMove(best);
  const length = `${plies} ${plies === 1 ? 'ply' : 'plies'} with best play`;
  if (solver.scored) {
    const margin = value === 0 ? 'a draw' : `the first player ends ${Math.abs(value)} ${value > 0 ? 'ahead' : 'behind'}`;
    return `value ${value > 0 ? '+' : ''}${value}: ${margin} with best play (best move ${move}); ${length}`;
  }
  const cls = solver.classify(state);
  if (value < 0) return `first player loses (${cls}): every move leaves a win (longest defence ${move}); ${length}`;
  const after = start.play(state, best);
  return `first player wins (${cls}): ${move} leaves ${startText(start, after)} (${solver.classify(after)}); ${length}`;
}

/**
 * The exact verdict on a start variant's position for the first player, in a few words (`first
 * player wins (N)`, `value -2`), or null when the variant has no exact solver.
 */
export function startVerdict(start: AnyGame): string | null {
  const solver = start.solver?.();
  if (!solver || solver.bestMoveBy) return null; // a searching solver: no exact word within a budget
  const state = start.deal(createRng(0));
  const value = solver.value(state);
  if (solver.scored) return `value ${value > 0 ? '+' : ''}${value}`;
  return `first player ${value > 0 ? 'wins' : 'loses'} (${solver.classify(state)})`;
}

/**
 * A suite chosen by the solver (`arena starts --balanced`): positions drawn from `game`'s deals
 * followed by up to a dozen random moves, each judged afresh as a start (the variant of its own
 * line), kept in the order drawn: in normal play `count` first-player wins and `count` losses,
 * alternating so that any prefix stays balanced; in scored games the `2 × count` positions whose
 * exact value is nearest 0 among ten times as many; with `depth`, the first `2 × count` positions
 * whose reference game lasts `depth` plies. Deterministic for a seed. Throws ParamError when the
 * variant has no exact solver or its deals do not hold enough such positions.
 */
export function balancedStarts(game: AnyGame, options: BalancedOptions): BalancedSuite {
  const { count, seed, depth } = options;
  notationOf(game.family);
  const exact = game.solver?.();
  if (!exact || exact.bestMoveBy) throw new ParamError(`${game.id} has no exact solver (its positions are searched within a time budget, or not at all), so no suite can be balanced by it`);
  const rng = createRng(seed);
  const seen = new Set<string>();
  type Entry = BalancedSuite['lines'][number];
  // Normal play: wins and losses; by depth or in scored games, one pool.
  const wins: Entry[] = [];
  const losses: Entry[] = [];
  const pool: Entry[] = [];
  const draws = DRAWS_PER_POSITION * 2 * count;
  const scored = exact.scored;
  const enough = (): boolean =>
    depth !== undefined ? pool.length >= 2 * count : scored ? pool.length >= POOL_PER_POSITION * 2 * count : wins.length >= count && losses.length >= count;
  let drawn = 0;
  for (; drawn < draws && !enough(); drawn++) {
    let state = game.deal(rng);
    for (let k = rng.int(0, MAX_RANDOM_PLIES); k > 0; k--) {
      const moves = game.moves(state);
      if (moves.length === 0) break;
      state = game.play(state, moves[rng.int(0, moves.length - 1)]!);
    }
    if (game.moves(state).length === 0) continue;
    const text = startText(game, state);
    if (seen.has(text)) continue;
    seen.add(text);
    // A position of the game in its own notation is a start of it: a failure here is a bug, not a skip.
    const start = startVariant(game, text);
    const solver = start.solver?.();
    // Only exact answers: a solver that searches within a time budget would make the suite depend on the machine.
    if (!solver || solver.bestMoveBy) continue;
    const s0 = start.deal(createRng(0));
    let value: number;
    try {
      value = solver.value(s0);
    } catch (err) {
      if (err instanceof TooLargeError) continue; // beyond the solver's tables: no exact verdict to cite
      throw err;
    }
    const plies = referencePlies(start, solver, s0);
    if (depth !== undefined && plies !== depth) continue;
    const entry = { text, comment: verdict(start, solver, s0, value, plies), value, plies };
    if (depth !== undefined || scored) pool.push(entry);
    else (value > 0 ? wins : losses).push(entry);
  }
  let lines: Entry[];
  let what: string;
  if (depth !== undefined) {
    if (pool.length < 2 * count) throw new ParamError(`found ${pool.length} of the ${2 * count} positions of depth ${depth} asked for among ${drawn} drawn from ${game.id}; ask for fewer, another depth, or widen the variant's deals`);
    lines = pool.slice(0, 2 * count);
    what = `${2 * count} positions whose game lasts ${depth} plies with best play`;
  } else if (scored) {
    if (pool.length < 2 * count) throw new ParamError(`found ${pool.length} of the ${2 * count} positions asked for among ${drawn} drawn from ${game.id}; ask for fewer or widen the variant's deals`);
    // Nearest 0 first, the order drawn among equals; then back in the order drawn.
    const order = new Map(pool.map((e, i) => [e, i]));
    lines = [...pool].sort((a, b) => Math.abs(a.value) - Math.abs(b.value) || order.get(a)! - order.get(b)!).slice(0, 2 * count).sort((a, b) => order.get(a)! - order.get(b)!);
    const worst = Math.max(...lines.map((e) => Math.abs(e.value)));
    what = `${2 * count} positions of exact value within ±${worst} (the nearest 0 of ${pool.length} drawn)`;
  } else {
    if (wins.length < count || losses.length < count) {
      throw new ParamError(`found ${wins.length} first-player wins and ${losses.length} losses among ${drawn} positions drawn from ${game.id}, ${count} of each asked for; ask for fewer or widen the variant's deals`);
    }
    lines = Array.from({ length: 2 * count }, (_, i) => (i % 2 === 0 ? wins : losses)[i >> 1]!);
    what = `${count} first-player wins and ${count} first-player losses, alternating`;
  }
  return {
    header: [`start positions of ${game.id}, one a line (${startExpected(game.family)})`, `chosen by the exact solver, seed ${seed}: ${what}`],
    lines,
  };
}
