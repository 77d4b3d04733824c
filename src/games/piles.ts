import { lastMoveGoal, setText } from './goals.ts';
import { MoveError, TooLargeError, show } from '../core/errors.ts';
import { otherSeat, type Game, type Seat, type Solver, type Tabulation } from '../core/game.ts';
import { defineFamily, intSetSchema, rangeSchema, toNumber, toNumberList, variantId, type Range } from '../core/params.ts';
import {
  bestPilesMove,
  forEachTakeDescending,
  nimValues,
  smallestTake,
  squaresColdList,
  xorOfPiles,
  type PileRule,
} from '../solvers/grundy.ts';
import { nimPeriodSummary } from '../solvers/nim-period.ts';
import { MAX_MISERE_POSITIONS, MisereSearch, misereNimWins, multisetCount } from '../solvers/misere.ts';
import { misereParam, misereTitle, noMoveWinner } from './misere.ts';
import { z } from 'zod';

export type { PileRule } from '../solvers/grundy.ts';

/** Largest pile size (moves are listed one per legal take, so Nim piles must stay listable). */
export const MAX_PILE = 1_000_000;

/** Most piles in a position. */
export const MAX_PILES = 64;

/** Largest `upto` for `tabulate` nim-values (squares: Θ(n^1.5) time, about 1.4 s of CPU at 10^6). */
export const MAX_TABULATE = 1_000_000;

/** Largest `upto` for the squares P-position list of `tabulate` (the cold sieve, about 4 s at 2^26; the list is printed). */
export const MAX_TABULATE_SQUARES_COLD = 2 ** 26;

/**
 * Parameters of the piles family: the take rule, the piles (a count to deal, or explicit sizes)
 * and the range dealt sizes are drawn from (ignored when the sizes are explicit).
 */
export type PilesParams = {
  readonly rule: PileRule;
  readonly piles: number | readonly number[];
  readonly size: Range;
  /** GAMES.md 8: the player who makes the last move loses. */
  readonly misere?: true | undefined;
};

/** The pile sizes in order and the seat to move. */
export interface PilesState {
  readonly piles: readonly number[];
  readonly turn: Seat;
}

/** Remove `take` stones from pile number `pile`, numbered from 1 as in the notation `pile:take`. */
export interface PilesMove {
  readonly pile: number;
  readonly take: number;
}

const ruleSchema: z.ZodType<PileRule> = z.preprocess(
  (v) => (typeof v === 'string' ? v.trim().toLowerCase() : v),
  z.union([z.enum(['nim', 'squares']), intSetSchema(64, MAX_PILE)]),
);

/**
 * A count (`3`) or a list of sizes (`3,4,5`, `[7]`, JSON arrays), counts in 1..maxCount and sizes
 * in minSize..maxSize. A bare number is a count; a single explicit size is written `[7]` so that
 * it round-trips through variant ids (`countOrSizesText`). Piles' `piles` and octal's `heaps`.
 */
export function countOrSizesSchema(maxCount: number, minSize: number, maxSize: number): z.ZodType<number | readonly number[]> {
  return z.preprocess(
    (v) => {
      if (typeof v !== 'string') return v;
      const t = v.trim();
      if (/^\[.*\]$/s.test(t)) return toNumberList(t.slice(1, -1));
      return /[\s,]/.test(t) ? toNumberList(t) : toNumber(t);
    },
    z.union([z.number().int().min(1).max(maxCount), z.array(z.number().int().min(minSize).max(maxSize)).min(1).max(maxCount)]),
  );
}

const pilesSchema = countOrSizesSchema(MAX_PILES, 0, MAX_PILE);

/** The text of a `countOrSizesSchema` value in a variant id: `3`, `3,4,5`, or `[7]` for one explicit size. */
export function countOrSizesText(piles: number | readonly number[]): string {
  if (typeof piles === 'number') return String(piles);
  return piles.length === 1 ? `[${piles[0]}]` : piles.join(',');
}

/** The rule in titles: `Nim`, `subtract-a-square`, `{1,3,4}`. */
function ruleTitle(rule: PileRule): string {
  if (rule === 'nim') return 'Nim';
  if (rule === 'squares') return 'subtract-a-square';
  return `subtraction {${rule.join(',')}}`;
}

/** Parses `pile:amount` against the legal moves of a position. */
export function parsePilesMove(text: string, legal: readonly PilesMove[]): PilesMove {
  const m = /^\s*(\d+)\s*:\s*(\d+)\s*$/.exec(text);
  if (!m) throw new MoveError(`Expected a move as pile:amount with piles numbered from 1, e.g. \`2:9\`, got ${show(text)}`);
  const pile = Number(m[1]);
  const take = Number(m[2]);
  const move = legal.find((l) => l.pile === pile && l.take === take);
  if (!move) {
    const fromPile = legal.filter((l) => l.pile === pile).map((l) => l.take);
    const hint = fromPile.length
      ? `legal takes from pile ${pile}: ${fromPile.length > 12 ? `${fromPile.slice(0, 12).join(', ')}, …` : fromPile.join(', ')}`
      : `pile ${pile} has no legal take`;
    throw new MoveError(`Taking ${take} from pile ${pile} is not legal here; ${hint}`);
  }
  return move;
}

/** The legal moves of a row of piles under a rule: by pile, then by increasing take. */
export function listPilesMoves(rule: PileRule, piles: readonly number[]): PilesMove[] {
  const out: PilesMove[] = [];
  piles.forEach((n, i) => {
    const pile = i + 1;
    if (rule === 'nim') for (let t = 1; t <= n; t++) out.push({ pile, take: t });
    else if (rule === 'squares') for (let k = 1; k * k <= n; k++) out.push({ pile, take: k * k });
    else for (const t of rule) if (t <= n) out.push({ pile, take: t });
  });
  return out;
}

/**
 * The exact solver of a piles variant whose piles never exceed `maxPile`: the xor of nim-values
 * (Sprague–Grundy). The nim-value table is built on first use and kept for the variant.
 */
export function pilesSolver(rule: PileRule, maxPile: number): Solver<PilesState, PilesMove> {
  let table: ArrayLike<number> | undefined;
  const nimValue = (n: number): number => {
    if (rule === 'nim') return n;
    if (n > maxPile) throw new TooLargeError(`Pile ${n} is beyond the solver's table (up to ${maxPile})`);
    table ??= nimValues(rule, maxPile);
    return table[n]!;
  };
  const wins = (s: PilesState): boolean => xorOfPiles(s.piles, nimValue) !== 0;
  return {
    scored: false,
    value: (s) => (wins(s) ? 1 : -1),
    classify: (s) => (wins(s) ? 'N' : 'P'),
    bestMove(s) {
      const best = bestPilesMove(s.piles, rule, nimValue);
      return best === null ? null : { pile: best.index + 1, take: best.take };
    },
  };
}

/** Most stones in a misère deal of a non-Nim rule: the search recurses once per move of a line of play. */
export const MAX_MISERE_STONES = 2000;

/** The misère search over piles under a non-Nim rule (each move leaves one pile). */
function pileSearch(rule: PileRule): MisereSearch {
  return new MisereSearch((n) => {
    const out: number[][] = [];
    forEachTakeDescending(rule, n, (take) => (out.push([n - take]), false));
    return out;
  });
}

/**
 * The reference move under misère play, by the tie-break of `bestPilesMove`: among the moves that
 * win, the largest take (ties: the lowest-numbered pile); when every move loses, the smallest take
 * from the largest pile that can move. `wins(piles)`: whether the player to move wins.
 */
function bestMisereMove(rule: PileRule, piles: readonly number[], wins: (piles: readonly number[]) => boolean): PilesMove | null {
  const legal = listPilesMoves(rule, piles);
  let best: PilesMove | null = null;
  for (const m of legal) {
    if (best !== null && m.take <= best.take) continue;
    if (!wins(piles.map((n, i) => (i === m.pile - 1 ? n - m.take : n)))) best = m;
  }
  if (best) return best;
  for (const m of legal) if (best === null || piles[m.pile - 1]! > piles[best.pile - 1]!) best = m;
  return best;
}

/**
 * The misère solver of a piles variant (GAMES.md 8): Nim by its rule (`misereNimWins`), other rules
 * by the exact search over positions; undefined when the deals can reach more than
 * MAX_MISERE_POSITIONS positions or hold more than MAX_MISERE_STONES stones (`count` piles of at
 * most `maxPile`).
 */
export function misereSolver(rule: PileRule, maxPile: number, count: number): Solver<PilesState, PilesMove> | undefined {
  let wins: (piles: readonly number[]) => boolean;
  if (rule === 'nim') wins = misereNimWins;
  else {
    if (count * maxPile > MAX_MISERE_STONES || multisetCount(maxPile, count, MAX_MISERE_POSITIONS) > MAX_MISERE_POSITIONS) return undefined;
    const search = pileSearch(rule);
    wins = (piles) => search.wins(piles);
  }
  return {
    scored: false,
    value: (s) => (wins(s.piles) ? 1 : -1),
    classify: (s) => (wins(s.piles) ? 'N' : 'P'),
    bestMove: (s) => bestMisereMove(rule, s.piles, wins),
  };
}

/** Single-pile tables for `arena analyze --upto`: nim-values and P-positions of 0..upto. */
export function pilesTabulation(rule: PileRule, upto: number): Tabulation {
  if (!Number.isInteger(upto) || upto < 0) throw new RangeError(`Expected upto to be a non-negative integer, got ${upto}`);
  if (upto <= MAX_TABULATE) {
    const g = nimValues(rule, upto);
    const pPositions: number[] = [];
    for (let n = 0; n <= upto; n++) if (g[n] === 0) pPositions.push(n);
    return { nimValues: Array.from(g), pPositions };
  }
  // Beyond the nim-value table, subtract-a-square still has its fast cold-position sieve.
  if (rule === 'squares' && upto <= MAX_TABULATE_SQUARES_COLD) return { pPositions: Array.from(squaresColdList(upto)) };
  const limit = rule === 'squares' ? MAX_TABULATE_SQUARES_COLD : MAX_TABULATE;
  throw new TooLargeError(`Expected upto to be at most ${limit} for ${ruleTitle(rule)}, got ${upto}`);
}

/** Misère P-positions of one pile 0..upto (a lone pile's positions are single piles: upto + 1 of them). */
function misereTabulation(rule: PileRule, upto: number): Tabulation {
  if (!Number.isInteger(upto) || upto < 0) throw new RangeError(`Expected upto to be a non-negative integer, got ${upto}`);
  if (upto > MAX_TABULATE) throw new TooLargeError(`Expected upto to be at most ${MAX_TABULATE}, got ${upto}`);
  const pPositions: number[] = [];
  if (rule === 'nim') {
    for (let n = 0; n <= upto; n++) if (!misereNimWins([n])) pPositions.push(n);
    return { pPositions };
  }
  // Ascending, so each pile's options are solved already: the search never goes deeper than one move.
  const search = pileSearch(rule);
  for (let n = 0; n <= upto; n++) if (!search.wins([n])) pPositions.push(n);
  return { pPositions };
}

/** GAMES.md 4: several piles; a move takes an allowed amount from one pile. Who cannot move loses. */
export const piles = defineFamily<PilesParams, PilesState, PilesMove>({
  id: 'piles',
  title: 'Piles (Nim, subtract-a-square, subtraction sets)',
  summary:
    'Several piles; a move removes an allowed amount (any, a square, or one of a set) from one pile. Who cannot move loses.',
  notation: 'pile:amount with piles numbered from 1, e.g. `2:9`',
  params: {
    rule: {
      schema: ruleSchema,
      description: 'what a move may take from one pile',
      expected: `\`nim\`, \`squares\` or 1 to 64 distinct integers in 1..${MAX_PILE}, e.g. 1,3,4`,
      default: 'nim',
    },
    piles: {
      schema: pilesSchema,
      description: 'the number of piles to deal, or their sizes (one explicit pile is written [7])',
      expected: `a count in 1..${MAX_PILES} or a list of sizes in 0..${MAX_PILE}, e.g. 3 or 3,4,5`,
      default: 3,
    },
    size: {
      schema: rangeSchema(0, MAX_PILE),
      description: 'the range dealt pile sizes are drawn from (ignored when piles lists sizes)',
      expected: `a size or a range min..max within 0..${MAX_PILE}`,
      default: { min: 1, max: 20 },
    },
    misere: misereParam,
  },
  analysis: {
    // Single-pile tables: under misère a lone pile of n is won exactly when normal play wins it
    // with the end flipped; only the normal-play nim-values are tabulated (misère is not a sum).
    tabulate: ({ rule, misere }, upto) => (misere ? misereTabulation(rule, upto) : pilesTabulation(rule, upto)),
    // Only finite sets have eventually periodic nim-values (Nim's and squares' grow without bound).
    period: ({ rule, misere }) => (typeof rule === 'object' && !misere ? nimPeriodSummary(rule) : undefined),
  },
  create(params) {
    const { rule } = params;
    const misere = params.misere === true;
    const explicit = typeof params.piles === 'number' ? null : params.piles;
    const count = typeof params.piles === 'number' ? params.piles : params.piles.length;
    const maxPile = explicit ? Math.max(...explicit) : params.size.max;
    const min = smallestTake(rule);
    const game: Game<PilesState, PilesMove> = {
      // With explicit sizes `size` plays no part, so the id leaves it out.
      id: variantId('piles', { rule, piles: countOrSizesText(params.piles), ...(explicit ? {} : { size: params.size }), misere: params.misere }),
      family: 'piles',
      title: `${ruleTitle(rule)}, ${explicit ? `piles ${explicit.join(' ')}` : `${count} piles`}${misereTitle(misere)}`,
      params,
      deal: (rng) => ({
        piles: explicit ?? Array.from({ length: count }, () => rng.int(params.size.min, params.size.max)),
        turn: 'first',
      }),
      toMove: (s) => s.turn,
      moves: (s) => listPilesMoves(rule, s.piles),
      play: (s, m) => ({ piles: s.piles.map((n, i) => (i === m.pile - 1 ? n - m.take : n)), turn: otherSeat(s.turn) }),
      outcome: (s) => (s.piles.every((n) => n < min) ? { winner: noMoveWinner(s.turn, misere) } : null),
      key: (s) => `${s.turn === 'first' ? 'f' : 's'}:${s.piles.join(',')}`,
      formatMove: (m) => `${m.pile}:${m.take}`,
      parseMove: (text, s) => parsePilesMove(text, game.moves(s)),
      describe: (s) => `piles ${s.piles.join(' ')}, ${s.turn} to move`,
      toJSON: (s) => ({ piles: s.piles }),
      solver: () => (misere ? misereSolver(rule, maxPile, count) : pilesSolver(rule, maxPile)),
      // Greedy's gain: the amount taken; under misère, a move after which nobody can move loses at once: the worst.
      heuristic: (s, m) => (misere && s.piles.every((n, i) => (i === m.pile - 1 ? n - m.take : n) < min) ? -1 : m.take),
      size: (s) => s.piles.reduce((a, b) => a + b, 0),
      goal: lastMoveGoal<PilesState>({
        misere,
        moves: `A move takes from one pile ${rule === 'nim' ? 'any number of stones (Nim)' : rule === 'squares' ? 'a perfect square of stones (1, 4, 9, 16, …)' : `s stones, with s in ${setText(rule)}`}.`,
        stone: 'stone',
        toMove: (s) => s.turn,
      }),
    };
    return game;
  },
});
