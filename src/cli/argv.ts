/**
 * How the CLI's words are read, before and by yargs (this module is on every start's path: no
 * schema library here).
 */

/**
 * How yargs reads every command's words. A command that sets a configuration of its own starts
 * from this one (yargs replaces the whole configuration, it does not merge it).
 */
export const PARSER_CONFIGURATION = {
  // Numbers stay text until their schema reads them: `--seed 0x10`, `--deals 1e3` or an empty
  // `--seed=` are refused rather than read as 16, 1000 or 0, and big parameters keep every digit.
  'parse-numbers': false,
  'parse-positional-numbers': false,
  // A list flag takes one value each time it is given (`--bots-dir A --bots-dir B`), so the word
  // after it is the next argument (a spec file), never a second folder.
  'greedy-arrays': false,
} as const;

/**
 * Glues `--flag -1 3 9 4` into `--flag=-1 3 9 4`: a value that starts with a minus sign and a digit
 * (a negative number or a row of numbers) would otherwise be read as short options.
 */
export function joinNegativeValues(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const next = argv[i + 1];
    if (/^--[A-Za-z][\w-]*$/.test(arg) && next !== undefined && /^-\d/.test(next)) {
      out.push(`${arg}=${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}

/** `a`, `a or b`, `a, b or c`. */
export function oneOf(values: readonly string[]): string {
  return values.length <= 1 ? (values[0] ?? '') : `${values.slice(0, -1).join(', ')} or ${values.at(-1)!}`;
}
