/**
 * One-pile families (GAMES.md 1–3): the subtraction table to 10^8 on its three paths (chunks,
 * lookup table, register window), period detection, and the no-repeat and partizan tables to
 * 10^6; the TS/C ratios of issue 6 (subtraction table n = 10^8, period detection for the seed
 * sets) against `bench/c/*.c`; and the game hot path (play/moves/outcome/key) with ordinary
 * number piles.
 */
import { medianMs, report } from './util.ts';
import { compareWithC } from './c.ts';
import { createRng } from '../src/core/rng.ts';
import { subtraction } from '../src/games/subtraction.ts';
import { createVariant } from '../src/core/params.ts';
import { subtractionPeriod, subtractionTable, tableWords } from '../src/solvers/subtraction.ts';
import { noRepeatPeriod, noRepeatTable } from '../src/solvers/no-repeat.ts';
import { partizanPeriod, partizanTable } from '../src/solvers/partizan.ts';
import type { Period } from '../src/solvers/period.ts';

const SEED_002 = [15, 19, 20, 22, 23, 24, 26, 27, 28, 33, 38, 41];
const MB = 1024 * 1024;

// ---- Issue 6: period detection, TS against single-threaded C. First in the file, so that the TS
// side runs as the C program does, in a process that has run nothing else yet: after the 10^8 and
// 10^6 tables below, V8's code for the small tables measured 3–5% slower (feedback from both sizes).

/** The seed sets of GAMES.md 1–3, in the order bench/c/period.c prints them (arrays built once, as C parses its sets once). */
const S_1_5_8_10 = [1, 5, 8, 10];
const S_1_5 = [1, 2, 3, 4, 5];
const L_259 = [2, 5, 9];
const R_348 = [3, 4, 8];
const R_248 = [2, 4, 8];
/** The names bench/c/period.c prints the six periods under, in the order `allPeriods` finds them. */
const SEED_GAMES = ['subtraction_seed002', 'subtraction_1_5_8_10', 'no_repeat_1_5', 'no_repeat_seed002', 'partizan_259_348', 'partizan_259_248'];

// One detection of all six takes some microseconds: each timed sample repeats it PERIOD_REPS
// times on both sides (a sample of some milliseconds, long enough not to be noise), after a
// warm-up long enough for V8 to optimise every solver. The six calls are written out, as C's
// all() makes them: through an array of closures (one megamorphic call site) the TS side measured
// 4% slower, timing the harness.
const PERIOD_REPS = 1000;
const periods: (Period | null)[] = [];
const allPeriods = (): void => {
  for (let r = 0; r < PERIOD_REPS; r++) {
    periods[0] = subtractionPeriod(SEED_002);
    periods[1] = subtractionPeriod(S_1_5_8_10);
    periods[2] = noRepeatPeriod(S_1_5);
    periods[3] = noRepeatPeriod(SEED_002);
    periods[4] = partizanPeriod(L_259, R_348);
    periods[5] = partizanPeriod(L_259, R_248);
  }
};
for (let w = 0; w < 3; w++) allPeriods();
const cPeriod = compareWithC(
  `TS/C period detection, 6 seed games × ${PERIOD_REPS}`,
  allPeriods,
  21,
  'period',
  ['21', String(PERIOD_REPS)],
  5,
);
const seedFound = SEED_GAMES.map((name, i): [string, string] => {
  const p = periods[i];
  return [name, p ? `${p.preperiod}/${p.period}` : 'none'];
});
report('  seed-set periods (pre-period/period)', seedFound.map(([name, text]) => `${name} ${text}`).join(', '));
const differ = seedFound.filter(([name, text]) => cPeriod !== null && cPeriod.values[name] !== text);
if (differ.length) report('  RESULTS DIFFER from C', differ.map(([name]) => name).join(', '));

let bytes = 0;
const big = medianMs(() => {
  bytes = subtractionTable(SEED_002, 100_000_000).byteLength;
}, 3);
report('subtraction table, S = seed 002 (12 takes), n ≤ 10^8', `${big.toFixed(0)} ms, ${(bytes / MB).toFixed(1)} MiB`);

const small = medianMs(() => {
  subtractionTable([1, 5, 8, 10], 100_000_000);
}, 3);
report('subtraction table, S = {1,5,8,10} (lookup path), n ≤ 10^8', `${small.toFixed(0)} ms`);

const register = medianMs(() => {
  subtractionTable([1, 20, 30], 100_000_000);
}, 3);
report('subtraction table, S = {1,20,30} (register path), n ≤ 10^8', `${register.toFixed(0)} ms`);

const seed002: (Period | null)[] = [null];
const detect1000 = (): void => {
  for (let r = 0; r < 1000; r++) seed002[0] = subtractionPeriod(SEED_002);
};
for (let w = 0; w < 50; w++) detect1000(); // until V8 has optimised every function on the way
const period = medianMs(detect1000, 20);
const found = seed002[0] ? `pre-period ${seed002[0].preperiod}, period ${seed002[0].period}` : 'none';
report('subtraction period detection, S = seed 002', `${period.toFixed(2)} µs (${found})`);

let nrBytes = 0;
const nr = medianMs(() => {
  nrBytes = noRepeatTable([1, 2, 3, 4, 5], 1_000_000).byteLength;
}, 9);
report('no-repeat table, S = {1..5}, n ≤ 10^6', `${nr.toFixed(1)} ms, ${(nrBytes / MB).toFixed(2)} MiB`);

const nr12 = medianMs(() => {
  noRepeatTable(SEED_002, 1_000_000);
}, 9);
report('no-repeat table, S = seed 002, n ≤ 10^6', `${nr12.toFixed(1)} ms`);

let pzBytes = 0;
const pz = medianMs(() => {
  const t = partizanTable([2, 5, 9], [3, 4, 8], 1_000_000);
  pzBytes = t.left.byteLength + t.right.byteLength;
}, 9);
report('partizan tables, L = {2,5,9}, R = {3,4,8}, n ≤ 10^6', `${pz.toFixed(1)} ms, ${(pzBytes / 1024).toFixed(0)} KiB`);

// ---- Issue 6: the subtraction table, TS against single-threaded C (same algorithm, same machine) ----

let nCount = 0;
{
  const t = subtractionTable(SEED_002, 100_000_000);
  for (let n = 0; n <= 100_000_000; n++) nCount += (t[n >>> 5]! >>> (n & 31)) & 1;
}
// Both sides fill one table allocated once, cleared in the timed region: the fill, not the OS.
// (A fresh 12.5 MB table costs page faults: about 38 ms on this VM, as much as the fill. C's
// allocator hands the table it just freed straight back, V8's only once a GC has freed it.)
const tsTable = new Uint32Array(tableWords(100_000_000));
const cTable = compareWithC(
  'TS/C subtraction table, seed 002, n ≤ 10^8',
  () => {
    tsTable.fill(0);
    subtractionTable(SEED_002, 100_000_000, tsTable);
  },
  5,
  'subtraction',
  ['100000000', '5'],
  5,
);
if (cTable !== null && cTable.values['n_positions'] !== String(nCount)) {
  report('  RESULTS DIFFER', `TS ${nCount} N-positions, C ${cTable.values['n_positions']}`);
}

// ---- The tournament hot path with ordinary piles (number piles; bigints only above 2^53) ----

const game = createVariant(subtraction, { moves: [1, 5, 8, 10], n: '50..200' });
let plies = 0;
const playouts = medianMs(() => {
  const rng = createRng(1);
  const seen = new Set<number | bigint | string>();
  for (let g = 0; g < 20_000; g++) {
    let s = game.deal(rng);
    while (game.outcome(s) === null) {
      const legal = game.moves(s);
      s = game.play(s, legal[rng.int(0, legal.length - 1)]!);
      seen.add(game.key(s));
      plies++;
    }
  }
}, 5);
report('subtraction {1,5,8,10}: 20,000 random playouts, n ≤ 200', `${playouts.toFixed(0)} ms (${(plies / 6 / 1e6).toFixed(2)} M plies each)`);
