/**
 * Bot discovery: every `.ts`, `.js` and `.mjs` module in `bots/` and in extra folders, and every
 * `<name>.bot.json` manifest of an external bot (a program speaking docs/PROTOCOL.md). A module is
 * never imported here: its metadata (name, description, options, `supports`) is read in a child
 * process with a time limit (discovery.ts), so a file that loops, throws or exits at import is
 * reported with its reason and skipped, and the others still load. Also parses bot choices written
 * `name:key=value,key=value` and validates their options.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, extname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AnyBot } from '../core/bot.ts';
import type { AnyGame } from '../core/game.ts';
import { BotLoadError, UsageError, didYouMean, show } from '../core/errors.ts';
import { parseKeyValues } from '../core/params.ts';
import { importableModule } from '../platform/typescript.ts';
import { botLabel, botOptions, exportedBot, oneLine } from './bot-module.ts';
import { BUILTIN_BOTS_DIR, describeModules, type DiscoverySettings } from './discovery.ts';
import { isManifestFileName, loadManifest, MANIFEST_SUFFIX, type ExternalBot } from './manifest.ts';

export { botLabel, botOptions, moduleBot } from './bot-module.ts';
export { BUILTIN_BOTS_DIR, defaultVariantIds, DISCOVERY_CPU_SECONDS, DISCOVERY_TIMEOUT_MS, defaultDiscoveryCacheDir, type DiscoverySettings } from './discovery.ts';

/**
 * A bot module (run in worker threads, a sandbox or, with isolation `none`, in-process): its file
 * and its descriptor. `bot` has the module's name, description, options and `supports`, read in a
 * child process; its `choose` throws. `importModuleBot` imports the real bot, for in-process play.
 */
export interface ModuleBotEntry {
  /** Absent on entries made before external bots existed; `module` otherwise. */
  readonly transport?: 'module';
  readonly name: string;
  readonly description: string;
  readonly file: string;
  readonly bot: AnyBot;
  /**
   * Whether a module of the bot imports `take-arena` by name, as discovery's bundle of it saw
   * (undefined when not known): a JavaScript bot that does not is imported without the name's
   * resolve hook, which costs a process about 30 ms to start (docs/PERFORMANCE.md).
   */
  readonly takeArena?: boolean | undefined;
}

/**
 * An external program speaking the JSON-lines protocol, from its `.bot.json` manifest (`file`).
 * `bot` is a descriptor for listings and `supports`; it cannot play in-process.
 */
export interface ProcessBotEntry extends ExternalBot {
  readonly transport: 'process';
}

/** A discovered bot, by transport: test `entry.transport === 'process'` for external programs. */
export type BotEntry = ModuleBotEntry | ProcessBotEntry;

/** What discovery found: valid bots and, per broken file, why it was skipped. */
export interface BotRegistry {
  readonly bots: readonly BotEntry[];
  readonly problems: readonly { file: string; reason: string }[];
}

/** A bot chosen with options: `minimax:depth=8,x=1`. `label` is the canonical text used in standings. */
export interface BotChoice {
  readonly entry: BotEntry;
  readonly options: Readonly<Record<string, unknown>>;
  readonly label: string;
}

/** File names discovery loads: modules, not type declarations. */
export function isBotFileName(name: string): boolean {
  return /\.(ts|js|mjs)$/.test(name) && !name.endsWith('.d.ts') && !name.startsWith('.');
}

/**
 * Reads one bot file: a manifest in-process (it is JSON), a module in a child process. Returns the
 * entry, or the reason the file is not a bot (it threw, hung or exited at import, has no default
 * export, or the export is not a valid bot).
 */
export async function loadBotFile(file: string, settings: DiscoverySettings = {}): Promise<BotEntry | { reason: string }> {
  return (await loadBotFiles([resolve(file)], settings))[0]!;
}

/** Reads bot files (modules all at once, in parallel children), one result per file in order. */
async function loadBotFiles(files: readonly string[], settings: DiscoverySettings): Promise<(BotEntry | { reason: string })[]> {
  const modules = files.filter((f) => !isManifestFileName(basename(f)));
  const described = await describeModules(modules, settings);
  return files.map((path) => {
    if (isManifestFileName(basename(path))) {
      const external = loadManifest(path);
      return 'reason' in external ? external : { ...external, transport: 'process' as const };
    }
    const d = described[modules.indexOf(path)]!;
    if ('reason' in d) return d;
    return { transport: 'module' as const, name: d.meta.name, description: d.meta.description, file: path, bot: d.bot, takeArena: d.takeArena };
  });
}

/**
 * Imports a module bot into this process, for the cases that play it here: isolation `none` (the
 * user chose to trust it) and the in-process half of `bots check`, only ever for the bot selected.
 * Rejects when it does not load, is not a valid bot or is no longer the bot discovery found.
 */
export async function importModuleBot(entry: Pick<ModuleBotEntry, 'file' | 'name' | 'takeArena'>): Promise<AnyBot> {
  let mod: unknown;
  try {
    mod = await import(pathToFileURL(await importableModule(entry.file, entry.takeArena !== false)).href);
  } catch (err) {
    throw new BotLoadError(`Bot file ${entry.file} failed to load: ${oneLine(err)}`);
  }
  const bot = exportedBot(mod);
  if ('reason' in bot) throw new BotLoadError(`Bot file ${entry.file} ${bot.reason}`);
  if (bot.name !== entry.name) throw new BotLoadError(`Bot file ${entry.file} now exports bot \`${bot.name}\`, not \`${entry.name}\``);
  return bot;
}

/** Loads one bot file for a command that names it directly; throws BotLoadError with the reason. */
export async function loadBotFileOrThrow(file: string, settings: DiscoverySettings = {}): Promise<BotEntry> {
  const path = resolve(file);
  if (!existsSync(path)) throw new BotLoadError(`Bot file ${show(file)} does not exist`);
  const loaded = await loadBotFile(path, settings);
  if ('reason' in loaded) throw new BotLoadError(`Bot file ${path} ${loaded.reason}`);
  return loaded;
}

/**
 * Reads every .ts/.js/.mjs module (in child processes: see discovery.ts) and .bot.json manifest in
 * `bots/` plus `extraDirs`; broken files go to `problems`; two bots with one name throw
 * BotLoadError naming both files. A folder named twice is read once.
 */
export async function discoverBots(extraDirs: readonly string[] = [], settings: DiscoverySettings = {}): Promise<BotRegistry> {
  const dirs: string[] = [];
  for (const dir of [BUILTIN_BOTS_DIR, ...extraDirs.map((d) => resolve(d))]) {
    if (dirs.includes(dir)) continue;
    if (dir !== BUILTIN_BOTS_DIR && (!existsSync(dir) || !statSync(dir).isDirectory())) {
      throw new UsageError(`Expected --bots-dir to be a folder of bot files, got ${show(dir)} (not a folder)`);
    }
    dirs.push(dir);
  }
  const files = dirs.flatMap((dir) =>
    existsSync(dir)
      ? readdirSync(dir)
          .filter((f) => isBotFileName(f) || isManifestFileName(f))
          .sort()
          .map((f) => join(dir, f))
      : [],
  );
  const bots: BotEntry[] = [];
  const problems: { file: string; reason: string }[] = [];
  const results = await loadBotFiles(files, settings);
  for (const [i, file] of files.entries()) {
    const loaded = results[i]!;
    if ('reason' in loaded) {
      problems.push({ file, reason: loaded.reason });
      continue;
    }
    const twin = bots.find((b) => b.name === loaded.name);
    if (twin) throw new BotLoadError(`Two bots are named \`${loaded.name}\`: ${twin.file} and ${file}; rename one`);
    bots.push(loaded);
  }
  return { bots, problems };
}

/** A bot file's name without its extension (`x.ts` and `x.bot.json` both give `x`). */
function botFileBase(file: string): string {
  const base = basename(file);
  return base.endsWith(MANIFEST_SUFFIX) ? base.slice(0, -MANIFEST_SUFFIX.length) : basename(file, extname(file));
}

/** Splits `name[:key=value,…]` into the bot name and raw option strings. */
export function parseBotSpec(text: string): { name: string; raw: Record<string, string> } {
  const colon = text.indexOf(':');
  const name = (colon < 0 ? text : text.slice(0, colon)).trim();
  if (!/^[A-Za-z][\w-]*$/.test(name)) {
    throw new UsageError(`Expected a bot like \`minimax\` or \`minimax:depth=8\`, got ${show(text)}`);
  }
  const raw = colon < 0 ? {} : parseKeyValues(text.slice(colon + 1), `bot ${name}`);
  return { name, raw };
}

/** Parses `name[:key=value,…]`, finds the bot (UsageError suggesting the closest names) and validates the options (ParamError). */
export function resolveBot(registry: BotRegistry, text: string): BotChoice {
  const { name, raw } = parseBotSpec(text);
  const entry = registry.bots.find((b) => b.name === name);
  if (!entry) {
    // A broken file named after the bot explains more than "unknown bot".
    const broken = registry.problems.find((p) => botFileBase(p.file) === name);
    if (broken) throw new BotLoadError(`Bot \`${name}\` could not be loaded: ${broken.file} ${broken.reason}`);
    const names = registry.bots.map((b) => b.name);
    throw new UsageError(`Unknown bot \`${name}\`${didYouMean(name, names)}; expected one of: ${names.join(', ') || '(none found)'}`);
  }
  const options = botOptions(entry.bot, raw);
  return { entry, options, label: botLabel(entry.bot, options) };
}

/**
 * Whether a bot plays a variant (its `supports`, or yes). A `supports` that throws is a bot that
 * cannot say yes, so it counts as no rather than taking the caller down.
 */
export function supportedBy(bot: AnyBot, game: AnyGame): boolean {
  if (!bot.supports) return true;
  try {
    return bot.supports(game) === true;
  } catch {
    return false;
  }
}
