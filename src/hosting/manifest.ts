/**
 * External bot manifests: `<name>.bot.json` beside the bot modules, describing a program in any
 * language that speaks the JSON-lines protocol (docs/PROTOCOL.md). A manifest is validated as it
 * is discovered, so a typo is reported by file like any broken bot module.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { z } from 'zod';
import { defineBot, type AnyBot } from '../core/bot.ts';
import { show } from '../core/errors.ts';
import { FAMILIES } from '../games/index.ts';
import { didYouMean } from '../core/errors.ts';
import { visible } from '../core/text.ts';

/** The suffix of manifest files. */
export const MANIFEST_SUFFIX = '.bot.json';

/** Whether discovery reads a file name as a manifest. */
export function isManifestFileName(name: string): boolean {
  return name.endsWith(MANIFEST_SUFFIX) && !name.startsWith('.') && name.length > MANIFEST_SUFFIX.length;
}

/** The manifest's fields, validated. */
const manifestSchema = z.strictObject({
  name: z
    .string()
    .regex(/^[A-Za-z][\w-]*$/, 'letters, digits, - or _, starting with a letter')
    .describe('Unique bot name, as used on the command line and in standings'),
  description: z.string().min(1, 'a non-empty string').describe('One line about how it plays'),
  command: z
    .array(z.string().min(1, 'non-empty strings'))
    .min(1, 'a non-empty array of strings')
    .describe('The program and its arguments, run without a shell, e.g. ["python3", "bot.py"]'),
  cwd: z.string().optional().describe('Working folder, relative to the manifest (default: the manifest\'s folder)'),
  supports: z.array(z.string()).optional().describe('Game families the bot plays (default: all)'),
});

/** A discovered external bot: the manifest with its folder resolved. */
export interface ExternalBot {
  readonly name: string;
  readonly description: string;
  /** The manifest file (absolute). */
  readonly file: string;
  readonly command: readonly string[];
  /** The program's working folder (absolute). */
  readonly cwd: string;
  /** Families it plays, or null for all. */
  readonly supports: readonly string[] | null;
  /**
   * A descriptor standing for the program where a module bot is expected (names, `supports`,
   * listings). It cannot play in-process: its `choose` throws, so hosts must run the program.
   */
  readonly bot: AnyBot;
}

/** One line per zod issue, naming the field: "`command`: expected a non-empty array of strings, got []". */
function issueText(issue: z.core.$ZodIssue, raw: unknown): string {
  const path = issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('').replace(/^\./, '');
  if (issue.code === 'unrecognized_keys') {
    return `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `\`${k}\``).join(', ')} (expected name, description, command, cwd, supports)`;
  }
  let got: unknown = raw;
  for (const p of issue.path) got = got !== null && typeof got === 'object' ? (got as Record<PropertyKey, unknown>)[p as PropertyKey] : undefined;
  return `expected \`${path || 'manifest'}\` to be ${issue.code === 'invalid_type' ? issue.expected : issue.message}, got ${show(got)}`;
}

/**
 * Reads and validates one manifest. Returns the bot, or the reason the file is not one (bad JSON,
 * a bad field, an unknown family, a missing working folder or program file). The reason quotes the
 * file (JSON.parse quotes what it choked on, paths come from it): its control characters are made
 * visible (core/text.ts), as the description's are.
 */
export function loadManifest(file: string): ExternalBot | { reason: string } {
  const loaded = readManifest(file);
  return 'reason' in loaded ? { reason: visible(loaded.reason) } : loaded;
}

function readManifest(file: string): ExternalBot | { reason: string } {
  const path = resolve(file);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    return { reason: `is not a valid manifest: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}` };
  }
  const parsed = manifestSchema.safeParse(raw);
  if (!parsed.success) return { reason: `is not a valid manifest: ${issueText(parsed.error.issues[0]!, raw)}` };
  const m = parsed.data;
  const ids = FAMILIES.map((f) => f.id);
  for (const [i, family] of (m.supports ?? []).entries()) {
    if (!ids.includes(family)) {
      return { reason: `is not a valid manifest: \`supports[${i}]\`: unknown game family \`${family}\`${didYouMean(family, ids)}; expected one of: ${ids.join(', ')}` };
    }
  }
  const cwd = resolve(dirname(path), m.cwd ?? '.');
  if (!existsSync(cwd) || !statSync(cwd).isDirectory()) {
    return { reason: `is not a valid manifest: expected \`cwd\` to be a folder, got ${show(m.cwd)} (${cwd} is not a folder)` };
  }
  // A program named by a path (not looked up on PATH) must exist; a compiled bot not built yet is
  // the common case, so the message says where it was looked for.
  const program = m.command[0]!;
  if (program.includes('/')) {
    const at = isAbsolute(program) ? program : resolve(cwd, program);
    if (!existsSync(at)) return { reason: `command ${show(program)} not found (looked for ${at}; build it first?)` };
  }
  const supports = m.supports ?? null;
  // The description is shown by listings: its control characters made visible (core/text.ts).
  const description = visible(m.description);
  const bot = defineBot({
    name: m.name,
    description,
    ...(supports ? { supports: (game) => supports.includes(game.family) } : {}),
    choose() {
      throw new Error(`bot ${m.name} is an external program (${m.command.join(' ')}); it plays through a process host, not in-process`);
    },
  });
  return { name: m.name, description, file: path, command: m.command, cwd, supports, bot };
}
