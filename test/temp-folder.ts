/**
 * Set-up of every test file (vitest.config.ts `setupFiles`): the file's temporary folders, and
 * those of every process it starts (the CLI, workers, bots outside the sandbox), go into one folder
 * of its own (`TMPDIR`, which `os.tmpdir()` reads at each call), removed once the file is done.
 * Without it the suite left thousands of folders behind (results, bot stores, bundles of processes
 * killed on purpose). The sandbox is unaffected: it mounts an empty `/tmp` of its own and sets no
 * `TMPDIR`.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

const shared = tmpdir();
// A short name (/tmp/vt-XXXXXX): the paths under it are printed in terminals of fixed width.
const dir = mkdtempSync(join(shared, 'vt-'));
// Open as /tmp is: a sandboxed bot's user (nobody, when the tests run as root) reaches what is bound from here.
chmodSync(dir, 0o1777);
// Caches that must outlive the file: tsx's compiled sources and Node's compile cache (bin/arena.mjs),
// else every file's first CLI start would compile everything again.
for (const cache of [`tsx-${process.geteuid?.() ?? userInfo().username}`, 'node-compile-cache']) {
  mkdirSync(join(shared, cache), { recursive: true });
  symlinkSync(join(shared, cache), join(dir, cache));
}
process.env['TMPDIR'] = dir;

afterAll(() => {
  process.env['TMPDIR'] = shared;
  rmSync(dir, { recursive: true, force: true });
});
