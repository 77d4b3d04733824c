/**
 * Where this copy of take-arena runs from. The same modules run as TypeScript sources (through tsx,
 * vitest or a worker bundle) or compiled to JavaScript in `dist/` (`npm run build`, run by the
 * `prepare` script at install): a file that names a sibling module or a folder of the package by
 * path asks here, so both copies find the same things.
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(import.meta.url);

/** Whether this is the compiled copy (`dist/src/platform/paths.js`) rather than the sources. */
export const COMPILED: boolean = here.endsWith('.js');

/** The package's root folder (where `package.json`, `bots/` and `src/` are), in both copies. */
export const PACKAGE_ROOT: string = resolve(dirname(here), COMPILED ? '../../..' : '../..');

/** The compiled copy's folder. */
export const DIST_DIR: string = resolve(PACKAGE_ROOT, 'dist');

/**
 * The file of module `name` (written without extension) next to the module at `url`, as this copy
 * has it: `name.ts` among the sources, `name.js` in `dist/`. For worker entries and bundles, which
 * are named by path rather than imported.
 */
export function siblingModule(url: string, name: string): string {
  return fileURLToPath(new URL(`./${name}${COMPILED ? '.js' : '.ts'}`, url));
}
