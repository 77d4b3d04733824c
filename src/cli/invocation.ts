/**
 * How the user runs this CLI, for the commands it prints (the resume command, `bots check` after
 * `new-bot`): `arena` when this installation is on PATH (`npm link`, `npm install -g .`), `npx arena`
 * inside the project otherwise, else the bin's full path.
 */
import { accessSync, constants, realpathSync } from 'node:fs';
import { delimiter, isAbsolute, join, relative } from 'node:path';
import { PACKAGE_ROOT as ROOT } from '../platform/paths.ts';

const BIN = join(ROOT, 'bin', 'arena.mjs');

function real(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

/** Whether `arena` on PATH is this installation. npm's own `node_modules/.bin` entries (npx, npm start) do not count: a shell does not have them. */
function onPath(env: NodeJS.ProcessEnv): boolean {
  const bin = real(BIN);
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir || /[\\/]node_modules[\\/]\.bin[\\/]?$/.test(dir)) continue;
    const candidate = join(dir, process.platform === 'win32' ? 'arena.cmd' : 'arena');
    try {
      accessSync(candidate, constants.X_OK);
    } catch {
      continue;
    }
    if (real(candidate) === bin) return true;
  }
  return false;
}

function inside(dir: string, root: string): boolean {
  const rel = relative(root, dir);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** The words that run this CLI from the user's shell in `cwd`: `arena`, `npx arena` or `node /path/bin/arena.mjs`. */
export function cliName(env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): string {
  if (onPath(env)) return 'arena';
  if (inside(real(cwd) ?? cwd, real(ROOT) ?? ROOT)) return 'npx arena';
  return `node ${/\s/.test(BIN) ? JSON.stringify(BIN) : BIN}`;
}
