/**
 * Why a position is won or lost, in each family's own terms (what `e` shows in `arena play` and its
 * review): Nim's piles in binary with the nim-sum and the move that zeroes it, a subtraction game's
 * period and where the pile falls in it, subtract-a-square's cold positions around each pile, the
 * End Game's parity sums beside its DP value, and on the coin board the answer to each of the
 * opponent's moves when there are few — or, where no short argument exists, "the solver says so".
 *
 * Every explanation computes its verdict by its own argument (nim-sum, n mod p, the parity rule,
 * the interval DP); the tests check that verdict and the recommended move against the solver.
 */
import type { AnyGame, OutcomeClass, Solver } from '../core/game.ts';
import { TooLargeError } from '../core/errors.ts';
import { consecutiveIsP, isConsecutive, isN, periodicIsN, subtractionPeriod } from '../solvers/subtraction.ts';
import { nimValues, type PileRule } from '../solvers/grundy.ts';
import { nimValuePeriod } from '../solvers/nim-period.ts';
import { endGameValue } from '../solvers/end-game.ts';
import { subPile, type Pile } from '../solvers/period.ts';
import type { PileState } from './subtraction.ts';
import type { PilesMove, PilesState } from './piles.ts';
import type { EndGameState } from './end-game.ts';
import type { OctalMove, OctalState } from './octal.ts';
import { octalNimTable, parseOctalCode, type TakeBreakRule } from '../solvers/octal.ts';

/** An explanation of one position, for the player to move. */
export interface Explanation {
  /** The outcome class the argument arrives at (P: the player to move loses; N: wins; D: a scored draw). */
  readonly outcome: OutcomeClass;
  /** The move the argument recommends, in GAMES.md notation; null when there is none (lost, or over). */
  readonly move: string | null;
  /** The argument, one short line each. */
  readonly lines: readonly string[];
}

/** What an explanation says when the family has no short argument for this position. */
export const NO_SHORT_REASON = 'no short reason: the solver says so';

/** Largest pile of subtract-a-square whose cold positions are listed (the nim-value table grows as n^1.5). */
const MAX_SQUARES_EXPLAIN = 1 << 18;
/** Most opponent replies the coin board lists one answer each for. */
const MAX_COIN_ANSWERS = 8;

/** Explains the position for the player to move; `undefined` once the game is over. */
export function explainPosition(game: AnyGame, state: unknown): Explanation | undefined {
  if (game.outcome(state) !== null) return undefined;
  // Under misère play nim-sums and periods argue nothing (GAMES.md 8): the solver's word alone.
  if (game.params['misere'] === true) return solverSays(game, state);
  switch (game.family) {
    case 'subtraction':
      return explainSubtraction(game, state as PileState) ?? solverSays(game, state);
    case 'piles':
      return explainPiles(game, state as PilesState) ?? solverSays(game, state);
    case 'end-game':
      return explainEndGame(game, state as EndGameState);
    case 'coins':
      return explainCoins(game, state);
    case 'octal':
    case 'grundy':
      return explainOctal(game, state as OctalState);
    default:
      return solverSays(game, state);
  }
}

/** An outcome class in words for the player to move: `won for the player to move`, `class L`, … */
export function winningWord(outcome: OutcomeClass): string {
  return outcome === 'N' ? 'won for the player to move' : outcome === 'P' ? 'lost for the player to move' : outcome === 'D' ? 'a draw' : `class ${outcome}`;
}

/** The fallback: the solver's verdict and move, without an argument. */
function solverSays(game: AnyGame, state: unknown): Explanation {
  const solver = solverOrThrow(game);
  const outcome = solver.classify(state);
  const best = outcome === 'P' && !solver.scored ? null : solver.bestMove(state);
  const move = best === null ? null : game.formatMove(best);
  return {
    outcome,
    move,
    lines: [`${NO_SHORT_REASON}: ${winningWord(outcome)}${move === null ? '' : `; best move ${move}`}`],
  };
}

function solverOrThrow(game: AnyGame): Solver<unknown, unknown> {
  const solver = game.solver?.();
  if (!solver) throw new TooLargeError(`No exact solver for ${game.id}, so no explanation`);
  return solver;
}

// ---------------------------------------------------------------------------------------------
// One pile, a subtraction set: the period and where n falls in it

function explainSubtraction(game: AnyGame, s: PileState): Explanation | undefined {
  const moves = game.params['moves'] as readonly number[];
  const n = s.pile;
  const legal = moves.filter((t) => t <= n);
  let isP: (pile: Pile) => boolean;
  let rule: string;
  let where: (pile: Pile) => string;
  if (isConsecutive(moves)) {
    const a = moves[0]!;
    const b = moves[moves.length - 1]!;
    const p = a + b;
    isP = (pile) => consecutiveIsP(pile, a, b);
    rule = `takes ${a}..${b}: a pile is a P-position exactly when pile mod ${p} < ${a}`;
    where = (pile) => `${pile} mod ${p} = ${mod(pile, p)}`;
  } else {
    const period = subtractionPeriod(moves, 1 << 22);
    if (!period) return undefined;
    const { preperiod: mu, period: p } = period;
    isP = (pile) => !periodicIsN(period, pile);
    const cold: number[] = [];
    for (let i = mu; i < mu + p; i++) if (!isN(period.table, i)) cold.push(mu === 0 ? i : i - mu);
    const coldText = cold.length > 12 ? `${cold.slice(0, 12).join(' ')} …` : cold.join(' ') || 'none';
    if (mu === 0) {
      rule = `outcomes repeat with period ${p}: the P-positions are the piles with pile mod ${p} in {${coldText}}`;
      where = (pile) => `${pile} mod ${p} = ${mod(pile, p)}`;
    } else {
      rule = `from pile ${mu} on, outcomes repeat with period ${p}: piles ≥ ${mu} with (pile − ${mu}) mod ${p} in {${coldText}} are P-positions (below ${mu}, the table)`;
      where = (pile) => (pile < mu ? `${pile} < ${mu}, from the table` : `(${pile} − ${mu}) mod ${p} = ${mod(subPile(pile, mu), p)}`);
    }
  }
  const lines = [rule];
  if (isP(n)) {
    lines.push(`n = ${where(n)}: a P-position, every take leaves an N-position`);
    if (legal.length > 0 && legal.length <= 6) {
      lines.push(legal.map((t) => `take ${t} → ${subPile(n, t)}`).join(', ') + ': each a win for the opponent');
    }
    return { outcome: 'P', move: null, lines };
  }
  // The family's tie-break: the largest winning take.
  const take = [...legal].reverse().find((t) => isP(subPile(n, t)))!;
  const left = subPile(n, take);
  lines.push(`n = ${where(n)}: an N-position`);
  lines.push(`take ${take}: leaves ${where(left)}, a P-position for the opponent`);
  return { outcome: 'N', move: String(take), lines };
}

function mod(pile: Pile, p: number): number {
  return typeof pile === 'number' ? pile % p : Number(pile % BigInt(p));
}

// ---------------------------------------------------------------------------------------------
// Several piles: binary and the nim-sum (Nim), nim-values and cold positions (squares, sets)

function explainPiles(game: AnyGame, s: PilesState): Explanation | undefined {
  const rule = game.params['rule'] as PileRule;
  const piles = s.piles;
  const max = Math.max(...piles);
  let g: (n: number) => number;
  const lines: string[] = [];
  if (rule === 'nim') {
    g = (n) => n;
    const width = Math.max(1, max.toString(2).length);
    const nw = String(max).length;
    piles.forEach((n, i) => lines.push(`pile ${i + 1}: ${String(n).padStart(nw)} = ${n.toString(2).padStart(width, '0')}`));
    const x = piles.reduce((a, b) => a ^ b, 0);
    lines.push(`nim-sum ${' '.repeat(String(piles.length).length + nw)}= ${x.toString(2).padStart(width, '0')} (each column: an odd count of 1s gives 1)`);
  } else if (rule === 'squares') {
    if (max > MAX_SQUARES_EXPLAIN) return undefined;
    const table = nimValues('squares', max + 64);
    g = (n) => table[n]!;
    piles.forEach((n, i) => lines.push(`pile ${i + 1}: ${n}, nim-value ${g(n)}; cold positions around it: ${coldAround(table, n)}`));
    const x = piles.reduce((a, n) => a ^ g(n), 0);
    lines.push(`nim-sum of the nim-values = ${x}${piles.length === 1 ? ' (one pile: cold exactly when its nim-value is 0)' : ''}`);
  } else {
    const period = nimValuePeriod(rule, 1 << 22);
    const table = nimValues(rule, max);
    g = (n) => table[n]!;
    if (period) lines.push(`nim-values under {${rule.join(',')}} repeat with period ${period.period} from pile ${period.preperiod}`);
    piles.forEach((n, i) => lines.push(`pile ${i + 1}: ${n}, nim-value ${g(n)}`));
    lines.push(`nim-sum of the nim-values = ${piles.reduce((a, n) => a ^ g(n), 0)}`);
  }
  const x = piles.reduce((a, n) => a ^ g(n), 0);
  if (x === 0) {
    lines.push('nim-sum 0: a P-position, every move makes it non-zero and the opponent zeroes it again');
    return { outcome: 'P', move: null, lines };
  }
  const move = zeroingMove(rule, piles, g, x);
  lines.push(`nim-sum ${x} ≠ 0: an N-position; take ${move.take} from pile ${move.pile} (${piles[move.pile - 1]} → ${piles[move.pile - 1]! - move.take}) and the nim-sum becomes 0`);
  return { outcome: 'N', move: `${move.pile}:${move.take}`, lines };
}

// Take-and-break heaps: each heap's nim-value and their nim-sum

function explainOctal(game: AnyGame, s: OctalState): Explanation {
  const parsed: TakeBreakRule | string = game.family === 'grundy' ? { kind: 'grundy' } : parseOctalCode(String(game.params['code']));
  if (typeof parsed === 'string') return solverSays(game, s);
  const table = octalNimTable(parsed, Math.max(0, ...s.heaps)).values;
  const g = (n: number): number => table[n]!;
  const lines = s.heaps.map((n, i) => `heap ${i + 1}: ${n}, nim-value ${g(n)}`);
  const x = s.heaps.reduce((a, n) => a ^ g(n), 0);
  lines.push(`nim-sum of the nim-values = ${x}`);
  if (x === 0) {
    lines.push('nim-sum 0: a P-position, every move makes it non-zero and the opponent zeroes it again');
    return { outcome: 'P', move: null, lines };
  }
  // A move zeroes the nim-sum when what it leaves is worth the heap's value xor the nim-sum.
  const move = (game.moves(s) as OctalMove[]).find((m) => m.rest.reduce((v, h) => v ^ g(h), 0) === (g(s.heaps[m.heap - 1]!) ^ x))!;
  const left = move.rest.length === 0 ? 'nothing' : move.rest.join(' and ');
  lines.push(`nim-sum ${x} ≠ 0: an N-position; ${game.formatMove(move)} leaves ${left} of heap ${move.heap} and the nim-sum becomes 0`);
  return { outcome: 'N', move: game.formatMove(move), lines };
}

/** The cold positions (nim-value 0) nearest below and above n, n marked when it is one. */
function coldAround(table: ArrayLike<number>, n: number): string {
  const below: number[] = [];
  for (let i = n - 1; i >= 0 && below.length < 2; i--) if (table[i] === 0) below.unshift(i);
  const above: number[] = [];
  for (let i = n + 1; i < table.length && above.length < 2; i++) if (table[i] === 0) above.push(i);
  return [...below, ...(table[n] === 0 ? [`[${n}]`] : [`(${n})`]), ...above].join(' ');
}

/** The largest take that zeroes the nim-sum (the reference bot's choice; lowest pile on ties). */
function zeroingMove(rule: PileRule, piles: readonly number[], g: (n: number) => number, x: number): PilesMove {
  let best: PilesMove | null = null;
  piles.forEach((n, i) => {
    const target = g(n) ^ x;
    for (let t = n; t >= 1; t--) {
      if (best !== null && t <= best.take) break;
      if (!allowed(rule, t)) continue;
      if (g(n - t) === target) {
        best = { pile: i + 1, take: t };
        break;
      }
    }
  });
  if (best === null) throw new Error('Sprague–Grundy: a non-zero nim-sum always has a zeroing move');
  return best;
}

function allowed(rule: PileRule, t: number): boolean {
  if (rule === 'nim') return true;
  if (rule === 'squares') return Number.isInteger(Math.sqrt(t));
  return rule.includes(t);
}

// ---------------------------------------------------------------------------------------------
// End Game: the parity sums beside the DP value

function explainEndGame(game: AnyGame, s: EndGameState): Explanation {
  const left = s.row.slice(s.lo, s.hi);
  const mine = s.turn === 'first' ? 0 : 1;
  const made = s.scores[mine] - s.scores[1 - mine]!;
  const dp = endGameValue(left);
  const total = made + dp;
  const lines: string[] = [];
  let odd = 0;
  let even = 0;
  left.forEach((x, i) => (i % 2 === 0 ? (odd += x) : (even += x)));
  if (left.length % 2 === 0) {
    const cls = odd >= even ? 'odd' : 'even';
    lines.push(`${left.length} numbers left (even): the 1st, 3rd, … sum to ${odd}, the 2nd, 4th, … to ${even}`);
    lines.push(
      `the player to move can take every ${cls}-placed number (the opponent is always left the other class at the ends), so gets at least ${Math.abs(odd - even)} more than the opponent from here`,
    );
  } else {
    lines.push(`${left.length} numbers left (odd): the parity strategy needs an even row, so the opponent may use it after this move`);
  }
  lines.push(`DP value (both sides best): ${dp >= 0 ? '+' : ''}${dp} from the numbers left${made !== 0 ? `, ${made >= 0 ? '+' : ''}${made} already scored` : ''}: final margin ${total >= 0 ? '+' : ''}${total}`);
  const ends: ['L' | 'R', number][] = [
    ['L', left[0]! - endGameValue(left, 1, left.length)],
    ['R', left[left.length - 1]! - endGameValue(left, 0, left.length - 1)],
  ];
  // Ties prefer L, as the solver's bestMove.
  const move = ends[0]![1] >= ends[1]![1] ? 'L' : 'R';
  lines.push(`take ${move} (${move === 'L' ? left[0] : left[left.length - 1]}): L keeps ${fmtSigned(ends[0]![1])}, R keeps ${fmtSigned(ends[1]![1])}`);
  return { outcome: total > 0 ? 'N' : total < 0 ? 'P' : 'D', move, lines };
}

function fmtSigned(v: number): string {
  return `${v >= 0 ? '+' : ''}${v}`;
}

// ---------------------------------------------------------------------------------------------
// Coin board: the parity of single coins, or the answer to each of the opponent's moves

function explainCoins(game: AnyGame, state: unknown): Explanation {
  const solver = solverOrThrow(game);
  const moves = game.moves(state);
  const scored = solver.scored;
  if (!scored && moves.every((m) => game.formatMove(m).indexOf('-') < 0)) {
    // No two coins in a line touch: every move takes one coin, so who takes the last is parity.
    const count = moves.length;
    const outcome: OutcomeClass = count % 2 === 1 ? 'P' : 'N';
    return {
      outcome,
      move: outcome === 'N' ? game.formatMove(moves[0]) : null,
      lines: [
        `no two coins left touch in a line: every move takes one coin`,
        `${count} coins: the player to move takes the ${count % 2 === 1 ? '1st, 3rd, …, and the last' : '1st, 3rd, … but not the last'} coin, so ${count % 2 === 1 ? 'loses' : 'wins'}`,
      ],
    };
  }
  const outcome = solver.classify(state);
  const keeps = (s: unknown, m: unknown): boolean => -solver.value(game.play(s, m)) === solver.value(s);
  if (scored) return solverSays(game, state);
  if (outcome === 'N') {
    const best = solver.bestMove(state)!;
    const after = game.play(state, best);
    const replies = game.moves(after);
    const text = game.formatMove(best);
    if (replies.length <= MAX_COIN_ANSWERS) {
      return {
        outcome,
        move: text,
        lines: [`take ${text}: then every reply of the opponent's has an answer`, answersLine(game, after, replies, keeps)],
      };
    }
    return { outcome, move: text, lines: [`${NO_SHORT_REASON}: won for the player to move, take ${text} (the opponent then has ${replies.length} replies)`] };
  }
  if (moves.length <= MAX_COIN_ANSWERS) {
    return { outcome, move: null, lines: ['every move has an answer that keeps the opponent winning', answersLine(game, state, moves, keeps)] };
  }
  return { outcome, move: null, lines: [`${NO_SHORT_REASON}: lost for the player to move (${moves.length} moves, each answered)`] };
}

/** `1 → 3-4, 2 → 4, …`: each move with a reply that keeps the replier's result. */
function answersLine(game: AnyGame, state: unknown, moves: readonly unknown[], keeps: (s: unknown, m: unknown) => boolean): string {
  return moves
    .map((m) => {
      const after = game.play(state, m);
      const answers = game.moves(after);
      if (answers.length === 0) return `${game.formatMove(m)} (takes the last coin)`;
      const answer = answers.find((r) => keeps(after, r));
      return `${game.formatMove(m)} → ${answer === undefined ? '?' : game.formatMove(answer)}`;
    })
    .join(', ');
}
