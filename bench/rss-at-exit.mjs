// Preloaded into a benchmarked child (`node --import ./bench/rss-at-exit.mjs …`): at exit, writes the
// process's peak resident set size in kB (getrusage's ru_maxrss) to the file named by BENCH_RSS_FILE,
// so the parent reads the child's own peak rather than sampling it from outside.
import { writeFileSync } from 'node:fs';

const file = process.env.BENCH_RSS_FILE;
if (file) process.on('exit', () => writeFileSync(file, String(process.resourceUsage().maxRSS)));
