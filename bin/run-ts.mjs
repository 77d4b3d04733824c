#!/usr/bin/env node
// Runs a TypeScript file under tsx: `node bin/run-ts.mjs file.ts [args…]` (used by `npm run bench`).
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { register as registerEsm } from 'tsx/esm/api';
import { register as registerCjs } from 'tsx/cjs/api';

registerEsm();
registerCjs();
const [file, ...rest] = process.argv.slice(2);
if (!file) {
  console.error('usage: node bin/run-ts.mjs <file.ts> [args…]');
  process.exit(2);
}
process.argv = [process.argv[0], resolve(file), ...rest];
await import(pathToFileURL(resolve(file)).href);
