import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

/**
 * Bot worker scripts bundled ahead of time. Starting a worker through tsx costs hundreds of
 * milliseconds (tsx itself, then every `.ts` file transformed again in the new thread), and a
 * tournament starts a worker per bot and concurrent game plus one after every timeout or crash.
 * So each bot module is bundled once per run, with the worker loop, into one plain `.mjs` file
 * that a worker starts in tens of milliseconds. The bot is imported lazily inside the bundle, so
 * a module that throws at start-up is still reported as the bot's start-up failure.
 */

const WORKER_MODULE = fileURLToPath(new URL('./bot-worker.ts', import.meta.url));
const TSX_ENTRY = new URL('./bot-worker.mjs', import.meta.url);

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

/** One script for all the given bot modules: the worker picks its bot by `workerData.file`. */
async function bundle(files: readonly string[]): Promise<URL> {
  const entry = [
    `import { workerData } from 'node:worker_threads';`,
    `import { runBotWorker } from ${JSON.stringify(WORKER_MODULE)};`,
    `const bots: Record<string, () => Promise<unknown>> = {`,
    ...files.map((f) => `  ${JSON.stringify(f)}: () => import(${JSON.stringify(f)}),`),
    `};`,
    `await runBotWorker(bots[(workerData as { file: string }).file]!);`,
  ].join('\n');
  const out = join(bundleDir(), `bots-${count++}.mjs`);
  const result = await build({
    stdin: { contents: entry, resolveDir: process.cwd(), sourcefile: 'bot-worker-entry.ts', loader: 'ts' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    write: false,
    logLevel: 'silent',
    // CommonJS dependencies inside an ESM bundle need a `require`.
    banner: { js: "import { createRequire as __arenaRequire } from 'node:module'; const require = __arenaRequire(import.meta.url);" },
  });
  writeFileSync(out, result.outputFiles[0]!.contents);
  return pathToFileURL(out);
}

/**
 * The worker script for a set of bot modules (built once per tournament): one bundle shared by
 * all of them, or the tsx entry when they cannot be bundled (a native addon, say), which is
 * slower to start but loads anything tsx can.
 */
export function workerScript(files: readonly string[]): Promise<URL> {
  return bundle([...new Set(files)]).catch(() => TSX_ENTRY);
}
