/**
 * Set-up of every test file (vitest.config.ts `setupFiles`): the file's temporary folders, and
 * those of every process it starts (the CLI, workers, bots outside the sandbox), go into a folder
 * of their own (`TMPDIR`, which `os.tmpdir()` reads at each call). Without it the suite left
 * thousands of folders behind (results, bot stores, bundles of processes killed on purpose). The
 * sandbox is unaffected: it mounts an empty `/tmp` of its own and sets no `TMPDIR`.
 *
 * A file in a process of its own (the `isolated` project) gets a folder removed once the file is
 * done. Files sharing a process (the `shared` project) share the run's folder (test/shared-temp.ts),
 * removed after the run: what a module caches at its first use (the folder its bundles go to, say)
 * must stay valid for the files that run after it in the same process.
 */
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterAll, inject } from 'vitest';
import { makeTempFolder } from './shared-temp.ts';

const before = tmpdir();
const shared = inject('sharedTempFolder');
const dir = shared ?? makeTempFolder();
process.env['TMPDIR'] = dir;

afterAll(() => {
  process.env['TMPDIR'] = before;
  if (shared === undefined) rmSync(dir, { recursive: true, force: true });
});
