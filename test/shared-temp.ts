/**
 * Global set-up of the `shared` project (vitest.config.ts): one temporary folder for the run's files
 * that share their processes, handed to test/temp-folder.ts and removed when the run ends.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The `shared` project's temporary folder; absent in the `isolated` project (a folder per file there). */
    sharedTempFolder?: string;
  }
}

/** A new folder under the system's temporary folder for tests' `TMPDIR`, with the caches that must outlive it linked in. */
export function makeTempFolder(): string {
  const system = tmpdir();
  // A short name (/tmp/vt-XXXXXX): the paths under it are printed in terminals of fixed width.
  const dir = mkdtempSync(join(system, 'vt-'));
  // Open as /tmp is: a sandboxed bot's user (nobody, when the tests run as root) reaches what is bound from here.
  chmodSync(dir, 0o1777);
  // Caches that must outlive the folder: tsx's compiled sources and Node's compile cache (bin/arena.mjs),
  // else every file's first CLI start would compile everything again.
  for (const cache of [`tsx-${process.geteuid?.() ?? userInfo().username}`, 'node-compile-cache']) {
    mkdirSync(join(system, cache), { recursive: true });
    symlinkSync(join(system, cache), join(dir, cache));
  }
  return dir;
}

/** Makes the run's shared folder; removes it after the run. */
export default function setup(project: TestProject): () => void {
  const dir = makeTempFolder();
  project.provide('sharedTempFolder', dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
