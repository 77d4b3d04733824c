import { userFamilies } from '../games/index.ts';
import { bundleScript } from '../platform/bundle.ts';
import { siblingModule } from '../platform/paths.ts';

/**
 * The scripts module bots' processes run (isolation `worker`), bundled ahead of time. Starting
 * through tsx is slow (tsx itself, then every `.ts` file transformed again), and a tournament starts
 * a process per bot and concurrent game plus one after every timeout or crash. So the run's bot
 * modules are bundled once per run, with the process's loop, into one plain `.mjs` file (see
 * docs/PERFORMANCE.md, "Bot hosting"). A bot is imported lazily inside the bundle, so a module that
 * throws at start-up is still reported as the bot's start-up failure.
 */

const WORKER_MODULE = siblingModule(import.meta.url, 'bot-worker');
const TSX_ENTRY = new URL('./bot-worker.mjs', import.meta.url);
/** This installation's package entry: what `take-arena` means to a bot file in any folder. */
export const PACKAGE_ENTRY = siblingModule(new URL('../', import.meta.url).href, 'index');

const GAMES_MODULE = siblingModule(new URL('../games/', import.meta.url).href, 'index');

/**
 * Lines of a bundle's entry that register the users' games this process loaded (`games/`,
 * `--games-dir`): a bot's process, or a bot's discovery child, then builds the same variants as
 * the arena. Imports are evaluated before the entry's body, so the games are there before any bot.
 */
export function gameRegistrations(): string[] {
  const files = userFamilies().map((e) => e.file);
  if (files.length === 0) return [];
  return [
    `import { registerGameModule } from ${JSON.stringify(GAMES_MODULE)};`,
    ...files.map((f, i) => `import * as userGame${i} from ${JSON.stringify(f)};`),
    ...files.map((f, i) => `registerGameModule(userGame${i}, ${JSON.stringify(f)});`),
  ];
}

/** One script for all the given bot modules: each process loads the one its first frame names. */
function bundle(files: readonly string[]): Promise<URL> {
  const entry = [
    ...gameRegistrations(),
    `import { runBotWorker } from ${JSON.stringify(WORKER_MODULE)};`,
    `const bots: Record<string, () => Promise<unknown>> = {`,
    ...files.map((f) => `  ${JSON.stringify(f)}: () => import(${JSON.stringify(f)}),`),
    `};`,
    `await runBotWorker((file) => (bots[file] ?? (() => Promise.reject(new Error(\`\${file} is not in this run's bot script\`))))());`,
  ].join('\n');
  return bundleScript(entry, process.cwd(), 'bots', { 'take-arena': PACKAGE_ENTRY });
}

/**
 * The worker script for a set of bot modules (built once per tournament): one bundle shared by
 * all of them, or the tsx entry when they cannot be bundled (a native addon, say), which is
 * slower to start but loads anything tsx can.
 */
export function workerScript(files: readonly string[]): Promise<URL> {
  return bundle([...new Set(files)]).catch(() => TSX_ENTRY);
}

/** `bundledBotWorkerScript`'s scripts, by the users' games they register. */
const prebuilt = new Map<string, Promise<URL>>();

/**
 * The worker script for bots that are already self-contained ES modules (the bundles `arena
 * worker` receives through Redis): the worker loop is bundled once per process and the bot file
 * is imported at run time, so a bundle is never bundled a second time.
 */
export function bundledBotWorkerScript(): Promise<URL> {
  // The users' games loaded so far (a queue worker loads those its jobs ship): one script per set.
  const games = gameRegistrations();
  const key = games.join('\n');
  let script = prebuilt.get(key);
  if (!script) {
    const entry = [...games, `import { pathToFileURL } from 'node:url';`, `import { runBotWorker } from ${JSON.stringify(WORKER_MODULE)};`, `await runBotWorker((file) => import(pathToFileURL(file).href));`].join('\n');
    script = bundleScript(entry, process.cwd(), 'bundled-bots').catch(() => TSX_ENTRY);
    prebuilt.set(key, script);
  }
  return script;
}
