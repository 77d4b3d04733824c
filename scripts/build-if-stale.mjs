#!/usr/bin/env node
// `npm test`'s step before vitest: builds dist/ (scripts/build.mjs) when it is missing or older than
// src/. The tests start the real bin over a hundred times, and the bin runs a stale build's sources
// through tsx instead, at about three times the CPU of each start: one build costs less than that.
// The tests then run what a user runs after `npm install`.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compiledMain } from '../bin/dist-check.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
delete process.env.TAKE_ARENA_SOURCES; // the build's freshness, whatever this shell asks the bin to run
if (compiledMain(root) === null) {
  const built = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { stdio: 'inherit' });
  process.exit(built.status ?? 1);
}
