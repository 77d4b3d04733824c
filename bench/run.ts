/**
 * `npm run bench`: runs every `bench/*.bench.ts` in name order (or those whose names contain the
 * words given: `npm run bench -- coins`), each in a process of its own, so that no bench's heap
 * and compiled code (V8 optimises for what a process has run so far) bear on another's figures,
 * as each C reference program runs in a fresh process too. Each bench prints its own figures. Long
 * measurements live here, never in the timed test suite.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import os from 'node:os';

const here = dirname(fileURLToPath(import.meta.url));
const runTs = join(here, '..', 'bin', 'run-ts.mjs');
const filters = process.argv.slice(2);
const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => filters.length === 0 || filters.some((w) => f.includes(w)))
  .sort();

console.log(`take-arena bench — node ${process.version}, ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}`);
let failed = 0;
for (const file of files) {
  console.log(`\n## ${file.replace('.bench.ts', '')}`);
  const run = spawnSync(process.execPath, [runTs, join(here, file)], { stdio: 'inherit', env: process.env });
  if (run.status !== 0) {
    failed++;
    console.log(`  (${file} exited with ${run.status ?? run.signal})`);
  }
}
process.exitCode = failed ? 1 : 0;
