/**
 * `npm run bench`: runs every `bench/*.bench.ts` in name order (or those whose names contain the
 * words given: `npm run bench -- coins`). Each bench prints its own figures. Long measurements
 * live here, never in the timed test suite.
 */
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import os from 'node:os';

const here = dirname(fileURLToPath(import.meta.url));
const filters = process.argv.slice(2);
const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => filters.length === 0 || filters.some((w) => f.includes(w)))
  .sort();

console.log(`take-arena bench — node ${process.version}, ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}`);
for (const file of files) {
  console.log(`\n## ${file.replace('.bench.ts', '')}`);
  await import(pathToFileURL(join(here, file)).href);
}
