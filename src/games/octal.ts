/**
 * GAMES.md 7: take-and-break games on heaps — the `octal` family (any octal code, Kayles,
 * Dawson's Kayles, Dawson's chess, Officers…) and `grundy` (Grundy's game). Normal play by the
 * nim-values of the heaps (xor over heaps), misère play (GAMES.md 8) by an exact search over
 * positions where it is small enough (src/solvers/misere.ts).
 */
import { z } from 'zod';
import { MoveError, ParamError, TooLargeError, show } from '../core/errors.ts';
import { otherSeat, type Game, type GameGoal, type Seat, type Solver, type Tabulation } from '../core/game.ts';
import { defineFamily, rangeSchema, variantId, type ParamSpec, type Range } from '../core/params.ts';
import { MAX_MISERE_POSITIONS, MisereSearch, partitionCount } from '../solvers/misere.ts';
import {
  findOctalPeriod,
  heapOptions,
  octalNimTable,
  OCTAL_PRESETS,
  parseOctalCode,
  ruleMoves,
  ruleText,
  type HeapOption,
  type RuleMoves,
  type TakeBreakRule,
} from '../solvers/octal.ts';
import { lastMoveGoal } from './goals.ts';
import { misereParam, misereTitle, noMoveWinner } from './misere.ts';
import { countOrSizesSchema, countOrSizesText } from './piles.ts';

/** Largest heap in play: a heap of n lists about n/2 splits per take, and its nim-value table is built to the largest dealt heap. */
export const MAX_HEAP = 10_000;

/** Most heaps in a dealt position. */
export const MAX_HEAPS = 64;

/** Largest `upto` of `arena analyze` tables (nim-values are printed). */
export const MAX_TABULATE = 1 << 20;

/** Largest table `arena analyze --period` computes while looking for a period (2^24 heaps, 32 MB). */
export const MAX_PERIOD_SEARCH = 1 << 24;

/** Heaps and the seat to move. Heaps keep their order; a split puts its two heaps where the heap was. */
export interface OctalState {
  readonly heaps: readonly number[];
  readonly turn: Seat;
}

/**
 * Take `take` tokens from heap number `heap` (from 1), leaving `rest`: no heap (the whole heap
 * was taken), one heap, or two heaps, smaller first. `take` is 0 for a split without taking.
 */
export interface OctalMove {
  readonly heap: number;
  readonly take: number;
  readonly rest: readonly number[];
}

/** Parameters of both families: the rule (octal only), the start and misère play. */
export type OctalParams = {
  /** The canonical octal code, e.g. `0.77`. */
  readonly code: string;
  readonly n: Range;
  readonly heaps?: number | readonly number[] | undefined;
  readonly misere?: true | undefined;
};

/** Parameters of Grundy's game: as `octal`, without a code. */
export type GrundyParams = Omit<OctalParams, 'code'>;

/** An octal code or preset name, normalised to its canonical text (`kayles` → `0.77`), so ids round-trip. */
const codeSchema: z.ZodType<string> = z.preprocess(
  (v) => (typeof v === 'number' ? String(v) : v),
  z.string().transform((text, ctx) => {
    const rule = parseOctalCode(text);
    if (typeof rule === 'string') {
      ctx.addIssue({ code: 'custom', message: rule });
      return z.NEVER;
    }
    return ruleText(rule);
  }),
);

/** The rule of a canonical code (as `codeSchema` returns). */
function ruleOf(code: string): TakeBreakRule {
  const rule = parseOctalCode(code);
  if (typeof rule === 'string') throw new ParamError(`Expected \`code\` to be ${rule}, got ${show(code)}`);
  return rule;
}

const nParam: ParamSpec<Range> = {
  schema: rangeSchema(1, MAX_HEAP),
  description: 'the size of each dealt heap, or min..max to deal one per game',
  expected: `a size or a range min..max within 1..${MAX_HEAP}`,
  default: { min: 5, max: 40 },
};

const heapsParam: ParamSpec<number | readonly number[] | undefined> = {
  schema: countOrSizesSchema(MAX_HEAPS, 1, MAX_HEAP),
  description: 'how many heaps to deal (each of size n), or their sizes (one explicit heap is written [7]); one heap when left out',
  expected: `a count in 1..${MAX_HEAPS} or a list of sizes in 1..${MAX_HEAP}, e.g. 3 or 3,4,5`,
  optional: true,
};

/** `2:3` (take 3 from heap 2, leaving nothing or one heap), `2:1:3+4` (leaving heaps 3 and 4), `2:3+5` (split without taking). */
export function formatOctalMove(m: OctalMove): string {
  if (m.rest.length < 2) return `${m.heap}:${m.take}`;
  const split = `${m.rest[0]}+${m.rest[1]}`;
  return m.take === 0 ? `${m.heap}:${split}` : `${m.heap}:${m.take}:${split}`;
}

/** Parses a move in `formatOctalMove` notation against the legal moves (the two heaps of a split in either order). */
export function parseOctalMove(text: string, legal: readonly OctalMove[]): OctalMove {
  const m = /^\s*(\d+)\s*:\s*(?:(\d+)\s*(?::\s*(\d+)\s*\+\s*(\d+))?|(\d+)\s*\+\s*(\d+))\s*$/.exec(text);
  if (!m) {
    throw new MoveError(
      `Expected a move as heap:take (e.g. \`2:1\`), heap:take:a+b to leave heaps a and b (e.g. \`2:1:3+4\`) or heap:a+b to split without taking, got ${show(text)}`,
    );
  }
  const heap = Number(m[1]);
  let take: number;
  let rest: number[] | null = null;
  if (m[5] !== undefined) {
    take = 0;
    rest = [Number(m[5]), Number(m[6])];
  } else {
    take = Number(m[2]);
    if (m[3] !== undefined) rest = [Number(m[3]), Number(m[4])];
  }
  if (rest) rest.sort((a, b) => a - b);
  const move = legal.find((l) => l.heap === heap && l.take === take && (rest ? l.rest.length === 2 && l.rest[0] === rest[0] && l.rest[1] === rest[1] : l.rest.length < 2));
  if (!move) {
    const here = legal.filter((l) => l.heap === heap).map(formatOctalMove);
    const hint = here.length ? `legal moves on heap ${heap}: ${here.length > 12 ? `${here.slice(0, 12).join(', ')}, …` : here.join(', ')}` : `heap ${heap} has no legal move`;
    throw new MoveError(`${show(text.trim())} is not legal here; ${hint}`);
  }
  return move;
}

/** The options of each heap size, built once per variant (a heap's moves are the same wherever it stands). */
function optionCache(moves: RuleMoves): (n: number) => readonly HeapOption[] {
  const cache = new Map<number, readonly HeapOption[]>();
  return (n) => {
    let list = cache.get(n);
    if (!list) cache.set(n, (list = Object.freeze(heapOptions(moves, n))));
    return list;
  };
}

/** The heaps after a move: heap `heap` replaced, in place, by what the move leaves. */
function afterMove(heaps: readonly number[], m: OctalMove): number[] {
  const i = m.heap - 1;
  return [...heaps.slice(0, i), ...m.rest, ...heaps.slice(i + 1)];
}

/**
 * The reference move order of the solvers: among the moves that win, the largest take, then the
 * lowest-numbered heap, then list order; when every move loses, the smallest take from the largest
 * heap that can move (list order among equals), which keeps the most game for the opponent to err in.
 */
function pickMove(legal: readonly OctalMove[], heaps: readonly number[], wins: (m: OctalMove) => boolean): OctalMove | null {
  // `legal` runs by heap, then by increasing take: the first of equals is the one to keep.
  let best: OctalMove | null = null;
  for (const m of legal) if (wins(m) && (best === null || m.take > best.take)) best = m;
  if (best) return best;
  for (const m of legal) if (best === null || heaps[m.heap - 1]! > heaps[best.heap - 1]!) best = m;
  return best;
}

/** Normal play: the xor of the heaps' nim-values, from a table to `maxHeap` (no heap ever grows). */
function normalSolver(rule: TakeBreakRule, maxHeap: number, legalMoves: (s: OctalState) => readonly OctalMove[]): Solver<OctalState, OctalMove> {
  const values = octalNimTable(rule, maxHeap).values;
  const g = (n: number): number => values[n]!;
  const xor = (heaps: readonly number[]): number => heaps.reduce((x, h) => x ^ g(h), 0);
  const check = (s: OctalState): void => {
    for (const h of s.heaps) if (h > maxHeap) throw new TooLargeError(`Heap ${h} is beyond the solver's table (up to ${maxHeap})`);
  };
  return {
    scored: false,
    value: (s) => (check(s), xor(s.heaps) !== 0 ? 1 : -1),
    classify: (s) => (check(s), xor(s.heaps) !== 0 ? 'N' : 'P'),
    bestMove(s) {
      check(s);
      const x = xor(s.heaps);
      // A move wins when what it leaves has the value of the heap it replaces xor the whole.
      return pickMove(legalMoves(s), s.heaps, (m) => x !== 0 && m.rest.reduce((v, h) => v ^ g(h), 0) === (g(s.heaps[m.heap - 1]!) ^ x));
    },
  };
}

/** Misère play: the exact search of src/solvers/misere.ts over the positions the deal can reach. */
function misereSolver(options: (n: number) => readonly HeapOption[], legalMoves: (s: OctalState) => readonly OctalMove[]): Solver<OctalState, OctalMove> {
  const search = new MisereSearch((n) => options(n).map((o) => o.rest));
  const wins = (s: OctalState): boolean => search.wins(s.heaps);
  return {
    scored: false,
    value: (s) => (wins(s) ? 1 : -1),
    classify: (s) => (wins(s) ? 'N' : 'P'),
    bestMove: (s) => pickMove(legalMoves(s), s.heaps, (m) => !search.wins(afterMove(s.heaps, m))),
  };
}

/** Builds a variant of either family. */
/** What a move may do under a take-and-break rule, in a sentence (GAMES.md 7): each digit of the code read out. */
function ruleSentence(rule: TakeBreakRule): string {
  if (rule.kind === 'grundy') return 'A move splits one heap into two heaps of different sizes.';
  const takes = rule.digits.flatMap((d, i) => {
    const k = i + 1;
    const ways = [d & 1 ? 'a heap of exactly that many' : '', d & 2 ? 'leaving the rest as one heap' : '', d & 4 ? 'leaving the rest as two heaps' : ''].filter(Boolean);
    return ways.length > 0 ? [`${k} token${k === 1 ? '' : 's'} (${ways.join('; or ')})`] : [];
  });
  const split = rule.splitFree ? ' Or it splits a heap into two without taking any.' : '';
  return `A move takes from one heap: ${takes.join(', ')}.${split}`;
}

/** How a take-and-break game is won; Grundy's game takes no token, so its goal speaks of the last split. */
function takeBreakGoal(rule: TakeBreakRule, misere: boolean): GameGoal<OctalState> {
  const goal = lastMoveGoal<OctalState>({ misere, moves: ruleSentence(rule), stone: 'token', toMove: (s) => s.turn });
  if (rule.kind !== 'grundy') return goal;
  return {
    ...goal,
    short: misere ? 'Goal: make your opponent make the last split. Misère: who makes the last move loses.' : 'Goal: make the last split, leaving only heaps of 1 and 2. Who cannot move loses.',
    full: [goal.full[0]!, misere ? 'Misère play: the player who makes the last split loses.' : 'Normal play: the player who cannot split a heap on their turn loses.'],
  };
}

function createTakeBreak(family: 'octal' | 'grundy', rule: TakeBreakRule, params: OctalParams | GrundyParams): Game<OctalState, OctalMove> {
  const misere = params.misere === true;
  const explicit = typeof params.heaps === 'object' ? params.heaps : null;
  const count = typeof params.heaps === 'number' ? params.heaps : 1;
  const maxHeap = explicit ? Math.max(...explicit) : params.n.max;
  const tokens = explicit ? explicit.reduce((a, b) => a + b, 0) : count * params.n.max;
  const moves = ruleMoves(rule);
  const options = optionCache(moves);
  const legal = (s: OctalState): OctalMove[] => {
    const out: OctalMove[] = [];
    s.heaps.forEach((n, i) => {
      for (const o of options(n)) out.push({ heap: i + 1, take: o.take, rest: o.rest });
    });
    return out;
  };
  const name = family === 'grundy' ? "Grundy's game" : `Octal ${ruleText(rule)}${presetName(rule)}`;
  const idParams = family === 'grundy' ? {} : { code: ruleText(rule) };
  const game: Game<OctalState, OctalMove> = {
    id: variantId(family, { ...idParams, ...(explicit ? {} : { n: params.n }), heaps: params.heaps === undefined ? undefined : countOrSizesText(params.heaps), misere: params.misere }),
    family,
    title: `${name}, ${explicit ? `heaps ${explicit.join(' ')}` : count === 1 ? 'one heap' : `${count} heaps`}${misereTitle(misere)}`,
    params,
    deal: (rng) => ({ heaps: explicit ?? Array.from({ length: count }, () => rng.int(params.n.min, params.n.max)), turn: 'first' }),
    toMove: (s) => s.turn,
    moves: legal,
    play: (s, m) => ({ heaps: afterMove(s.heaps, m), turn: otherSeat(s.turn) }),
    outcome: (s) => (s.heaps.every((n) => options(n).length === 0) ? { winner: noMoveWinner(s.turn, misere) } : null),
    key: (s) => `${s.turn === 'first' ? 'f' : 's'}:${s.heaps.join(',')}`,
    formatMove: formatOctalMove,
    parseMove: (text, s) => parseOctalMove(text, legal(s)),
    describe: (s) => `heaps ${s.heaps.join(' ') || '(none)'}, ${s.turn} to move`,
    toJSON: (s) => ({ heaps: s.heaps }),
    solver() {
      if (!misere) return normalSolver(rule, maxHeap, legal);
      if (partitionCount(tokens, MAX_MISERE_POSITIONS) > MAX_MISERE_POSITIONS) {
        throw new TooLargeError(`Misère ${name} with ${tokens} tokens is beyond the exact search (at most ${MAX_MISERE_POSITIONS} positions)`);
      }
      return misereSolver(options, legal);
    },
    // Greedy's gain: the tokens taken; under misère, a move after which nobody can move loses at once: the worst.
    heuristic: (s, m) => (misere && afterMove(s.heaps, m).every((h) => options(h).length === 0) ? -1 : m.take),
    // Tokens in heaps that can still move: Grundy's game never removes a token, so all tokens would never shrink.
    size: (s) => s.heaps.reduce((a, h) => (options(h).length > 0 ? a + h : a), 0),
    goal: takeBreakGoal(rule, misere),
  };
  return game;
}

function presetName(rule: TakeBreakRule): string {
  const text = ruleText(rule);
  const names: Record<string, string> = { '0.77': 'Kayles', '0.07': "Dawson's Kayles", '0.137': "Dawson's chess", '0.6': 'Officers' };
  return names[text] ? ` (${names[text]})` : '';
}

/** Nim-values (and P-positions) of single heaps 0..upto for `arena analyze --upto`. */
function tabulation(rule: TakeBreakRule, upto: number, misere: boolean): Tabulation {
  if (!Number.isSafeInteger(upto) || upto < 0) throw new ParamError(`Expected \`upto\` to be a non-negative integer, got ${show(upto)}`);
  if (upto > MAX_TABULATE) throw new TooLargeError(`Expected \`upto\` to be at most ${MAX_TABULATE}, got ${upto}`);
  if (misere) {
    if (partitionCount(upto, MAX_MISERE_POSITIONS) > MAX_MISERE_POSITIONS) {
      throw new TooLargeError(`Misère tables are searched position by position: expected \`upto\` to be at most ${maxMisereTokens()}, got ${upto}`);
    }
    const options = optionCache(ruleMoves(rule));
    const search = new MisereSearch((n) => options(n).map((o) => o.rest));
    const pPositions: number[] = [];
    for (let n = 0; n <= upto; n++) if (!search.wins([n])) pPositions.push(n);
    return { pPositions };
  }
  const g = octalNimTable(rule, upto).values;
  const pPositions: number[] = [];
  for (let n = 0; n <= upto; n++) if (g[n] === 0) pPositions.push(n);
  return { nimValues: Array.from(g.subarray(0, upto + 1)), pPositions };
}

/** The most tokens whose positions the misère search may have to visit all of. */
function maxMisereTokens(): number {
  let t = 0;
  while (partitionCount(t + 1, MAX_MISERE_POSITIONS) <= MAX_MISERE_POSITIONS) t++;
  return t;
}

/** The proven period of an octal code's nim-values (normal play), searched in tables up to MAX_PERIOD_SEARCH heaps. */
function provenPeriod(rule: TakeBreakRule): { preperiod: number; period: number } | null {
  const found = findOctalPeriod(rule, MAX_PERIOD_SEARCH).proven;
  return found && { preperiod: found.preperiod, period: found.period };
}

const presets = Object.keys(OCTAL_PRESETS).join(', ');

/** GAMES.md 7: take-and-break games given by an octal code. */
export const octal = defineFamily<OctalParams, OctalState, OctalMove>({
  id: 'octal',
  title: 'Octal games (take-and-break: Kayles, Dawson’s Kayles, Officers, …)',
  summary:
    'Heaps of tokens; the code says how many tokens a move may take from one heap and whether it leaves nothing, one heap or two. Who cannot move loses (misère: who moves last loses).',
  notation: 'heap:take (`2:1`), heap:take:a+b to leave two heaps (`2:1:3+4`), heap:a+b to split without taking',
  params: {
    code: {
      schema: codeSchema,
      description: `the octal code d0.d1d2… (GAMES.md 7) or a preset: ${presets}`,
      expected: `an octal code such as 0.77 (digits 0–7 after the point, before it 0 or 4) or one of ${presets}`,
      default: '0.77',
    },
    n: nParam,
    heaps: heapsParam,
    misere: misereParam,
  },
  analysis: {
    tabulate: ({ code, misere }, upto) => tabulation(ruleOf(code), upto, misere === true),
    // Misère outcomes are searched position by position: no nim-sequence, so no period to prove.
    period: ({ code, misere }) => (misere ? undefined : provenPeriod(ruleOf(code))),
  },
  create: (params) => createTakeBreak('octal', ruleOf(params.code), params),
});

/** GAMES.md 7: Grundy's game — split one heap into two unequal heaps. */
export const grundy = defineFamily<GrundyParams, OctalState, OctalMove>({
  id: 'grundy',
  title: "Grundy's game",
  summary: 'Heaps of tokens; a move splits one heap into two unequal non-empty heaps. Who cannot move loses (misère: who moves last loses).',
  notation: 'heap:a+b, the heap split into a and b, e.g. `1:3+5`',
  params: { n: nParam, heaps: heapsParam, misere: misereParam },
  analysis: {
    tabulate: ({ misere }, upto) => tabulation({ kind: 'grundy' }, upto, misere === true),
    // No periodicity theorem covers Grundy's game (its splits must be unequal): no period to prove.
    period: () => undefined,
  },
  create: (params) => createTakeBreak('grundy', { kind: 'grundy' }, params),
});
