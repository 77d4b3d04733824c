/**
 * One line for a yargs parse failure (an unknown flag or command, a stray or missing argument, a
 * value outside a flag's choices), worded from yargs' own message, the words typed and what yargs
 * would have printed with it: the failing command's help and its declared flags.
 */
import { closest } from '../core/errors.ts';
import { oneOf } from './argv.ts';

/** A failed parse, as the CLI's `.fail()` handler collects it. */
export interface ParseFailure {
  /** yargs' message (English: the CLI sets its locale). */
  readonly message: string;
  /** The words of the command line. */
  readonly words: readonly string[];
  /** The failing command's help text, as yargs prints it: its first line is the usage. */
  readonly help: string;
  /** The failing command's declared flags as a user types them: `--deals`, `-h`. */
  readonly flags: readonly string[];
}

/** A flag as typed: `--name`, `--name=value`, `-n`, `-abc` (short flags grouped). Null for a value or `--`. */
function flagNames(token: string): string[] | null {
  const long = /^--([^=]+)(=.*)?$/s.exec(token);
  if (long) return [long[1]!];
  // A single dash followed by a digit is a negative number, not a flag; a lone `-` is a word.
  if (/^-[^-\d]/.test(token)) return [...token.slice(1).split('=')[0]!];
  return null;
}

/** The positional words of a command line (not flags, not flag values given with `=`), in order. */
function positionals(words: readonly string[]): string[] {
  const out: string[] = [];
  for (const token of words) {
    if (token === '--') break;
    if (flagNames(token) === null) out.push(token);
  }
  return out;
}

/** ` (did you mean \`x\`?)` with the single closest candidate, or the empty string. */
function nearest(word: string, candidates: readonly string[]): string {
  const best = closest(word, candidates)[0];
  return best === undefined ? '' : ` (did you mean \`${best}\`?)`;
}

/** The first flag typed (as typed) whose name yargs reports unknown; `--no-x` counts for `x`. */
function unknownFlag(words: readonly string[], unknown: readonly string[]): string | undefined {
  for (const token of words) {
    if (token === '--') break;
    for (const name of flagNames(token) ?? []) {
      if (unknown.includes(name) || unknown.includes(name.replace(/^no-/, ''))) return name.length === 1 && !token.startsWith('--') ? `-${name}` : `--${name}`;
    }
  }
  return undefined;
}

/** A help text's usage line and the names of the subcommands it lists. */
function helpPlace(help: string): { usage: string | undefined; commands: string[] } {
  const lines = help.split('\n');
  const commands: string[] = [];
  const start = lines.indexOf('Commands:');
  for (const l of start < 0 ? [] : lines.slice(start + 1)) {
    if (l.trim() === '') break;
    // `  arena bots check <bot>  description`: the last word before the placeholders.
    const path = l.trim().split(/\s{2,}/)[0]!.split(' ');
    const end = path.findIndex((w) => /^[<[]/.test(w));
    commands.push(path[(end < 0 ? path.length : end) - 1]!);
  }
  return { usage: lines[0]?.trim() || undefined, commands };
}

/**
 * A run of words such as `subtractionmoves=1 subtraction5 subtraction8` is what a shell makes of
 * the unquoted `subtraction{moves=1,5,8}` (brace expansion). Returns the quoted id to paste, or
 * undefined when `words` have no such run.
 */
export function shellExpandedVariant(words: readonly string[], families: readonly string[]): string | undefined {
  const values = words.map((w) => w.replace(/^--[\w-]+=/, ''));
  // Longer ids first, so that a family whose id starts with another's is matched whole.
  const ids = [...families].sort((a, b) => b.length - a.length);
  for (let i = 0; i < values.length - 1; i++) {
    const id = ids.find((f) => values[i]!.startsWith(f) && values[i]!.length > f.length);
    if (id === undefined || /[{}]/.test(values[i]!) || !/^[\w-]+=/.test(values[i]!.slice(id.length))) continue;
    const parts = [values[i]!.slice(id.length)];
    for (let j = i + 1; j < values.length && values[j]!.startsWith(id) && values[j]!.length > id.length && !/[{}]/.test(values[j]!); j++) {
      parts.push(values[j]!.slice(id.length));
    }
    if (parts.length >= 2) return `'${id}{${parts.join(',')}}'`;
  }
  return undefined;
}

/** `Unknown command `x` (did you mean `y`?)` for yargs' recommendation `y`. */
function unknownCommand(recommended: string, words: readonly string[], usage: string | undefined): string {
  // The command words of the usage line (`arena bots check <bot>` → 2), before its placeholders.
  const path = usage === undefined ? [] : usage.split(' ').slice(1);
  const placeholder = path.findIndex((w) => /^[<[]/.test(w));
  const typed = positionals(words)[placeholder < 0 ? path.length : placeholder] ?? '';
  return `Unknown command ${typed ? `\`${typed}\` ` : ''}(did you mean \`${recommended}\`?)`;
}

/** An unknown flag with the closest declared one, or stray words with where they went wrong. */
function unknownArguments(names: readonly string[], f: ParseFailure, place: ReturnType<typeof helpPlace>): string {
  const flag = unknownFlag(f.words, names);
  if (flag !== undefined) return `Unknown option ${flag}${nearest(flag, f.flags)}`;
  const first = names[0]!;
  const at = f.words.indexOf(first);
  const before = at > 0 ? f.words[at - 1]! : undefined;
  const quoted = before !== undefined ? /^(--[\w-]+)=(.*)$/s.exec(before) : null;
  if (quoted) {
    const run = f.words.slice(at, at + names.length).join(' ');
    return `Unexpected ${names.join(' ')} after ${before} (a value with spaces must be quoted: ${quoted[1]} "${quoted[2]} ${run}")`;
  }
  const hint = place.commands.length > 0 ? nearest(first, place.commands) : '';
  const where = place.usage !== undefined ? `; usage: ${place.usage}` : '';
  return `Unexpected argument${names.length > 1 ? 's' : ''} ${names.map((s) => `\`${s}\``).join(', ')}${hint}${where}`;
}

/** A value outside a flag's (or a positional's) choices: `Expected --format to be round-robin, gauntlet, swiss or knockout, got "ladder"`. */
function outsideChoices(name: string, given: string, choices: string, usage: string | undefined): string {
  const values = choices.split(', ').map((c) => String(JSON.parse(c)));
  const positional = usage?.split(' ').some((w) => w === `<${name}>` || w === `[${name}]`) ?? false;
  return `Expected ${positional ? `\`${name}\`` : `--${name}`} to be ${oneOf(values)}, got ${given}`;
}

/**
 * One line for a yargs validation failure: the unknown command or flag with the closest one, a
 * stray or missing argument with the command's usage, a value to quote, a value outside its
 * choices, or an unquoted variant id (`families`: the ids a shell may have expanded).
 */
export function failureMessage(f: ParseFailure, families: readonly string[]): string {
  const expanded = shellExpandedVariant(f.words, families);
  if (expanded !== undefined) return `The shell expanded an unquoted variant id (its braces and commas); quote variant ids: ${expanded}`;
  const place = helpPlace(f.help);
  const recommended = /^Did you mean (.+)\?$/.exec(f.message)?.[1];
  if (recommended !== undefined) return unknownCommand(recommended, f.words, place.usage);
  const unknown = /^Unknown (?:arguments?|commands?): (.+)$/s.exec(f.message)?.[1];
  if (unknown !== undefined) return unknownArguments(unknown.split(', '), f, place);
  if (/^(Not enough non-option arguments|Missing required arguments?)/.test(f.message)) {
    const what = /^Not enough non-option arguments/.test(f.message) ? 'Missing an argument' : f.message.split('\n')[0]!;
    return `${what}${place.usage !== undefined ? `; usage: ${place.usage}` : ''}`;
  }
  const choice = /Argument: ([\w-]+), Given: (.+), Choices: (.+)$/m.exec(f.message);
  if (choice) return outsideChoices(choice[1]!, choice[2]!, choice[3]!, place.usage);
  return f.message.replace(/\s*\n\s*/g, '; ');
}
