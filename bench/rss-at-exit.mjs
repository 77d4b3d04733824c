// Preloaded into a benchmarked child (`node --import ./bench/rss-at-exit.mjs …`): at exit, writes the
// process's peak resident set size in kB (getrusage's ru_maxrss) and its CPU time in ms (user +
// system), space-separated, to the file named by BENCH_RSS_FILE, so the parent reads the child's
// own figures rather than sampling them from outside (on a loaded machine the CPU time says what
// the command cost where the wall time says how busy the machine was).
import { writeFileSync } from 'node:fs';

const file = process.env.BENCH_RSS_FILE;
if (file) {
  process.on('exit', () => {
    const r = process.resourceUsage();
    writeFileSync(file, `${r.maxRSS} ${Math.round((r.userCPUTime + r.systemCPUTime) / 1000)}`);
  });
}
