/**
 * Paths no command can use, made once per test file in a folder of its own: a regular file (where
 * a folder is made), a pipe (a read would block), a results folder whose spec is a link to
 * /dev/zero (a read would never end), one whose spec is nested 100,000 levels deep, and a name of
 * 300 characters (too long for a file name).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface HostilePaths {
  readonly dir: string;
  readonly file: string;
  readonly fifo: string;
  readonly planted: string;
  readonly nested: string;
  readonly long: string;
}

export function hostilePaths(): HostilePaths {
  const dir = mkdtempSync(join(tmpdir(), 'arena-paths-'));
  const file = join(dir, 'file.json');
  writeFileSync(file, '{}');
  const fifo = join(dir, 'fifo');
  execFileSync('mkfifo', [fifo]);
  const planted = join(dir, 'planted');
  mkdirSync(planted);
  symlinkSync('/dev/zero', join(planted, 'spec.json'));
  writeFileSync(join(planted, 'games.jsonl'), '');
  const nested = join(dir, 'nested');
  mkdirSync(nested);
  writeFileSync(join(nested, 'spec.json'), `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`);
  writeFileSync(join(nested, 'games.jsonl'), '');
  return { dir, file, fifo, planted, nested, long: 'x'.repeat(300) };
}
