/**
 * Bot discovery: every `.ts`, `.js` and `.mjs` module in `bots/` and in extra folders is imported
 * and its default export validated as it loads (STYLE.md 9), and every `<name>.bot.json` manifest
 * of an external bot (a program speaking docs/PROTOCOL.md) is validated. A broken file is reported
 * with its reason and skipped; it never stops the others from loading. Also parses bot choices
 * written `name:key=value,key=value` and validates their options.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, extname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { botProblem, type AnyBot } from '../core/bot.ts';
import type { AnyGame } from '../core/game.ts';
import { BotLoadError, ParamError, UsageError, didYouMean, show } from '../core/errors.ts';
import { formatParamValue, parseKeyValues, parseParams, type ParamSpec } from '../core/params.ts';
import { PACKAGE_ROOT } from '../platform/paths.ts';
import { importableModule } from '../platform/typescript.ts';
import { isManifestFileName, loadManifest, MANIFEST_SUFFIX, type ExternalBot } from './manifest.ts';

/** A bot module (run in-process or in worker threads): its file and the validated default export. */
export interface ModuleBotEntry {
  /** Absent on entries made before external bots existed; `module` otherwise. */
  readonly transport?: 'module';
  readonly name: string;
  readonly description: string;
  readonly file: string;
  readonly bot: AnyBot;
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

/** The repo's own `bots/` folder (absolute path). */
export const BUILTIN_BOTS_DIR: string = join(PACKAGE_ROOT, 'bots');

/** File names discovery loads: modules, not type declarations. */
export function isBotFileName(name: string): boolean {
  return /\.(ts|js|mjs)$/.test(name) && !name.endsWith('.d.ts') && !name.startsWith('.');
}

/**
 * One line from whatever an import threw. Syntax errors from tsx/esbuild open with a header line
 * ("Transform failed with 1 error:") followed by the useful one (file:line:col: message): keep both.
 */
function oneLine(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  const lines = text.split('\n').map((l) => l.trim()).filter((l) => l !== '');
  if (lines.length === 0) return text.trim() || 'unknown error';
  return lines[0]!.endsWith(':') && lines[1] !== undefined ? `${lines[0]} ${lines[1]}` : lines[0]!;
}

/**
 * Imports one bot module and validates its default export. Returns the entry, or the reason the
 * file is not a bot (it threw at import, has no default export, or the export is not a valid bot).
 */
export async function loadBotFile(file: string): Promise<BotEntry | { reason: string }> {
  const path = resolve(file);
  if (isManifestFileName(basename(path))) {
    const external = loadManifest(path);
    return 'reason' in external ? external : { ...external, transport: 'process' };
  }
  let mod: Record<string, unknown>;
  try {
    mod = (await import(pathToFileURL(await importableModule(path)).href)) as Record<string, unknown>;
  } catch (err) {
    return { reason: `failed to load: ${oneLine(err)}` };
  }
  let value = mod['default'];
  // A TypeScript file compiled to CommonJS arrives as `{ default: { default: bot } }`.
  if (value !== null && typeof value === 'object' && !('choose' in value) && 'default' in value) {
    value = (value as { default: unknown }).default;
  }
  if (value === undefined) return { reason: 'has no default export (expected `export default defineBot({...})`)' };
  const problem = botProblem(value);
  if (problem) return { reason: `default export is not a valid bot: ${problem}` };
  const bot = value as AnyBot;
  return { transport: 'module', name: bot.name, description: bot.description, file: path, bot };
}

/** Loads one bot file for a command that names it directly; throws BotLoadError with the reason. */
export async function loadBotFileOrThrow(file: string): Promise<BotEntry> {
  const path = resolve(file);
  if (!existsSync(path)) throw new BotLoadError(`Bot file ${show(file)} does not exist`);
  const loaded = await loadBotFile(path);
  if ('reason' in loaded) throw new BotLoadError(`Bot file ${path} ${loaded.reason}`);
  return loaded;
}

/**
 * Loads every .ts/.js/.mjs module and .bot.json manifest in `bots/` plus `extraDirs`; broken files go to `problems`; two
 * bots with one name throw BotLoadError naming both files. A folder named twice is read once.
 */
export async function discoverBots(extraDirs: readonly string[] = []): Promise<BotRegistry> {
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
  // Imports run one after another so a file's top-level side effects happen in a stable order.
  for (const file of files) {
    const loaded = await loadBotFile(file);
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

/**
 * The bot a loaded module exports, checked to be bot `name`, with its raw options validated: what
 * a worker thread or a sandboxed runner does before it plays. Throws with the reason otherwise.
 */
export function moduleBot(mod: unknown, name: string, raw: Readonly<Record<string, unknown>>): { bot: AnyBot; options: Record<string, unknown> } {
  let value = (mod as { default?: unknown } | null)?.default;
  // A TypeScript file compiled to CommonJS arrives as `{ default: { default: bot } }`.
  if (value !== null && typeof value === 'object' && !('choose' in value) && 'default' in value) value = (value as { default: unknown }).default;
  const problem = botProblem(value);
  if (problem) throw new Error(problem);
  const bot = value as AnyBot;
  if (bot.name !== name) throw new Error(`expected the module to export bot \`${name}\`, found \`${bot.name}\``);
  return { bot, options: botOptions(bot, raw) };
}

/** Validates raw options (strings or JSON values) against a bot's option table, defaults filled. */
export function botOptions(bot: AnyBot, raw: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const specs = (bot.options ?? {}) as Readonly<Record<string, ParamSpec<unknown>>>;
  try {
    return parseParams<Record<string, unknown>>(`bot ${bot.name}`, specs, raw);
  } catch (err) {
    if (err instanceof ParamError && !err.message.includes(`bot ${bot.name}`)) {
      throw new ParamError(`${err.message} (option of bot ${bot.name})`);
    }
    throw err;
  }
}

/** The canonical label of a bot with options: its name, then the options that differ from their defaults. */
export function botLabel(bot: AnyBot, options: Readonly<Record<string, unknown>>): string {
  const specs = (bot.options ?? {}) as Readonly<Record<string, ParamSpec<unknown>>>;
  const parts: string[] = [];
  for (const [key, spec] of Object.entries(specs)) {
    const value = options[key];
    if (value === undefined) continue;
    const text = formatParamValue(value);
    if (spec.default !== undefined && formatParamValue(spec.default) === text) continue;
    parts.push(`${key}=${text}`);
  }
  return parts.length ? `${bot.name}:${parts.join(',')}` : bot.name;
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
