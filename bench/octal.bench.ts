/**
 * Octal games at record scale (GAMES.md 7): the nim-sequences of Grundy's game and of Officers
 * (0.6) by the sparse space method, values/s and peak memory, against the same algorithm in C
 * (bench/c/octal.c; target TS/C ≤ 1.5 on CPU time). `npm run bench -- octal`
 *
 * OCTAL_N: heaps per table (an integer or 2^k; default the 2^28: about 20 min of CPU per
 * game and side on this project's VM). OCTAL_GAMES: comma-separated rules (default `grundy,0.6`).
 * OCTAL_PROGRESS=1: a line every 2^24 heaps (heap, CPU seconds, rare heaps) from both sides, for
 * runs that may not finish. OCTAL_C=0: the TS side alone (the C run separately, as docs/PERFORMANCE.md shows).
 * OCTAL_ROUNDS=k (default 1): k rounds of C then TS on one CPU, for a machine whose load drifts:
 * each round's CPU times and ratio, and the median ratio (TS is warm after round 1: its first
 * round includes compiling the kernel).
 * OCTAL_PROVE=0.1777: instead, proves that code's period by computing far enough (Flammenkamp's
 * 60,620,715 from 160,949,018 needs G to 2·160,949,018 + 2·60,620,715 + 4 − 1 = 443,139,469 heaps:
 * 0.9 GB of table), and says how far short a table falls when it does.
 */
import { certifyPeriod, octalNimTable, periodCandidate, parseOctalCode, ruleMoves, ruleText, type TakeBreakRule } from '../src/solvers/octal.ts';
import { onOneCpu, runC } from './c.ts';
import { report, sizeFromEnv } from './util.ts';

function ruleOf(text: string): TakeBreakRule {
  if (text === 'grundy') return { kind: 'grundy' };
  const rule = parseOctalCode(text);
  if (typeof rule === 'string') throw new RangeError(`Expected an octal code or grundy, got ${text}: ${rule}`);
  return rule;
}

function showSize(n: number): string {
  const k = Math.log2(n);
  return Number.isInteger(k) ? `2^${k}` : n.toLocaleString('en-US');
}

function rssMb(): number {
  return process.resourceUsage().maxRSS / 1024;
}

const prove = process.env.OCTAL_PROVE;
if (prove) {
  const rule = ruleOf(prove);
  const upto = sizeFromEnv('OCTAL_N', 443_139_469);
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const table = octalNimTable(rule, upto);
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(c0);
  report(`${ruleText(rule)} nim-values to ${showSize(upto)}`, `${(ms / 1000).toFixed(1)} s wall, ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s cpu, ${((upto / ms) * 1000 / 1e6).toFixed(2)} M values/s, rare heaps ${table.rare.length}, last rare ${table.rare[table.rare.length - 1] ?? 'none'}`);
  const t1 = performance.now();
  const proven = certifyPeriod(table.values, upto, ruleMoves(rule).maxTake);
  const certMs = `${((performance.now() - t1) / 1000).toFixed(1)} s`;
  if (proven) {
    report('  Guy–Smith certificate', `period ${proven.period}, last exception ${proven.lastException}, preperiod ${proven.preperiod}, checked to ${proven.checkedTo} (${certMs})`);
  } else {
    const c = periodCandidate(table.values, upto);
    const need = c && 2 * (c.lastException + 1) + 2 * c.period + ruleMoves(rule).maxTake - 1;
    report('  Guy–Smith certificate', c ? `none: candidate period ${c.period}, last exception ${c.lastException}, needs G to ${need} (${certMs})` : `none: no period fits the second half twice (${certMs})`);
  }
  report('  peak RSS', `${rssMb().toFixed(0)} MB`);
} else {
  const n = sizeFromEnv('OCTAL_N', 2 ** 28);
  const showProgress = Boolean(process.env.OCTAL_PROGRESS);
  const withC = process.env.OCTAL_C !== '0';
  const rounds = sizeFromEnv('OCTAL_ROUNDS', 1);
  if (rounds < 1) throw new RangeError(`Expected OCTAL_ROUNDS to be at least 1, got ${rounds}`);
  for (const text of (process.env.OCTAL_GAMES ?? 'grundy,0.6').split(',')) {
    const rule = ruleOf(text.trim());
    const values = new Uint16Array(n + 1);
    const label = `${ruleText(rule)} to ${showSize(n)}`;
    const rate = (ms: number): string => `${((n / ms) * 1000 / 1e6).toFixed(2)} M values/s`;
    const ratios: number[] = [];
    onOneCpu(() => {
      for (let round = 1; round <= rounds; round++) {
        const c0 = process.cpuUsage();
        const t0 = performance.now();
        const progress = showProgress
          ? (heap: number, rare: number): void => {
              const cpu = process.cpuUsage(c0);
              console.log(`  progress TS ${ruleText(rule)} n=${heap} cpu_s=${((cpu.user + cpu.system) / 1e6).toFixed(1)} rare=${rare}`);
            }
          : undefined;
        const table = octalNimTable(rule, n, progress ? { into: values, progress } : { into: values });
        const wallMs = performance.now() - t0;
        const cpu = process.cpuUsage(c0);
        const cpuMs = (cpu.user + cpu.system) / 1000;
        const space = table.space ?? { mask: 0xffff, kind: 'range' };
        const c = withC ? runC('octal', [ruleText(rule), String(n), '1', String(space.mask), space.kind]) : null;
        let sum = 0;
        let max = 0;
        for (let i = 0; i <= n; i++) {
          sum += values[i]!;
          if (values[i]! > max) max = values[i]!;
        }
        const of = rounds > 1 ? ` (round ${round})` : '';
        report(`${label}, TS${of}`, `${(wallMs / 1000).toFixed(1)} s wall, ${(cpuMs / 1000).toFixed(1)} s cpu, ${rate(cpuMs)} (cpu), peak RSS ${rssMb().toFixed(0)} MB`);
        if (round === 1) {
          report(`  rare heaps, full scans, pairs/heap`, `${table.rare.length}, ${table.fullScans}, ${(table.scanPairs / n).toFixed(0)}; mask ${table.space?.mask.toString(2)} ${table.space?.kind}`);
          // What the C prints too, so that a run of the TS alone (OCTAL_C=0) can be checked against a C run's.
          report(`  sum and largest value of G(0..n)`, `${sum}, ${max}`);
        }
        if (c) {
          const cCpu = Number(c.values['cpu_median_ms']);
          const agrees = c.values['sum'] === String(sum) && c.values['max'] === String(max) && c.values['rare'] === String(table.rare.length);
          report(`${label}, C${of}`, `${(c.medianMs / 1000).toFixed(1)} s wall, ${(cCpu / 1000).toFixed(1)} s cpu, ${rate(cCpu)} (cpu), peak RSS ${c.values['rss_mb']} MB; agrees ${agrees}`);
          report(`${label}, TS/C${of}`, `cpu ${(cpuMs / cCpu).toFixed(2)}, wall ${(wallMs / c.medianMs).toFixed(2)}${cpuMs / cCpu > 1.5 ? ' (target ≤ 1.5)' : ''}`);
          ratios.push(cpuMs / cCpu);
        }
      }
    });
    if (ratios.length > 1) {
      const median = [...ratios].sort((a, b) => a - b)[Math.floor(ratios.length / 2)]!;
      report(`${label}, TS/C cpu, median of ${ratios.length} rounds`, `${median.toFixed(2)}${median > 1.5 ? ' (target ≤ 1.5)' : ''}`);
    }
  }
}
