/**
 * The program discovery runs for one bot module, in a child process (never in the arena's): it is
 * bundled with the bot into one plain `.mjs` file (discovery.ts) and started under Node's
 * permission model (reads of that file only; no writes, child processes, workers or addons), with
 * an empty environment, inside bubblewrap when the bot is to be sandboxed. It imports the bot,
 * validates its default export, and prints one line: the bot's metadata as plain data — name,
 * description, the option table as schema shapes (core/params.ts `SchemaShape`), and the answer of
 * `supports` for each variant id it is given on the command line — or the reason the file is not
 * a bot. The arena rebuilds the option schemas from the shapes and never needs the bot's code.
 */
import type { AnyBot } from '../core/bot.ts';
import { schemaShape, type ParamSpec, type SchemaShape } from '../core/params.ts';
import { parseVariant } from '../games/index.ts';
import { exportedBot, oneLine } from './bot-module.ts';

/** The line the runner answers with starts with this (a bot's own output may precede it). */
export const DISCOVERY_PREFIX = 'take-arena-discovery ';

/** One option of a bot, as plain data. */
export interface OptionMeta {
  readonly shape: SchemaShape;
  readonly description: string;
  readonly expected: string;
  readonly default?: unknown;
  readonly optional?: boolean;
  readonly choices?: readonly string[];
}

/** A bot module's metadata: what the arena knows of a module bot without running its code. */
export interface BotMeta {
  readonly name: string;
  readonly description: string;
  readonly options: Readonly<Record<string, OptionMeta>>;
  /** `supports` per variant id asked about; null when the bot has no `supports` (it plays everything). */
  readonly supports: Readonly<Record<string, boolean>> | null;
}

/** What the runner prints after the prefix. */
export type DiscoveryAnswer = { readonly meta: BotMeta } | { readonly reason: string };

/** Whether a bot plays a variant; a `supports` that throws or a variant that cannot be built is a no. */
function plays(bot: AnyBot, id: string): boolean {
  try {
    return bot.supports!(parseVariant(id)) === true;
  } catch {
    return false;
  }
}

/** The metadata of a valid bot, or why its option table cannot be sent to the arena. */
export function botMeta(bot: AnyBot, variants: readonly string[], stringify: typeof JSON.stringify = JSON.stringify): DiscoveryAnswer {
  const options: Record<string, OptionMeta> = {};
  for (const [key, spec] of Object.entries((bot.options ?? {}) as Record<string, ParamSpec<unknown>>)) {
    const shape = schemaShape(spec.schema);
    if (!shape) {
      return {
        reason: `default export is not a valid bot: bot ${bot.name}: option \`${key}\` has a schema the arena cannot rebuild outside the bot; build it with intSchema, numberSchema, intSetSchema, intListSchema, rangeSchema or enumSchema (or a plain z.boolean() or z.string())`,
      };
    }
    let fallback: unknown;
    try {
      fallback = spec.default === undefined ? undefined : JSON.parse(stringify(spec.default));
    } catch {
      return { reason: `default export is not a valid bot: bot ${bot.name}: the default of option \`${key}\` is not a JSON value` };
    }
    options[key] = {
      shape,
      description: String(spec.description),
      expected: String(spec.expected),
      ...(fallback !== undefined ? { default: fallback } : {}),
      ...(spec.optional ? { optional: true } : {}),
      ...(spec.choices ? { choices: spec.choices.map(String) } : {}),
    };
  }
  const supports = bot.supports ? Object.fromEntries(variants.map((id) => [id, plays(bot, id)])) : null;
  return { meta: { name: bot.name, description: bot.description, options, supports } };
}

/**
 * The child's way to answer: one line after `prefix`, then exit. Made before the loaded module's
 * code runs, so a module that patches `JSON.stringify`, `process.stdout` or `process.exit` cannot
 * change how the child answers. Also returns the `stringify` it took.
 */
export function answerLine<A>(prefix: string): { answer: (a: A) => void; stringify: typeof JSON.stringify } {
  const stringify = JSON.stringify;
  const write = process.stdout.write.bind(process.stdout);
  const exit = process.exit.bind(process);
  const answer = (a: A): void => {
    let text: string;
    try {
      text = stringify(a);
    } catch (err) {
      text = stringify({ reason: `its answer cannot be sent: ${oneLine(err)}` });
    }
    write(`\n${prefix}${text}\n`, () => exit(0));
  };
  return { answer, stringify };
}

/** Runs discovery of the bot `load` imports; argv[2] is a JSON list of variant ids to ask `supports` about. */
export async function runDiscovery(load: () => Promise<unknown>): Promise<void> {
  // Taken before the bot's code runs: a module that patches globals cannot change how we answer.
  const { answer, stringify } = answerLine<DiscoveryAnswer>(DISCOVERY_PREFIX);
  const variants = JSON.parse(process.argv[2] ?? '[]') as string[];
  let mod: unknown;
  try {
    mod = await load();
  } catch (err) {
    return answer({ reason: `failed to load: ${oneLine(err)}` });
  }
  const bot = exportedBot(mod);
  answer('reason' in bot ? bot : botMeta(bot, variants, stringify));
}
