import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { HANG_MS } from '../patience.ts';

/** The repository root and the real bin, as a user runs it. */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const BIN = fileURLToPath(new URL('../../bin/arena.mjs', import.meta.url));

/** What a finished command left: its exit code and both streams. */
export interface Ran {
  readonly code: number;
  readonly out: string;
  readonly err: string;
}

/** Runs `node bin/arena.mjs …args` in a real process (no terminal: stdin is closed). */
export function arena(args: readonly string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): Promise<Ran> {
  return shell(process.execPath, [BIN, ...args], options);
}

/**
 * Runs any program and collects its exit code and output. The default timeout only catches a hang
 * (`HANG_MS`): on a busy machine a command can take many times as long as on a quiet one.
 */
export function shell(file: string, args: readonly string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): Promise<Ran> {
  return new Promise((resolve) => {
    const child = execFile(
      file,
      args,
      { cwd: options.cwd ?? ROOT, env: { ...process.env, NO_COLOR: '1', ...options.env }, timeout: options.timeoutMs ?? HANG_MS, maxBuffer: 1 << 26 },
      (error, stdout, stderr) => {
        const code = error && typeof error.code === 'number' ? error.code : error ? 1 : 0;
        resolve({ code, out: stdout, err: stderr });
      },
    );
    child.stdin?.end();
  });
}

/** A user's mistake as the README promises it: exit 2, one line on stderr, no stack trace, nothing on stdout. */
export function isUsageError(r: Ran): boolean {
  return r.code === 2 && r.out === '' && r.err.trimEnd().split('\n').length === 1 && r.err.startsWith('arena: ') && !/\n\s+at /.test(r.err);
}
