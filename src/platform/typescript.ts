/**
 * TypeScript at run time, for users' bots. The sources already run under tsx (or vitest), so there
 * is nothing to do; the compiled copy in `dist/` starts without tsx (which would slow every start)
 * and registers it here, once, only when a `.ts` module must be loaded that has no compiled twin.
 * The built-in bots have twins in `dist/bots/`, kept while newer than their source.
 */
import { existsSync, statSync } from 'node:fs';
import { register } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { COMPILED, DIST_DIR, PACKAGE_ROOT } from './paths.ts';
import { resolveTakeArenaAnywhere } from './take-arena-anywhere.mjs';

let registered: Promise<void> | null = null;

/** The compiled package entry, which `take-arena` names for a bot this process imports. */
const DIST_ENTRY = pathToFileURL(join(DIST_DIR, 'src', 'index.js')).href;

/** Whether `file` needs a TypeScript loader to be imported. */
function isTypeScript(file: string): boolean {
  return /\.(ts|tsx|mts|cts)$/.test(file);
}

/**
 * The module to import for `file`: its compiled twin in `dist/bots/` when it is a built-in bot
 * compiled since its last change, else the file itself (after registering tsx when it is
 * TypeScript and this is the compiled copy, and `take-arena`'s resolution from any folder unless
 * `takeArena` is false: a JavaScript file none of whose modules imports the name).
 */
export async function importableModule(file: string, takeArena = true): Promise<string> {
  if (!COMPILED) return file;
  // A JavaScript bot outside the package imports `take-arena` too: the compiled entry's one instance.
  if (!isTypeScript(file)) {
    if (takeArena) await resolveTakeArenaAnywhere(DIST_ENTRY);
    return file;
  }
  if (dirname(file) === join(PACKAGE_ROOT, 'bots')) {
    const twin = join(DIST_DIR, 'bots', basename(file).replace(/\.tsx?$/, '.js'));
    if (existsSync(twin) && statSync(twin).mtimeMs >= statSync(file).mtimeMs) return twin;
  }
  await (registered ??= registerTypeScript());
  return file;
}

async function registerTypeScript(): Promise<void> {
  const [{ register: registerEsm }, { register: registerCjs }] = await Promise.all([import('tsx/esm/api'), import('tsx/cjs/api')]);
  registerEsm();
  registerCjs();
  // Registered after tsx, so it runs first: the package's own modules resolve to dist/.
  register(pathToFileURL(join(DIST_DIR, 'src', 'platform', 'alias-hooks.mjs')), {
    data: { srcUrl: pathToFileURL(join(PACKAGE_ROOT, 'src')).href + '/', distSrcUrl: pathToFileURL(join(DIST_DIR, 'src')).href + '/' },
  });
  // `require('take-arena')` too (a bot in a folder without `"type": "module"` is CommonJS to tsx):
  // the compiled entry's one instance.
  await resolveTakeArenaAnywhere(DIST_ENTRY);
}
