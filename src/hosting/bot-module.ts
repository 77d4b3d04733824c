/**
 * What every place that holds a bot module's default export shares: unwrapping it, validating it,
 * and validating and labelling a bot's options. Kept apart from discovery (bot-registry.ts) so the
 * small programs that load one bot (the worker loop, the sandbox runner, the discovery runner) are
 * bundled without the registry and its bundler.
 */
import { botProblem, type AnyBot } from '../core/bot.ts';
import { ParamError } from '../core/errors.ts';
import { visible } from '../core/text.ts';
import { formatParamValue, parseParams, type ParamSpec } from '../core/params.ts';

/**
 * One line from whatever an import threw, its control characters made visible. Syntax errors from
 * tsx/esbuild open with a header line ("Transform failed with 1 error:") followed by the useful one
 * (file:line:col: message): keep both.
 */
export function oneLine(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  const lines = text.split('\n').map((l) => l.trim()).filter((l) => l !== '');
  if (lines.length === 0) return visible(text.trim()) || 'unknown error';
  return visible(lines[0]!.endsWith(':') && lines[1] !== undefined ? `${lines[0]} ${lines[1]}` : lines[0]!);
}

/** A module's default export; a TypeScript file compiled to CommonJS arrives as `{ default: { default: bot } }`. */
export function moduleDefault(mod: unknown): unknown {
  const value = (mod as { default?: unknown } | null)?.default;
  if (value !== null && typeof value === 'object' && !('choose' in value) && 'default' in value) return (value as { default: unknown }).default;
  return value;
}

/**
 * The bot a loaded module exports, or the reason it is not one, in the words discovery reports
 * (`has no default export …`, `default export is not a valid bot: …`).
 */
export function exportedBot(mod: unknown): AnyBot | { reason: string } {
  const value = moduleDefault(mod);
  if (value === undefined) return { reason: 'has no default export (expected `export default defineBot({...})`)' };
  const problem = botProblem(value);
  if (problem) return { reason: `default export is not a valid bot: ${problem}` };
  return value as AnyBot;
}

/**
 * The bot a loaded module exports, checked to be bot `name`, with its raw options validated: what
 * a worker thread or a sandboxed runner does before it plays. Throws with the reason otherwise.
 */
export function moduleBot(mod: unknown, name: string, raw: Readonly<Record<string, unknown>>): { bot: AnyBot; options: Record<string, unknown> } {
  const value = moduleDefault(mod);
  const problem = botProblem(value);
  if (problem) throw new Error(problem);
  const bot = value as AnyBot;
  if (bot.name !== name) throw new Error(`expected the module to export bot \`${name}\`, found \`${bot.name}\``);
  return { bot, options: botOptions(bot, raw) };
}

/** Validates raw options (strings or JSON values) against a bot's option table, defaults filled. */
export function botOptions(bot: Pick<AnyBot, 'name' | 'options'>, raw: Readonly<Record<string, unknown>>): Record<string, unknown> {
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
export function botLabel(bot: Pick<AnyBot, 'name' | 'options'>, options: Readonly<Record<string, unknown>>): string {
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
