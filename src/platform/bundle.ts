import { createHash } from 'node:crypto';
import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * Plain-JavaScript scripts bundled with esbuild, for the processes and threads the arena starts
 * (bots' processes, discovery children, the solvers' table workers): started through the tsx shim
 * they would pay for tsx and for transforming every `.ts` file again, and run slower afterwards
 * (docs/PERFORMANCE.md, "Bot hosting"). Bundles go to one temporary folder removed at exit.
 */

let dir: string | undefined;
let count = 0;

/** The prefix of bundle folders; the owner's pid follows it: `take-arena-workers-<pid>-XXXXXX`. */
const PREFIX = 'take-arena-workers-';

/** Whether a process with this pid is alive (EPERM: alive, someone else's). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes the bundle folders of arenas that are gone: the exit hook below never runs when an
 * arena is killed with SIGKILL. A folder without a pid in its name (an older arena's) is removed
 * once it is a day old.
 */
export function removeStaleBundleDirs(root = tmpdir()): string[] {
  const removed: string[] = [];
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return removed; // an unreadable temporary folder: nothing of ours to find there
  }
  for (const name of names) {
    if (!name.startsWith(PREFIX)) continue;
    const m = /^(\d+)-/.exec(name.slice(PREFIX.length));
    const path = join(root, name);
    try {
      const stale = m ? Number(m[1]) !== process.pid && !pidAlive(Number(m[1])) : Date.now() - statSync(path).mtimeMs > 86_400_000;
      if (!stale) continue;
      rmSync(path, { recursive: true, force: true });
      removed.push(path);
    } catch {
      // another arena removed it first, or it is not ours to remove
    }
  }
  return removed;
}

function bundleDir(): string {
  if (!dir) {
    removeStaleBundleDirs();
    const made = mkdtempSync(join(tmpdir(), `${PREFIX}${process.pid}-`));
    // Readable by the sandbox's user (nobody, when the arena is root): a sandboxed bot is shown
    // only its own bundle, bound read-only, and nothing in here is secret.
    chmodSync(made, 0o755);
    dir = made;
    process.once('exit', () => rmSync(made, { recursive: true, force: true }));
  }
  return dir;
}

/** The esbuild settings every bundle shares. */
async function build(entrySource: string, resolveDir: string, name: string, alias: Readonly<Record<string, string>>, metafile: boolean) {
  const esbuild = await import('esbuild');
  const req = `__arenaRequire_${createHash('sha256').update(entrySource).digest('hex').slice(0, 12)}`;
  return esbuild.build({
    stdin: { contents: entrySource, resolveDir, sourcefile: `${name}-entry.ts`, loader: 'ts' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    write: false,
    logLevel: 'silent',
    alias: { ...alias },
    metafile,
    absWorkingDir: resolveDir,
    // CommonJS dependencies inside an ESM bundle need a `require`. The import's name is the
    // entry's own: a bundle of a bundle (discovery reading a bundle a queue worker received) then
    // holds two such imports that do not clash.
    banner: { js: `import { createRequire as ${req} } from 'node:module'; const require = ${req}(import.meta.url);` },
  });
}

/** A fresh file name in this arena's bundle folder (world-readable, removed at exit). */
export function temporaryBundlePath(name: string): string {
  return join(bundleDir(), `${name}-${count++}.mjs`);
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
  const result = await build(entrySource, resolveDir, name, alias, false);
  const out = temporaryBundlePath(name);
  writeFileSync(out, result.outputFiles[0]!.contents, { mode: 0o644 });
  return pathToFileURL(out);
}

/**
 * Bundles like `bundleScript` but returns the code, the absolute paths of every file that went
 * into it (what a cache of anything derived from the bundle must watch), and the bare names of
 * `alias` that some module of it imports by name (`take-arena`, or a path in it).
 */
export async function bundleWithInputs(
  entrySource: string,
  resolveDir: string,
  name: string,
  alias: Readonly<Record<string, string>> = {},
): Promise<{ code: Uint8Array; inputs: string[]; aliased: Set<string> }> {
  const result = await build(entrySource, resolveDir, name, alias, true);
  const files = result.metafile?.inputs ?? {};
  const inputs = Object.keys(files)
    // The entry itself (`<name>-entry.ts`, from `entrySource`) is not a file.
    .filter((f) => f !== `${name}-entry.ts` && !f.includes(':'))
    .map((f) => resolve(resolveDir, f));
  const aliased = new Set<string>();
  for (const file of Object.values(files)) {
    for (const { original } of file.imports) {
      const bare = original?.split('/')[0];
      if (bare !== undefined && bare in alias) aliased.add(bare);
    }
  }
  return { code: result.outputFiles[0]!.contents, inputs, aliased };
}
