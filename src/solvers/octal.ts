/**
 * Exact analysis of take-and-break games (GAMES.md 7): octal codes d0.d1d2… and Grundy's game.
 *
 * The nim-value of a heap is the mex over its options, and an option that splits the rest of a heap
 * into a and b is worth G(a) ⊕ G(b). Computed by definition that is Θ(n) work per heap, Θ(n²) for
 * a table. Record computations use the sparse space phenomenon instead (Winning Ways ch. 4, "Sparse
 * space spells speed"; Flammenkamp's tables): for a game-specific mask m, call a heap n *rare* when
 * parity(G(n) & m) = 0 (the "range" kind) or parity(G(n) & m) = (n − t) & 1 (the "domain" kind, t
 * the take of the split), and *common* otherwise. By parity alone, G(a) ⊕ G(b) for two common
 * parts is never a value of the common class of n, so:
 *
 * 1. the common-class values hit by the options of n come only from options with a rare part (or
 *    none split): marked from the list of rare heaps, |rare| work per split digit;
 * 2. the smallest unmarked common-class value c bounds G(n) from above;
 * 3. each smaller rare-class value is hit, or not, by some pair of common parts: the pairs are
 *    scanned until every such value is found (a few dozen pairs where rare heaps die out, about
 *    three thousand in Grundy's game and Officers); a value left over is G(n), and n is a new rare
 *    heap (its scan was the one full scan).
 *
 * This is exact for any mask (the parity argument holds for every m); the mask only decides the
 * speed. It is chosen from a short table computed by definition: the mask (and kind) under which the
 * fewest heaps of that table's last three quarters are rare. Rare heaps die out in the games that
 * become periodic, and stay about 1,300 in Grundy's game (Flammenkamp lists 1,287 to far beyond
 * 2^30), so a heap costs O(|rare| + the scan) instead of O(n).
 *
 * Periods are proven by the Guy–Smith theorem: if G(n + p) = G(n) for n0 ≤ n < 2·n0 + p + t (t the
 * largest take), then G has period p from n0 on, for ever (`certifyPeriod`).
 */

/**
 * A take-and-break rule. `octal`: `digits[k − 1]` is the octal digit d_k (bit 1: a heap of exactly
 * k may be taken whole; bit 2: k may be taken leaving one non-empty heap; bit 4: k may be taken
 * leaving two non-empty heaps), and `splitFree` (a leading `4.`) lets a heap be split in two
 * without taking. `grundy`: Grundy's game, a heap is split into two unequal non-empty heaps.
 */
export type TakeBreakRule =
  | { readonly kind: 'octal'; readonly splitFree: boolean; readonly digits: readonly number[] }
  | { readonly kind: 'grundy' };

/** The moves of a rule as lists of takes, ascending, for the kernels. */
export interface RuleMoves {
  /** k: a heap of exactly k tokens may be taken whole. */
  readonly takeAll: Int32Array;
  /** k: k tokens may be taken from a larger heap, leaving one heap. */
  readonly leaveOne: Int32Array;
  /** k: k tokens (0 for a split without taking) may be taken, the rest split into two non-empty heaps. */
  readonly split: Int32Array;
  /** The two heaps of a split must differ (Grundy's game). */
  readonly unequal: boolean;
  /** The largest take (t of the Guy–Smith theorem; 0 for Grundy's game). */
  readonly maxTake: number;
}

/** Most digits after the point in an octal code. */
export const MAX_CODE_DIGITS = 32;

/** Largest nim-value the tables hold (values are stored in 16 bits). */
export const MAX_NIM_VALUE = 0xffff;

/** Named codes: Kayles, Dawson's Kayles, Dawson's chess, Officers. */
export const OCTAL_PRESETS: Readonly<Record<string, string>> = {
  kayles: '0.77',
  dawson: '0.07',
  'dawsons-kayles': '0.07',
  'dawsons-chess': '0.137',
  officers: '0.6',
};

/**
 * Parses an octal code (`0.77`, `.07`, `4.07`, or a preset name) into its rule, or returns a
 * sentence saying what is wrong. Trailing zero digits are dropped (0.70 is 0.7); a code must allow
 * some move.
 */
export function parseOctalCode(text: string): TakeBreakRule | string {
  const t = text.trim().toLowerCase();
  const named = OCTAL_PRESETS[t];
  const m = /^([04]?)\.([0-7]*)$/.exec(named ?? t);
  if (!m) return 'an octal code such as 0.77 (digits 0–7 after the point, before it 0 or 4) or a preset name';
  const digits = [...m[2]!].map(Number);
  while (digits.length > 0 && digits[digits.length - 1] === 0) digits.pop();
  if (digits.length > MAX_CODE_DIGITS) return `an octal code with at most ${MAX_CODE_DIGITS} digits after the point`;
  const splitFree = m[1] === '4';
  if (!splitFree && digits.length === 0) return 'an octal code that allows some move (a non-zero digit)';
  return { kind: 'octal', splitFree, digits };
}

/** The canonical text of a rule: `0.77`, `4.07`, or `grundy`. */
export function ruleText(rule: TakeBreakRule): string {
  return rule.kind === 'grundy' ? 'grundy' : `${rule.splitFree ? '4' : '0'}.${rule.digits.join('')}`;
}

/** The moves of a rule as take lists (see `RuleMoves`). */
export function ruleMoves(rule: TakeBreakRule): RuleMoves {
  if (rule.kind === 'grundy') {
    return { takeAll: new Int32Array(0), leaveOne: new Int32Array(0), split: Int32Array.of(0), unequal: true, maxTake: 0 };
  }
  const takeAll: number[] = [];
  const leaveOne: number[] = [];
  const split: number[] = rule.splitFree ? [0] : [];
  rule.digits.forEach((d, i) => {
    const k = i + 1;
    if (d & 1) takeAll.push(k);
    if (d & 2) leaveOne.push(k);
    if (d & 4) split.push(k);
  });
  return {
    takeAll: Int32Array.from(takeAll),
    leaveOne: Int32Array.from(leaveOne),
    split: Int32Array.from(split),
    unequal: false,
    maxTake: rule.digits.length,
  };
}

/** What remains after one move on one heap: no heap, one heap, or two (a ≤ b). */
export interface HeapOption {
  readonly take: number;
  readonly rest: readonly number[];
}

/**
 * Every move on one heap of `n`, by increasing take; for one take, taking it whole or leaving one
 * heap first, then the splits by increasing smaller part. The order of the game's move list.
 */
export function heapOptions(moves: RuleMoves, n: number): HeapOption[] {
  const out: HeapOption[] = [];
  const takes = new Set<number>([...moves.takeAll, ...moves.leaveOne, ...moves.split]);
  for (const k of [...takes].sort((a, b) => a - b)) {
    if (k > n) break;
    if (k === n && moves.takeAll.includes(k)) out.push({ take: k, rest: [] });
    if (k < n && moves.leaveOne.includes(k)) out.push({ take: k, rest: [n - k] });
    if (moves.split.includes(k)) {
      const m = n - k;
      for (let a = 1; 2 * a <= m; a++) if (!(moves.unequal && 2 * a === m)) out.push({ take: k, rest: [a, m - a] });
    }
  }
  return out;
}

/** Marks of the kernels: marks[v] === stamp when value v is an option of the heap being decided. */
const marks = new Int32Array(MAX_NIM_VALUE + 2);

/**
 * The sparse kernel's pending values: pendingAt[v] is 1 while v is a rare-class value below c that
 * no option has hit yet, else 0 (the kernel clears each value as it is hit, and the rest after a
 * scan that runs out). Bytes, so that the pair scan tests a word's two values with one branch.
 */
const pendingAt = new Uint8Array(MAX_NIM_VALUE + 2);

/**
 * Clears `marks` for a new table: stamps are heap numbers, unique within one call but not across
 * calls (a stale stamp n of an earlier table would read as an option of this table's heap n).
 */
function clearMarks(): void {
  marks.fill(0);
  pendingAt.fill(0);
}

/** Throws when a mex passes the 16-bit tables. */
function tooLarge(n: number): never {
  throw new RangeError(`Nim-value of heap ${n} exceeds ${MAX_NIM_VALUE}, the largest the tables hold`);
}

/**
 * Nim-values of heaps from..upto by definition (every option, Θ(n) per heap), into `g` whose
 * entries below `from` are filled. Stamps are −n, apart from the sparse kernel's +n.
 */
function fillByDefinition(g: Uint16Array, moves: RuleMoves, from: number, upto: number): void {
  const { takeAll, leaveOne, split, unequal } = moves;
  for (let n = from; n <= upto; n++) {
    const stamp = -n;
    for (let i = 0; i < takeAll.length; i++) if (takeAll[i] === n) marks[0] = stamp;
    for (let i = 0; i < leaveOne.length; i++) {
      const k = leaveOne[i]!;
      if (k >= n) break;
      marks[g[n - k]!] = stamp;
    }
    for (let s = 0; s < split.length; s++) {
      const m = n - split[s]!;
      const half = unequal ? (m - 1) >> 1 : m >> 1;
      for (let a = 1; a <= half; a++) marks[g[a]! ^ g[m - a]!] = stamp;
    }
    let v = 0;
    while (marks[v] === stamp) v++;
    if (v > MAX_NIM_VALUE) tooLarge(n);
    g[n] = v;
  }
}

/** Nim-values of heaps 0..upto by definition: Θ(upto²) for games that split (the reference for tests and small tables). */
export function nimValuesByDefinition(rule: TakeBreakRule, upto: number): Uint16Array {
  checkUpto(upto);
  const g = new Uint16Array(upto + 1);
  clearMarks();
  fillByDefinition(g, ruleMoves(rule), 1, upto);
  return g;
}

/** The sparse space a table was computed with. */
export interface SparseSpace {
  /** The mask m (16 bits: the values' width). */
  readonly mask: number;
  /** `range`: rare when parity(G(n) & m) = 0; `domain`: rare when it equals (n − t) & 1. */
  readonly kind: 'range' | 'domain';
}

/** A nim-value table with how the sparse space computed it. */
export interface NimTable {
  /** G(0..upto). */
  readonly values: Uint16Array;
  readonly upto: number;
  /** Null when the table was computed by definition (short tables, games that never split). */
  readonly space: SparseSpace | null;
  /** The rare heaps (1..upto) under that space, ascending. */
  readonly rare: Int32Array;
  /** Heaps whose pair scan ran to the end (they are rare: their value was not hit by two common parts). */
  readonly fullScans: number;
  /** Pairs of common parts read by the scans in all. */
  readonly scanPairs: number;
}

/** Heaps computed by definition before the sparse space is chosen from them. */
export const PROBE_HEAPS = 2048;

/** Largest table a call computes (values are 2 bytes each: 4 GB at this size). */
export const MAX_TABLE_HEAPS = 2 ** 31 - 2;

function checkUpto(upto: number): void {
  if (!Number.isInteger(upto) || upto < 0 || upto > MAX_TABLE_HEAPS) {
    throw new RangeError(`Expected upto to be an integer in 0..${MAX_TABLE_HEAPS}, got ${upto}`);
  }
}

/** parity(x) for a 16-bit x. */
function parity16(x: number): number {
  x ^= x >>> 8;
  x ^= x >>> 4;
  x ^= x >>> 2;
  x ^= x >>> 1;
  return x & 1;
}

/** True when a domain-kind space applies: every split take has the same parity (the parity argument needs one n − t class). */
function domainApplies(moves: RuleMoves): boolean {
  const s = moves.split;
  for (let i = 1; i < s.length; i++) if (((s[i]! ^ s[0]!) & 1) !== 0) return false;
  return s.length > 0;
}

/**
 * The sparse space under which the fewest heaps in (probe/4, probe] of a table are rare: every mask
 * over the probe's value bits (the bits above set, as Flammenkamp's bitstrings are), both kinds
 * where the domain kind applies. Ties go to the smaller mask, range before domain.
 *
 * Counted for all masks at once: a heap is rare under mask = low | high when parity(u & low) = p,
 * u its value's low bits and p the parity of the rest (its value's high bits, and for the domain
 * kind n − t0); so with c_p[u] heaps of each (u, p), the count is (N + Σ_u (c_0[u] − c_1[u]) ·
 * (−1)^parity(u & low)) / 2 over the N heaps, a Walsh–Hadamard transform of c_0 − c_1.
 */
export function chooseSparseSpace(g: Uint16Array, probe: number, moves: RuleMoves): SparseSpace {
  let max = 1;
  for (let n = 0; n <= probe; n++) if (g[n]! > max) max = g[n]!;
  const bits = Math.min(12, 32 - Math.clz32(max));
  const size = 1 << bits;
  const high = (0xffff << bits) & 0xffff;
  const t0 = moves.split[0] ?? 0;
  const kinds: ('range' | 'domain')[] = domainApplies(moves) ? ['range', 'domain'] : ['range'];
  const from = (probe >> 2) + 1;
  const heaps = probe - from + 1;
  const rareCounts = kinds.map((kind) => {
    const x = new Float64Array(size);
    for (let n = from; n <= probe; n++) {
      const p = parity16(g[n]! & high) ^ (kind === 'domain' ? (n - t0) & 1 : 0);
      x[g[n]! & (size - 1)]! += p === 0 ? 1 : -1;
    }
    for (let len = 1; len < size; len <<= 1) {
      for (let i = 0; i < size; i += 2 * len) {
        for (let j = i; j < i + len; j++) {
          const a = x[j]!;
          const b = x[j + len]!;
          x[j] = a + b;
          x[j + len] = a - b;
        }
      }
    }
    return x.map((sum) => (heaps + sum) / 2);
  });
  let best: SparseSpace = { mask: 0xffff, kind: 'range' };
  let bestCount = Infinity;
  for (let low = 1; low < size; low++) {
    for (let k = 0; k < kinds.length; k++) {
      const count = rareCounts[k]![low]!;
      if (count < bestCount) [best, bestCount] = [{ mask: low | high, kind: kinds[k]! }, count];
    }
  }
  return best;
}

/**
 * Most rare heaps the sparse kernel keeps. Past this many, marking from the rare list costs as much
 * as reading every option, so the rest of the table is filled by definition instead.
 */
export const MAX_RARE_HEAPS = 1 << 20;

/**
 * The rare heaps of the table being filled and their values, and the parity of each value under
 * its mask: shared by every call (the kernel is synchronous, so calls never overlap). Module-level
 * constants on purpose, as the sieves of grundy.ts: TurboFan folds a constant typed array's
 * address and length into the loops, where a parameter array costs a map check and field loads
 * per access. Allocated zeroed: only the pages a table's rare heaps reach are ever committed.
 */
const RARE_HEAPS = new Int32Array(MAX_RARE_HEAPS);
const RARE_VALUES = new Int32Array(MAX_RARE_HEAPS);
const PARITY = new Uint8Array(MAX_NIM_VALUE + 1);

/** Largest (and default) working window of the sparse kernel, in heaps (see `WINDOW`). */
export const MAX_WINDOW_HEAPS = 1 << 18;

/**
 * The sparse kernel's working window: copies of the table's values where its hot loops read them,
 * in a module-level constant for the same reason as RARE_HEAPS (the table itself is a parameter).
 * WINDOW[0, w/4) holds G(0..w/4 − 1), the small parts of the pair scan; WINDOW[LOW_PART, LOW_PART
 * + w) holds G(base..), the heaps just below the one being decided, read by the marks (m − r for
 * small rare r) and the scan (m − a), and WINDOW[ODD_PART, ODD_PART + w) the same one position off
 * in word alignment, so that the scan finds b − 1 and b in one word for either parity of m. w is
 * the window's size in heaps (`MAX_WINDOW_HEAPS` but in tests); before the top part would
 * overflow, its newer half moves down and base moves up (`moveWindow`, between calls of the
 * kernel), so at least w/2 heaps below n are always there. Reads
 * outside the window (a part past w/4 in a long scan, a rare heap past m − base) go to the table.
 * Pages are committed as the window reaches them.
 */
const LOW_PART = MAX_WINDOW_HEAPS >> 2;
/** Where the top part's second copy starts: one position off the first's word alignment (see scanPairsFor). */
const ODD_PART = LOW_PART + MAX_WINDOW_HEAPS + 1;
const WINDOW = new Uint16Array(ODD_PART + MAX_WINDOW_HEAPS + 1);
/** WINDOW as 32-bit words, for the pair scan. */
const WINDOW_WORDS = new Uint32Array(WINDOW.buffer);

/** The sparse kernel's state between its calls: rare count, counters, and the window (see WINDOW). */
interface KernelState {
  rareCount: number;
  fullScans: number;
  scanPairs: number;
  readonly progress: ((heap: number, rare: number) => void) | undefined;
  /** The working window's size in heaps. */
  readonly window: number;
  /** The first heap of the window's top part (even). */
  base: number;
}

/**
 * Heaps per call of `sparseFill`. Its loop is entered afresh every so many heaps, so that after
 * the first calls TurboFan compiles the function itself, not only on-stack replacement code for a
 * loop already running: only the former is specialized to the module's constants (a loop's OSR
 * code loads every module-level array from its context, with a hole check and a map check per use).
 */
const SPARSE_CHUNK = 1 << 8;

/** Heaps between two `progress` calls of `octalNimTable` (a power of two). */
const PROGRESS_HEAPS = 1 << 24;

/**
 * Nim-values of heaps 0..upto (GAMES.md 7), by the sparse space method past the first
 * `PROBE_HEAPS` heaps (see the module comment); exact for every rule. `space` forces a sparse space
 * instead of choosing one (benches and tests; a domain space only where every split take has the
 * same parity, else RangeError); `into` is a table of at least upto + 1 entries to
 * fill instead of a new one; `progress` is called with the heap reached and the rare heaps so far
 * every 2^24 heaps of the sparse kernel (the record-scale runs of the benches). `window` sets the
 * kernel's working window (a power of two from 16 to `MAX_WINDOW_HEAPS`, the default): only the
 * speed depends on it; tests shrink it so that the reads past it run.
 */
export function octalNimTable(
  rule: TakeBreakRule,
  upto: number,
  options: { space?: SparseSpace; into?: Uint16Array; progress?: (heap: number, rare: number) => void; window?: number } = {},
): NimTable {
  checkUpto(upto);
  const window = options.window ?? MAX_WINDOW_HEAPS;
  if (!Number.isInteger(window) || window < 16 || window > MAX_WINDOW_HEAPS || (window & (window - 1)) !== 0) {
    throw new RangeError(`Expected window to be a power of two from 16 to ${MAX_WINDOW_HEAPS}, got ${window}`);
  }
  const moves = ruleMoves(rule);
  const g = options.into ?? new Uint16Array(upto + 1);
  if (g.length < upto + 1) throw new RangeError(`Expected a table of at least ${upto + 1} entries, got ${g.length}`);
  g[0] = 0;
  clearMarks();
  const probe = Math.min(upto, PROBE_HEAPS);
  // Without splits every option is one table read: the definition is already O(takes) per heap.
  fillByDefinition(g, moves, 1, moves.split.length === 0 ? upto : probe);
  if (moves.split.length === 0 || upto === probe) {
    return { values: g, upto, space: null, rare: new Int32Array(0), fullScans: 0, scanPairs: 0 };
  }
  const space = options.space ?? chooseSparseSpace(g, probe, moves);
  if (space.kind === 'domain' && !domainApplies(moves)) {
    throw new RangeError(`A domain sparse space needs every split take of the same parity; ${ruleText(rule)} has splits after taking ${moves.split.join(', ')}`);
  }
  const domain = space.kind === 'domain' ? 1 : 0;
  const mask = space.mask;
  for (let v = 0; v <= MAX_NIM_VALUE; v++) PARITY[v] = parity16(v & mask);
  const t0 = moves.split[0]!;
  let count = 0;
  for (let n = 1; n <= probe; n++) {
    if ((PARITY[g[n]!]! ^ (domain & (n - t0))) === 0) {
      RARE_HEAPS[count] = n;
      RARE_VALUES[count] = g[n]!;
      count++;
    }
  }
  const from = probe + 1;
  // The window's top part starts at least window/2 heaps below `from`, as it will after every move.
  const base = Math.max(0, from - (window >> 1)) & ~1;
  const stats: KernelState = { rareCount: count, fullScans: 0, scanPairs: 0, progress: options.progress, window, base };
  WINDOW.set(g.subarray(0, Math.min(from, window >> 2)), 0);
  WINDOW.set(g.subarray(base, from), LOW_PART);
  WINDOW.set(g.subarray(base, from), ODD_PART);
  const chunk = Math.min(SPARSE_CHUNK, window >> 2);
  let next = from;
  while (next <= upto) {
    const to = Math.min(upto, next + chunk - 1);
    if (to - stats.base >= window) moveWindow(stats, next);
    next = sparseFill(g, moves, domain, t0, stats, next, to);
    if (next <= to) break;
  }
  // Too many rare heaps for the space to help: the rest by definition.
  if (next <= upto) fillByDefinition(g, moves, next, upto);
  return { values: g, upto, space, rare: RARE_HEAPS.slice(0, stats.rareCount), fullScans: stats.fullScans, scanPairs: stats.scanPairs };
}

/**
 * Moves the newer half of the window's top part down, before the kernel decides heap n: it then
 * holds G(base..n − 1) from a new base about window/2 below n, room for window/4 heaps more.
 */
function moveWindow(state: KernelState, n: number): void {
  const base = (n - (state.window >> 1)) & ~1;
  WINDOW.copyWithin(LOW_PART, LOW_PART + base - state.base, LOW_PART + n - state.base);
  WINDOW.copyWithin(ODD_PART, ODD_PART + base - state.base, ODD_PART + n - state.base);
  state.base = base;
}

/**
 * The sparse kernel over heaps from..upto: marks the options with a rare part, finds the smallest
 * unmarked common-class value c, then scans pairs of parts until every unmarked value below c is
 * hit (or the pairs run out: the least one left is G(n), and n is rare). Returns the heap after
 * the last one filled: upto + 1, or earlier once MAX_RARE_HEAPS rare heaps are listed. Called
 * for SPARSE_CHUNK heaps at a time (fewer with a small window), carrying its state in `state`.
 */
function sparseFill(g: Uint16Array, moves: RuleMoves, domain: number, t0: number, state: KernelState, from: number, upto: number): number {
  const { takeAll, leaveOne, split, unequal } = moves;
  const nAll = takeAll.length;
  const nOne = leaveOne.length;
  const nSplit = split.length;
  const same = unequal ? 1 : 0;
  const rareHeaps = RARE_HEAPS;
  const rareValues = RARE_VALUES;
  const par = PARITY;
  const progress = state.progress;
  const low = state.window >> 2;
  // The top part holds G(base..n − 1) at WINDOW[p − shift] and, its copy, at WINDOW[p − oddShift]
  // (the caller has made room for heaps to upto).
  const base = state.base;
  const shift = base - LOW_PART;
  const oddShift = base - ODD_PART;
  let count = state.rareCount;
  let fullScans = 0;
  let scanPairs = 0;
  for (let n = from; n <= upto; n = (n + 1) | 0) {
    const stamp = n;
    for (let i = 0; i < nAll; i++) if (takeAll[i] === n) marks[0] = stamp;
    for (let i = 0; i < nOne; i++) {
      const k = leaveOne[i]!;
      if (k >= n) break;
      marks[g[n - k]!] = stamp;
    }
    for (let s = 0; s < nSplit; s++) {
      const m = (n - split[s]!) | 0;
      // The rare heaps below m: all of them once m passes the last (the usual case, no test per heap).
      let end = count;
      if (count > 0 && rareHeaps[count - 1]! >= m) end = rareCountUpTo(m - 1, count);
      // Those whose other part m − r is in the window's top part: r ≤ m − base.
      const inWindow = end > 0 && rareHeaps[end - 1]! > m - base ? rareCountUpTo(m - base, end) : end;
      // Grundy's game: not the rare heap m / 2 with itself (two equal heaps).
      const self = same === 1 && (m & 1) === 0 ? rareIndex(m >> 1, end) : -1;
      if (self < 0) markRare(g, m, shift, inWindow, 0, end, stamp);
      else {
        markRare(g, m, shift, inWindow, 0, self, stamp);
        markRare(g, m, shift, inWindow, (self + 1) | 0, end, stamp);
      }
    }
    // Common class of n: parity(v & mask) = cp. Values below c of the other class are pending.
    const cp = 1 ^ (domain & (n - t0));
    let v = 0;
    let pending = 0;
    let first = -1;
    for (;;) {
      if (marks[v] !== stamp) {
        if (par[v] === cp) break;
        if (pending === 0) first = v;
        pendingAt[v] = 1;
        pending++;
      }
      v++;
      if (v > MAX_NIM_VALUE) tooLarge(n);
    }
    const c = v;
    let value = c;
    if (pending > 0) {
      for (let s = 0; s < nSplit && pending > 0; s++) {
        const m = (n - split[s]!) | 0;
        const half = (m - same) >> 1;
        // Pairs whose both parts are in the window: a < low and m − a ≥ base.
        const inWindow = Math.min(half, low - 1, m - base);
        const a = scanPairsFor(g, m, ((m - shift) & 1) === 1 ? shift : oddShift, half, inWindow, pending);
        if (a > 0) {
          scanPairs += a;
          pending = 0;
        } else {
          scanPairs += half;
          pending = -a;
        }
      }
      if (pending > 0) {
        fullScans++;
        for (let u = first; u < c; u++) {
          if (pendingAt[u] !== 0) {
            if (value === c) value = u;
            pendingAt[u] = 0;
          }
        }
      }
    }
    g[n] = value;
    WINDOW[n - shift] = value;
    WINDOW[n - oddShift] = value;
    if (n < low) WINDOW[n] = value;
    if (par[value] !== cp) {
      if (count === MAX_RARE_HEAPS) {
        state.rareCount = count;
        state.fullScans += fullScans;
        state.scanPairs += scanPairs;
        return n + 1;
      }
      rareHeaps[count] = n;
      rareValues[count] = value;
      count++;
    }
    if ((n & (PROGRESS_HEAPS - 1)) === 0 && progress !== undefined) progress(n, count);
  }
  state.rareCount = count;
  state.fullScans += fullScans;
  state.scanPairs += scanPairs;
  return upto + 1;
}

/** The number of the first `end` rare heaps (ascending) that are at most `r`. */
function rareCountUpTo(r: number, end: number): number {
  const heaps = RARE_HEAPS;
  let lo = 0;
  let hi = end;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (heaps[mid]! <= r) lo = (mid + 1) | 0;
    else hi = mid;
  }
  return lo;
}

/** The index of heap `r` in the first `end` rare heaps (ascending), or −1 when it is not among them. */
function rareIndex(r: number, end: number): number {
  const i = rareCountUpTo(r - 1, end);
  return i < end && RARE_HEAPS[i] === r ? i : -1;
}

/**
 * Marks G(r) ⊕ G(m − r) for the rare heaps r of indices from..to − 1 (stamp `stamp`): from the
 * window's top part (WINDOW[m − r − shift]) below index `inWindow`, from the table past it.
 */
function markRare(g: Uint16Array, m: number, shift: number, inWindow: number, from: number, to: number, stamp: number): void {
  if (from < inWindow) markWindow((m - shift) | 0, from, Math.min(to, inWindow), stamp);
  for (let i = Math.max(from, inWindow); i < to; i++) marks[RARE_VALUES[i]! ^ g[m - RARE_HEAPS[i]!]!] = stamp;
}

/**
 * Marks G(r) ⊕ WINDOW[mw − r] for the rare heaps r of indices from..to − 1: four a trip, so that
 * the loop's own checks (interrupts) run once per four marks. Every array here is a module-level
 * constant, so TurboFan folds their addresses and lengths into the loop.
 */
function markWindow(mw: number, from: number, to: number, stamp: number): void {
  const heaps = RARE_HEAPS;
  const values = RARE_VALUES;
  const win = WINDOW;
  const mk = marks;
  // Int32 from here on: a parameter is a tagged number, converted again at every use in the loop.
  mw |= 0;
  stamp |= 0;
  let i = from | 0;
  for (; i + 4 <= to; i = (i + 4) | 0) {
    const x0 = values[i]! ^ win[(mw - heaps[i]!) | 0]!;
    const x1 = values[(i + 1) | 0]! ^ win[(mw - heaps[(i + 1) | 0]!) | 0]!;
    const x2 = values[(i + 2) | 0]! ^ win[(mw - heaps[(i + 2) | 0]!) | 0]!;
    const x3 = values[(i + 3) | 0]! ^ win[(mw - heaps[(i + 3) | 0]!) | 0]!;
    mk[x0] = stamp;
    mk[x1] = stamp;
    mk[x2] = stamp;
    mk[x3] = stamp;
  }
  for (; i < to; i = (i + 1) | 0) mk[values[i]! ^ win[(mw - heaps[i]!) | 0]!] = stamp;
}

/**
 * True where a 32-bit word holds its even-position 16-bit half low (every platform Node runs on
 * but big-endian s390x): decides which half of a pair word is which pair.
 */
const LOW_HALF_FIRST = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;

/**
 * Reads the pairs (a, m − a) for a = from..to − 1 of the table one by one, clearing each pending
 * value it meets: the values still pending after them (`left` at the start), or −a for the pair a
 * that cleared the last one.
 */
function clearPairs(g: Uint16Array, m: number, from: number, to: number, left: number): number {
  const pend = pendingAt;
  for (let a = from; a < to; a = (a + 1) | 0) {
    const x = g[a]! ^ g[(m - a) | 0]!;
    if (pend[x] !== 0) {
      pend[x] = 0;
      left = (left - 1) | 0;
      if (left === 0) return -a;
    }
  }
  return left;
}

/** Where an XOR word's first pair (its even position's) comes out: the low half where LOW_HALF_FIRST. */
const FIRST_SHIFT = LOW_HALF_FIRST ? 0 : 16;

/**
 * Clears the pending values among an XOR word's two pairs, a then a + 1: the values still pending
 * after them (`left` at the start), or −a for the pair a that cleared the last one.
 */
function clearWord(x: number, a: number, left: number): number {
  const pend = pendingAt;
  const first = (x >>> FIRST_SHIFT) & 0xffff;
  if (pend[first] !== 0) {
    pend[first] = 0;
    left = (left - 1) | 0;
    if (left === 0) return -a;
  }
  const second = (x >>> (16 - FIRST_SHIFT)) & 0xffff;
  if (pend[second] !== 0) {
    pend[second] = 0;
    left = (left - 1) | 0;
    if (left === 0) return -((a + 1) | 0);
  }
  return left;
}

/**
 * Reads the pairs (a, m − a), a = 1..half, clearing each pending value it meets: the a at which the
 * last of `pending` values was cleared, or −(values still pending) when the pairs ran out.
 *
 * The pairs a ≤ `inWindow` (both parts in the window) eight a trip from four 32-bit words at each
 * end of WINDOW_WORDS: two pairs (a, b), (a + 1, b − 1), a even, are the word of a and a + 1 and
 * the word of b − 1 and b with its halves swapped, one XOR, where 16-bit reads take four loads and
 * four bounds checks. `shift` is that of the top copy in which b − 1 starts a word (m − a − shift
 * odd), so one loop does for every m. Each XOR word is tested as it is read, its two values with
 * one branch (most words meet no pending value), one word live at a time so that TurboFan keeps
 * the loop in registers; a word that meets one clears its values in the order of a (`clearWord`),
 * so the last one is found where the plain scan finds it. The first pair (a = 1, so that a starts
 * a word) and the pairs after the last trip are read one by one from the table. Its own function,
 * so that TurboFan gives the hottest loop of the kernel registers of its own.
 */
function scanPairsFor(g: Uint16Array, m: number, shift: number, half: number, inWindow: number, pending: number): number {
  const w = WINDOW_WORDS;
  const pend = pendingAt;
  m |= 0;
  let left = clearPairs(g, m, 1, Math.min(2, half + 1), pending | 0);
  if (left < 0) return -left;
  // Word ka holds a = 2·ka and a + 1; word k − ka holds b − 1 and b = m − a.
  const k = (m - shift - 1) >> 1;
  // Trips while a + 7 ≤ inWindow.
  const lastKa = (inWindow - 7) >> 1;
  let ka = 1;
  for (; ka <= lastKa; ka = (ka + 4) | 0) {
    const kb = (k - ka) | 0;
    let b = w[kb]!;
    let x = w[ka]! ^ ((b >>> 16) | (b << 16));
    if ((pend[x & 0xffff]! | pend[x >>> 16]!) !== 0) {
      left = clearWord(x, 2 * ka, left);
      if (left < 0) return -left;
    }
    b = w[(kb - 1) | 0]!;
    x = w[(ka + 1) | 0]! ^ ((b >>> 16) | (b << 16));
    if ((pend[x & 0xffff]! | pend[x >>> 16]!) !== 0) {
      left = clearWord(x, 2 * ka + 2, left);
      if (left < 0) return -left;
    }
    b = w[(kb - 2) | 0]!;
    x = w[(ka + 2) | 0]! ^ ((b >>> 16) | (b << 16));
    if ((pend[x & 0xffff]! | pend[x >>> 16]!) !== 0) {
      left = clearWord(x, 2 * ka + 4, left);
      if (left < 0) return -left;
    }
    b = w[(kb - 3) | 0]!;
    x = w[(ka + 3) | 0]! ^ ((b >>> 16) | (b << 16));
    if ((pend[x & 0xffff]! | pend[x >>> 16]!) !== 0) {
      left = clearWord(x, 2 * ka + 6, left);
      if (left < 0) return -left;
    }
  }
  // The rest one by one: −(values still pending), or (cleared) the a that cleared the last.
  return -clearPairs(g, m, 2 * ka, (half + 1) | 0, left);
}

/** A period proven by the Guy–Smith theorem. */
export interface ProvenPeriod {
  /** The least p with G(n + p) = G(n) for every n ≥ preperiod. */
  readonly period: number;
  /** The first heap of the periodic part: the last exception + 1 (0 when there is none). */
  readonly preperiod: number;
  /** The largest n with G(n) ≠ G(n + period), or −1 when there is none. */
  readonly lastException: number;
  /** The table's last heap: the theorem needed 2·preperiod + 2·period + t − 1 ≤ checkedTo. */
  readonly checkedTo: number;
}

/** The smallest period of g[from..to] (prefix function of the reversed window), or 0 for an empty window. */
function windowPeriod(g: Uint16Array, from: number, to: number): number {
  const len = to - from + 1;
  if (len <= 0) return 0;
  // Reversed, so the window's end (the part surely periodic) anchors the comparison.
  const at = (i: number): number => g[to - i]!;
  const pi = new Int32Array(len);
  for (let i = 1; i < len; i++) {
    let k = pi[i - 1]!;
    const x = at(i);
    while (k > 0 && at(k) !== x) k = pi[k - 1]!;
    if (at(k) === x) k++;
    pi[i] = k;
  }
  return len - pi[len - 1]!;
}

/** The last n ≤ upto − p with g[n] ≠ g[n + p], or −1 when there is none. */
function lastException(g: Uint16Array, upto: number, p: number): number {
  let e = upto - p;
  while (e >= 0 && g[e] === g[e + p]) e--;
  return e;
}

/** Whether the Guy–Smith theorem proves period p from e + 1 with a table to `upto`: 2(e + 1) + 2p + t − 1 ≤ upto. */
function guySmithHolds(e: number, p: number, maxTake: number, upto: number): boolean {
  return 2 * (e + 1) + 2 * p + maxTake - 1 <= upto;
}

/**
 * The candidate period of a table of G(0..upto) before any proof: the least period of the table's
 * second half (null unless it fits there twice) and its last exception in the whole table. What
 * `certifyPeriod` then checks against the Guy–Smith bound; benches print it when the table falls short.
 */
export function periodCandidate(g: Uint16Array, upto: number): { period: number; lastException: number } | null {
  const w = Math.floor((upto + 1) / 2);
  if (w < 2) return null;
  const p = windowPeriod(g, upto - w + 1, upto);
  if (2 * p > w) return null;
  return { period: p, lastException: lastException(g, upto, p) };
}

/**
 * The period of an octal game's nim-values proven from a table of G(0..upto) (see `ProvenPeriod`),
 * or null when the table is too short to prove one. The candidate p is the least period of the
 * table's second half (it must fit there twice); its last exception e is found by comparing the
 * whole table, and the Guy–Smith theorem then needs the table to reach 2(e + 1) + 2p + t − 1. A
 * proper divisor of p that the theorem proves as well is the period instead (the half may begin
 * before the least period's own preperiod). Not for Grundy's game: its splits must be unequal, and
 * the theorem's proof pairs the option (n/2, n/2 + p) of n + p with (n/2, n/2), not a move there.
 */
export function certifyPeriod(g: Uint16Array, upto: number, maxTake: number): ProvenPeriod | null {
  const candidate = periodCandidate(g, upto);
  if (!candidate) return null;
  const { period: p, lastException: e } = candidate;
  if (!guySmithHolds(e, p, maxTake, upto)) return null;
  for (let d = 1; d < p; d++) {
    if (p % d !== 0) continue;
    const ed = lastException(g, upto, d);
    if (guySmithHolds(ed, d, maxTake, upto)) return { period: d, preperiod: ed + 1, lastException: ed, checkedTo: upto };
  }
  return { period: p, preperiod: e + 1, lastException: e, checkedTo: upto };
}

/** What `findOctalPeriod` returns: the proven period, or how far it looked. */
export interface PeriodSearch {
  readonly proven: ProvenPeriod | null;
  /** The last table computed (to `table.upto`). */
  readonly table: NimTable;
}

/**
 * Computes tables of 2^12, 2^13, … heaps (at most `limit`) until `certifyPeriod` proves a period.
 * Grundy's game has no such theorem: its table to `limit` is returned with `proven` null.
 */
export function findOctalPeriod(rule: TakeBreakRule, limit: number): PeriodSearch {
  checkUpto(limit);
  const t = ruleMoves(rule).maxTake;
  for (let upto = Math.min(4096, limit); ; upto = Math.min(upto * 2, limit)) {
    const table = octalNimTable(rule, upto);
    const proven = rule.kind === 'grundy' ? null : certifyPeriod(table.values, upto, t);
    if (proven || upto >= limit) return { proven, table };
  }
}
