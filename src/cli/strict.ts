/**
 * Strict argument checking shared by every command: unknown flags and stray words are errors with
 * the closest name, a repeated scalar flag keeps its last value, and every yargs failure becomes
 * one line. It reads each command's own declared options (yargs' `getOptions()`), so a new command
 * module is strict without being listed anywhere.
 */
import { UsageError, closest } from '../core/errors.ts';

/** The part of yargs' option table this module reads (declared per command by its builder). */
export interface DeclaredOptions {
  readonly key: Readonly<Record<string, unknown>>;
  readonly alias: Readonly<Record<string, readonly string[]>>;
  readonly array: readonly string[];
  readonly boolean: readonly string[];
}

/** A flag as typed: `--name`, `--name=value`, `-n`, `-abc` (short flags grouped). Null for a value or `--`. */
function flagNames(token: string): string[] | null {
  const long = /^--([^=]+)(=.*)?$/s.exec(token);
  if (long) return [long[1]!];
  // A single dash followed by a digit is a negative number, not a flag; a lone `-` is a word.
  if (/^-[^-\d]/.test(token)) {
    const body = token.slice(1).split('=')[0]!;
    return [...body];
  }
  return null;
}

/** Every name the command accepts, with yargs' camelCase twins and aliases. */
function knownNames(options: DeclaredOptions): Set<string> {
  const known = new Set<string>();
  const add = (name: string): void => {
    known.add(name);
    known.add(name.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase()));
  };
  for (const key of Object.keys(options.key)) add(key);
  for (const [key, aliases] of Object.entries(options.alias)) {
    add(key);
    for (const a of aliases) add(a);
  }
  return known;
}

/** ` (did you mean \`x\`?)` with the single closest candidate, or the empty string. */
function nearest(word: string, candidates: readonly string[]): string {
  const best = closest(word, candidates)[0];
  return best === undefined ? '' : ` (did you mean \`${best}\`?)`;
}

/** The flags as a user would type them, for "did you mean" hints. */
function flagSpellings(options: DeclaredOptions): string[] {
  const names = new Set<string>(Object.keys(options.key));
  for (const [key, aliases] of Object.entries(options.alias)) for (const a of [key, ...aliases]) names.add(a);
  return [...names].filter((n) => !/[A-Z]/.test(n)).map((n) => (n.length === 1 ? `-${n}` : `--${n}`));
}

/**
 * Throws a UsageError for the first flag in `argv` (the raw words, before `--`) that the command
 * does not declare, with the closest declared flag. `--no-x` is accepted only for a boolean `x`.
 */
export function checkFlags(argv: readonly string[], options: DeclaredOptions): void {
  const known = knownNames(options);
  const booleans = new Set(options.boolean);
  for (const token of argv) {
    if (token === '--') break;
    const names = flagNames(token);
    if (!names) continue;
    for (const name of names) {
      if (known.has(name)) continue;
      const negated = /^no-(.+)$/.exec(name)?.[1];
      if (negated !== undefined && booleans.has(negated)) continue;
      const typed = name.length === 1 && !token.startsWith('--') ? `-${name}` : `--${name}`;
      throw new UsageError(`Unknown option ${typed}${nearest(typed, flagSpellings(options))}`);
    }
  }
}

/**
 * yargs turns a repeated flag into an array. For a flag not declared as a list, the last value
 * wins (as in most CLIs), so no handler ever receives an array where it expects one value.
 */
export function lastOfRepeated(argv: Record<string, unknown>, options: DeclaredOptions): void {
  const lists = new Set(options.array);
  for (const name of knownNames({ ...options, key: Object.fromEntries(options.array.map((a) => [a, true])) })) lists.add(name);
  for (const [key, value] of Object.entries(argv)) {
    if (key === '_' || !Array.isArray(value) || lists.has(key)) continue;
    argv[key] = value[value.length - 1];
  }
}

/**
 * A run of words such as `subtractionmoves=1 subtraction5 subtraction8` is what a shell makes of
 * the unquoted `subtraction{moves=1,5,8}` (brace expansion). Returns the quoted id to paste, or
 * undefined when `argv` has no such run.
 */
export function shellExpandedVariant(argv: readonly string[], families: readonly string[]): string | undefined {
  const words = argv.map((w) => w.replace(/^--[\w-]+=/, ''));
  // Longer ids first, so that a family whose id starts with another's is matched whole.
  const ids = [...families].sort((a, b) => b.length - a.length);
  for (let i = 0; i < words.length - 1; i++) {
    const id = ids.find((f) => words[i]!.startsWith(f) && words[i]!.length > f.length);
    if (id === undefined || /[{}]/.test(words[i]!) || !/^[\w-]+=/.test(words[i]!.slice(id.length))) continue;
    const parts = [words[i]!.slice(id.length)];
    for (let j = i + 1; j < words.length && words[j]!.startsWith(id) && words[j]!.length > id.length && !/[{}]/.test(words[j]!); j++) {
      parts.push(words[j]!.slice(id.length));
    }
    if (parts.length >= 2) return `'${id}{${parts.join(',')}}'`;
  }
  return undefined;
}

/** What yargs' usage object offers a failure handler (the command's usage lines and subcommands). */
export interface FailureContext {
  getUsage(): readonly (readonly [string, ...unknown[]])[];
  getCommands(): readonly (readonly [string, ...unknown[]])[];
}

/** Where a failure happened: the command's usage line (`$0 bots check <bot>`) and its subcommands' usage lines. */
export interface FailurePlace {
  readonly usage: string | undefined;
  readonly commands: readonly string[];
}

/** The positional words of `argv` (not flags, not flag values given with `=`), in order. */
function words(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (const token of argv) {
    if (token === '--') break;
    if (flagNames(token) === null) out.push(token);
  }
  return out;
}

/**
 * One line for a yargs validation failure: names the unknown command or word, the closest command,
 * the missing argument with the command's usage, a value to quote, or an unquoted variant id.
 */
export function failureMessage(message: string, argv: readonly string[], place: FailurePlace, script: string, families: readonly string[]): string {
  const usage = place.usage?.split('\n')[0]!.replace(/^\$0/, script);
  const commands = place.commands.map((c) => c.split(' ')[0]!);
  const expanded = shellExpandedVariant(argv, families);
  if (expanded !== undefined) {
    return `The shell expanded an unquoted variant id (its braces and commas); quote variant ids: ${expanded}`;
  }
  const recommended = /^Did you mean (.+)\?$/.exec(message)?.[1];
  if (recommended !== undefined) {
    // The command words of the usage line (`arena bots check <bot>` → 2), before its placeholders.
    const path = usage === undefined ? [] : usage.split(' ').slice(1);
    const placeholder = path.findIndex((w) => /^[<[]/.test(w));
    const depth = placeholder < 0 ? path.length : placeholder;
    const typed = words(argv)[depth] ?? '';
    return `Unknown command ${typed ? `\`${typed}\` ` : ''}(did you mean \`${recommended}\`?)`;
  }
  const unknown = /^Unknown (?:arguments?|commands?): (.+)$/s.exec(message)?.[1];
  if (unknown !== undefined) {
    const names = unknown.split(', ');
    const flag = names.find((n) => argv.some((t) => t === `--${n}` || t.startsWith(`--${n}=`) || t === `-${n}`));
    if (flag !== undefined) return `Unknown option ${flag.length === 1 ? '-' : '--'}${flag}`;
    const stray = names;
    const first = stray[0]!;
    const at = argv.indexOf(first);
    const before = at > 0 ? argv[at - 1]! : undefined;
    const quoted = before !== undefined ? /^(--[\w-]+)=(.*)$/s.exec(before) : null;
    if (quoted) {
      const run = argv.slice(at, at + stray.length).join(' ');
      return `Unexpected ${stray.join(' ')} after ${before} (a value with spaces must be quoted: ${quoted[1]} "${quoted[2]} ${run}")`;
    }
    const hint = commands.length > 0 ? nearest(first, commands) : '';
    const where = usage !== undefined ? `; usage: ${usage}` : '';
    return `Unexpected argument${stray.length > 1 ? 's' : ''} ${stray.map((s) => `\`${s}\``).join(', ')}${hint}${where}`;
  }
  const missing = /^(Not enough non-option arguments|Missing required arguments?)/.test(message);
  if (missing) return `${message.split('\n')[0]!.replace(/^Not enough non-option arguments.*$/, 'Missing an argument')}${usage !== undefined ? `; usage: ${usage}` : ''}`;
  const choice = /Argument: ([\w-]+), Given: (.+), Choices: (.+)$/m.exec(message);
  if (choice) return `Expected --${choice[1]} to be one of ${choice[3]!.replace(/"/g, '')}, got ${choice[2]}`;
  return message.replace(/\s*\n\s*/g, '; ');
}
