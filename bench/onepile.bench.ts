/**
 * One-pile families (GAMES.md 1–3): the subtraction table to 10^8 for seed 002's 12-take set,
 * period detection, and the no-repeat and partizan tables to 10^6.
 */
import { medianMs, report } from './util.ts';
import { subtractionPeriod, subtractionTable } from '../src/solvers/subtraction.ts';
import { noRepeatTable } from '../src/solvers/no-repeat.ts';
import { partizanTable } from '../src/solvers/partizan.ts';

const SEED_002 = [15, 19, 20, 22, 23, 24, 26, 27, 28, 33, 38, 41];
const MB = 1024 * 1024;

let bytes = 0;
const big = medianMs(() => {
  bytes = subtractionTable(SEED_002, 100_000_000).byteLength;
}, 3);
report('subtraction table, S = seed 002 (12 takes), n ≤ 10^8', `${big.toFixed(0)} ms, ${(bytes / MB).toFixed(1)} MiB`);

const small = medianMs(() => {
  subtractionTable([1, 5, 8, 10], 100_000_000);
}, 3);
report('subtraction table, S = {1,5,8,10} (lookup path), n ≤ 10^8', `${small.toFixed(0)} ms`);

let found = '';
const period = medianMs(() => {
  const p = subtractionPeriod(SEED_002);
  found = p ? `pre-period ${p.preperiod}, period ${p.period}` : 'none';
}, 20);
report('subtraction period detection, S = seed 002', `${period.toFixed(2)} ms (${found})`);

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
