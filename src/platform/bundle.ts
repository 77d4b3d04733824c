import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * Plain-JavaScript worker scripts bundled with esbuild. A worker started through the tsx shim
 * pays for tsx and for transforming every `.ts` file again in its thread (hundreds of
 * milliseconds), and registering tsx's module hooks detaches an ArrayBuffer, which makes every
 * typed-array access in that thread's optimised code re-check its buffer. A bundle starts in tens
 * of milliseconds and runs at full speed. Bundles go to one temporary folder removed at exit.
 */

let dir: string | undefined;
let count = 0;

function bundleDir(): string {
  if (!dir) {
    const made = mkdtempSync(join(tmpdir(), 'take-arena-workers-'));
    dir = made;
    process.once('exit', () => rmSync(made, { recursive: true, force: true }));
  }
  return dir;
}

/**
 * Bundles the TypeScript module `entrySource` (imports resolved from `resolveDir`) with everything
 * it imports into one `.mjs` file, and returns its URL. Rejects when esbuild cannot bundle it.
 * `alias` maps bare package names to absolute paths, wherever the importing file is.
 */
export async function bundleScript(
  entrySource: string,
  resolveDir: string,
  name: string,
  alias: Readonly<Record<string, string>> = {},
): Promise<URL> {
  const { build } = await import('esbuild');
  const result = await build({
    stdin: { contents: entrySource, resolveDir, sourcefile: `${name}-entry.ts`, loader: 'ts' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    write: false,
    logLevel: 'silent',
    alias: { ...alias },
    // CommonJS dependencies inside an ESM bundle need a `require`.
    banner: { js: "import { createRequire as __arenaRequire } from 'node:module'; const require = __arenaRequire(import.meta.url);" },
  });
  const out = join(bundleDir(), `${name}-${count++}.mjs`);
  writeFileSync(out, result.outputFiles[0]!.contents);
  return pathToFileURL(out);
}
