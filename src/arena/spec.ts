import { z } from 'zod';
import { ArenaError, SpecError, show } from '../core/errors.ts';
import type { AnyGame } from '../core/game.ts';
import { makeGame, parseVariant } from '../games/index.ts';
import { DEFAULT_GRACE_MS, DEFAULT_PREPARE_TIMEOUT_MS, DEFAULT_SANDBOX_CPU_SECONDS } from '../hosting/host.ts';
import { CLOCK_KINDS } from '../platform/cpu-clock.ts';
import { jsonErrorPlace, type TextPlace } from '../platform/json.ts';
import { TIME_CONTROL_EXPECTED, TIME_CONTROL_PATTERN, timeControlProblem } from './time-control.ts';

/** The per-move limit of a spec that sets neither `timePerMoveMs` nor `timeControl` (ms). */
export const DEFAULT_TIME_PER_MOVE_MS = 1000;

/** A variant in a spec: a variant id string, or a family with raw parameters. */
export const VariantSpecSchema = z.union([
  z.string().min(1).describe('A variant id, e.g. "subtraction{moves=1,5,8,10;n=50..200}"'),
  z
    .object({
      family: z.string().min(1).describe('The game family id, e.g. "subtraction" (see `arena games`)'),
      params: z
        .record(z.string(), z.unknown())
        .optional()
        .describe('The family parameters (see `arena games`); defaults fill the rest'),
    })
    .strict(),
]);

/** A time control in the cutechess notation, as the spec's `timeControl` and a bot's `tc` take it. */
const TimeControlText = z
  .string()
  .regex(new RegExp(TIME_CONTROL_PATTERN), { error: (issue) => `expected ${timeControlProblem(String(issue.input)) ?? TIME_CONTROL_EXPECTED}`, abort: true })
  .superRefine((text, ctx) => {
    const problem = timeControlProblem(text);
    if (problem) ctx.addIssue({ code: 'custom', message: `expected ${problem}`, abort: true });
  });

/** A bot of `bots` with a clock of its own (time odds). */
const BotWithClockSchema = z
  .object({
    name: z.string().min(1).describe('The bot with options, as in the list form, e.g. "minimax:depth=6"'),
    tc: TimeControlText.optional().describe("This bot's own time bank (time odds), as `timeControl` writes it: \"10+0.1\"; it replaces the spec's limits for this bot"),
    timePerMoveMs: z.number().int().min(1).max(3_600_000).optional().describe("This bot's own time limit per move in milliseconds"),
  })
  .strict();

/** The tournament spec (a JSON file in `tournaments/`); `tournaments/schema.json` is generated from it. */
export const TournamentSpecSchema = z
  .object({
    $schema: z.string().optional().describe('Path or URL of this JSON Schema, for editors'),
    name: z
      .string()
      .regex(/^[A-Za-z0-9][\w.-]*$/)
      .max(64)
      .default('tournament')
      .describe('Name of the tournament; the results folder is <out>/<name>-<timestamp>'),
    description: z.string().optional().describe('Free text about the tournament'),
    seed: z
      .number()
      .int()
      .min(0)
      .max(0xffffffff)
      .default(1)
      .describe("Master seed: each deal is derived from it and the deal's place in the schedule, each bot's generator from that, its seat and its own name (never its opponent's)"),
    games: z.array(VariantSpecSchema).min(1).describe('The game variants played by every pairing'),
    bots: z
      .union([z.literal('all'), z.array(z.union([z.string().min(1), BotWithClockSchema])).min(2)])
      .default('all')
      .describe(
        'Bots with options, e.g. ["optimal", "minimax:depth=6"], or "all" for every discovered bot; a bot with a clock of its own (time odds) as {"name": "minimax", "tc": "10+0.1"} or "minimax:tc=10+0.1" (`time=500`: ms per move)',
      ),
    format: z
      .enum(['round-robin', 'gauntlet', 'swiss', 'knockout'])
      .default('round-robin')
      .describe(
        '`round-robin`: every pair of bots plays; `gauntlet`: the `champion` plays each other bot, nobody else plays; `swiss`: `rounds` rounds paired by score; `knockout`: a seeded bracket, the loser of each match out',
      ),
    rounds: z.number().int().min(1).max(1000).optional().describe('Rounds of a Swiss (required with `format: "swiss"`; fewer than the bots)'),
    tiebreakPairs: z
      .number()
      .int()
      .min(0)
      .max(100)
      .default(2)
      .describe('Knockout: extra game pairs a level match plays, one at a time until one bot leads; still level, the higher seed goes through'),
    anchor: z
      .string()
      .regex(/^\S.*=-?\d+(?:\.\d+)?$/, 'expected bot=elo, like "random=0"')
      .optional()
      .describe('A bot and the Elo it holds, e.g. "random=0": every rating is shifted so the anchor has that value'),
    ratingsIn: z.string().min(1).optional().describe("A ratings file (JSON) whose latest ratings seed a Swiss or a knockout"),
    ratingsOut: z.string().min(1).optional().describe("A ratings file (JSON) this tournament's ratings are appended to when it completes (created when missing)"),
    seedRatings: z
      .record(z.string(), z.number())
      .optional()
      .describe('Prior ratings by bot label that seed a Swiss or a knockout; filled from `ratingsIn` when the tournament starts and saved with it, so a resume seeds the same'),
    champion: z
      .string()
      .min(1)
      .optional()
      .describe('The bot a gauntlet is about (written as in `bots`, e.g. "minimax:depth=6"); required with `format: "gauntlet"`'),
    sprt: z
      .object({
        elo0: z.number().describe('Elo of H0 (the champion is no better than this)'),
        elo1: z.number().describe('Elo of H1 (the champion is at least this much better); above elo0'),
        alpha: z.number().gt(0).lt(0.5).default(0.05).describe('Chance of accepting H1 when H0 holds'),
        beta: z.number().gt(0).lt(0.5).default(0.05).describe('Chance of accepting H0 when H1 holds'),
        model: z
          .enum(['normalized', 'logistic'])
          .default('normalized')
          .describe('Which Elo elo0 and elo1 are in: normalized (as fishtest and fastchess) or logistic (plain)'),
      })
      .strict()
      .optional()
      .describe('Sequential test on game pairs for each pairing of a gauntlet: a pairing stops when H0 or H1 is accepted (`deals` caps it)'),
    adjudicate: z
      .boolean()
      .default(false)
      .describe("End a game as soon as the variant's exact solver knows its result (both bots having moved): termination `adjudicated`"),
    deals: z.number().int().min(1).max(1_000_000).default(2).describe('Deals per pairing and variant; each is played in both seatings (with `starts`: plays of each start, default 1)'),
    starts: z
      .union([z.string().min(1), z.array(z.string()).min(1)])
      .optional()
      .describe(
        "A suite of start positions: a file (relative to the current folder) or its lines, one position a line in the family's notation (`arena games`; `#` starts a comment). Every pairing plays each start in both seatings instead of dealt positions",
      ),
    startsOrder: z
      .enum(['sequential', 'random'])
      .default('sequential')
      .describe('The order the suite is played in: as written, or shuffled by the master seed'),
    startsPerPair: z.number().int().min(1).optional().describe('How many starts of the suite (the first, in `startsOrder`) every pairing plays (default: all)'),
    timePerMoveMs: z
      .number()
      .positive()
      .max(3_600_000)
      .optional()
      .describe(`Time limit per move in milliseconds (default ${DEFAULT_TIME_PER_MOVE_MS}; with \`timeControl\`, none unless set: a move may then use the whole bank)`),
    timeControl: TimeControlText.optional()
      .describe(
        'A time bank per bot and game, as cutechess writes it: "10+0.1" is 10 s per game plus 0.1 s added after each move. Each move\'s think time is taken from the bank; a move longer than the bank (plus `timeMarginMs`) loses on time. With `timePerMoveMs` too, a move is limited by whichever is smaller',
      ),
    timeMarginMs: z
      .number()
      .int()
      .min(0)
      .max(60_000)
      .optional()
      .describe(`How far past its limit (per move or bank) a bot may answer before it loses on time: room for the arena's own overhead, in milliseconds (default ${DEFAULT_GRACE_MS})`),
    clock: z
      .enum(CLOCK_KINDS)
      .default('cpu')
      .describe(
        "What a bot's moves are charged: `cpu`, the CPU time its thread or process used (a busy machine does not make it lose on time; a move that sleeps or blocks is still stopped at ten times its limit plus 2 s of wall time), or `wall`, the time that passed. Limits, time banks and the built-in bots' budgets all use it; where the platform has no CPU clock, `cpu` runs on the wall clock and says so",
      ),
    prepareTimeoutMs: z
      .number()
      .positive()
      .max(3_600_000)
      .default(DEFAULT_PREPARE_TIMEOUT_MS)
      .describe("Budget in milliseconds of a bot's `prepare` (its warm-up, once per variant before its first move in it)"),
    concurrency: z.number().int().min(1).max(256).optional().describe('Games played at once (default: one per CPU core at first, then as many as pay: many for bots that answer in microseconds under worker isolation)'),
    isolation: z
      .enum(['worker', 'none', 'sandbox'])
      .default('worker')
      .describe(
        '`worker`: each module bot in processes of its own (safe from faults, not from malice); `none`: in-process, for trusted bots when speed matters; `sandbox`: each bot a process in a bubblewrap namespace with resource caps, for bots written by other people (docs/SECURITY.md)',
      ),
    botIsolation: z
      .record(z.string().regex(/^[A-Za-z][\w-]*$/), z.enum(['worker', 'none', 'sandbox']))
      .default({})
      .describe('Isolation of particular bots by name, e.g. {"their-bot": "sandbox"}: built-ins can stay fast while others\' bots are sandboxed'),
    memoryMb: z
      .number()
      .int()
      .min(16)
      .max(65_536)
      .default(512)
      .describe('Memory of each bot in MB: the heap limit of a worker or sandboxed module bot; the address-space cap of a sandboxed process (2048 MB more when it runs Node)'),
    cpuSeconds: z
      .number()
      .int()
      .min(1)
      .max(86_400)
      .default(DEFAULT_SANDBOX_CPU_SECONDS)
      .describe('CPU seconds each sandboxed bot process may use over its life (isolation `sandbox`); past it the process is killed and its game forfeited as `crash`'),
    revealOpponents: z
      .boolean()
      .default(false)
      .describe("Tell bots the game's key, which names both bots (external bots' `new-game`); by default a bot learns only its game"),
    botDirs: z.array(z.string()).default([]).describe('Extra folders of bot modules, besides the built-in `bots/`'),
    gameDirs: z.array(z.string()).default([]).describe('Extra folders of game files (docs/WRITE-A-GAME.md), besides the built-in `games/`'),
    botData: z
      .string()
      .min(1)
      .optional()
      .describe("Folder of the bots' persistent stores (`ctx.store`), one sub-folder per bot (default: ~/.cache/take-arena/bot-data)"),
    botDataCapKb: z.number().int().min(1).max(1_048_576).default(4096).describe("Cap of each bot's store folder in KiB"),
    out: z.string().min(1).default('tournaments/results').describe('Folder under which the results folder is created'),
    queue: z
      .string()
      .regex(/^rediss?:\/\/[^/\s]+(\/\d{1,2})?$/, 'expected a Redis URL like redis://127.0.0.1:6379 or redis://host:6379/2')
      .optional()
      .describe('Play on `arena worker` processes through this Redis (redis://host:port[/db]) instead of on this machine; see docs/TOURNAMENTS.md "Across machines"'),
  })
  .strict();

/** A tournament spec as written (defaults not yet filled). */
export type TournamentSpecInput = z.input<typeof TournamentSpecSchema>;
/** A validated spec, defaults filled. */
export type TournamentSpec = z.output<typeof TournamentSpecSchema>;
/** One entry of `games` as written. */
export type VariantSpec = z.output<typeof VariantSpecSchema>;

/** The JSON Schema of tournament specs (what `npm run schema` writes to `tournaments/schema.json`). */
export function specJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(TournamentSpecSchema, { io: 'input' }) as Record<string, unknown>;
  return { ...schema, title: 'take-arena tournament spec' };
}

/** Line and column (1-based) of a character offset in a text. */
function lineColumn(text: string, offset: number): TextPlace {
  let line = 1;
  let start = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      start = i + 1;
    }
  }
  return { line, column: Math.min(offset, text.length) - start + 1 };
}

/** Deepest nesting of arrays and objects a spec file may have: a spec needs four levels. */
export const MAX_JSON_DEPTH = 64;

/**
 * Offset of the first `[` or `{` that opens a level deeper than `max`, or -1. A linear scan that
 * skips strings: parsing (and locating a syntax error) recurses once per level, and 100,000
 * nested brackets would overflow the stack.
 */
export function jsonDepthOffset(text: string, max: number): number {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 0x22) {
      // a string: skip to its closing quote, over escapes
      for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c) i++;
    } else if (ch === 0x5b || ch === 0x7b) {
      if (++depth > max) return i;
    } else if (ch === 0x5d || ch === 0x7d) depth--;
  }
  return -1;
}

/** Parses JSON text, turning a syntax error into a SpecError with the line and column. */
export function parseJsonText(text: string, where: string): unknown {
  const deep = jsonDepthOffset(text, MAX_JSON_DEPTH);
  if (deep >= 0) {
    const { line, column } = lineColumn(text, deep);
    throw new SpecError(`${where}:${line}:${column}: nested deeper than ${MAX_JSON_DEPTH} levels; a tournament spec needs four`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    // V8's text, without its position or its quoted excerpt (the line and column say where).
    const what = message.replace(/\s*(in JSON )?at position \d+.*$/s, '').replace(/,\s*(\.\.\.)?".*$/s, '').replace(/ in JSON$/, '');
    const place = jsonErrorPlace(text);
    throw new SpecError(`${where}${place ? `:${place.line}:${place.column}` : ''}: malformed JSON: ${what}`);
  }
}

/** Reads the value at a zod issue path, for `got …` in messages. */
function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let v: unknown = root;
  for (const key of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
}

/** `games[1].family` from a zod path. */
function pathText(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) out += typeof key === 'number' ? `[${key}]` : out === '' ? String(key) : `.${String(key)}`;
  return out;
}

/** Validates a parsed spec; throws a one-line SpecError naming the field. */
export function validateSpec(raw: unknown, where = 'spec'): TournamentSpec {
  const parsed = TournamentSpecSchema.safeParse(raw);
  if (parsed.success) {
    // The per-move default applies only without a time control (then the bank alone limits a move).
    const spec = parsed.data;
    // A start suite replaces dealing: each start is played once (in both seatings) unless `deals` says more.
    const deals = spec.starts !== undefined && (raw as Record<string, unknown>)['deals'] === undefined ? { deals: 1 } : {};
    return spec.timePerMoveMs === undefined && spec.timeControl === undefined ? { ...spec, ...deals, timePerMoveMs: DEFAULT_TIME_PER_MOVE_MS } : { ...spec, ...deals };
  }
  const issue = parsed.error.issues[0]!;
  if (issue.code === 'unrecognized_keys') {
    const keys = issue.keys.map((k) => `\`${k}\``).join(', ');
    const known = Object.keys(TournamentSpecSchema.shape).filter((k) => k !== '$schema');
    const at = issue.path.length ? ` in \`${pathText(issue.path)}\`` : '';
    throw new SpecError(`${where}: unknown field ${keys}${at}; expected fields: ${known.join(', ')}`);
  }
  const field = issue.path.length ? pathText(issue.path) : '(root)';
  const value = valueAt(raw, issue.path);
  throw new SpecError(`${where}: \`${field}\`: ${issue.message.replace(/^Invalid input: /, '')}, got ${show(value)}`);
}

/** Builds the spec's variants; a bad family or parameter is a SpecError naming the entry. */
export function resolveVariants(games: readonly VariantSpec[], where = 'spec'): AnyGame[] {
  const out: AnyGame[] = [];
  const seen = new Set<string>();
  games.forEach((g, i) => {
    let game: AnyGame;
    try {
      game = typeof g === 'string' ? parseVariant(g) : makeGame(g.family, g.params ?? {});
    } catch (err) {
      if (err instanceof ArenaError) throw new SpecError(`${where}: \`games[${i}]\`: ${err.message}`);
      throw err;
    }
    if (seen.has(game.id)) throw new SpecError(`${where}: \`games[${i}]\`: variant ${game.id} is listed twice`);
    seen.add(game.id);
    out.push(game);
  });
  return out;
}

/**
 * Splits a comma-separated list whose items may themselves hold commas inside braces
 * (`subtraction{moves=1,5}`) or in option lists (`minimax:depth=6,x=1`): a comma separates items
 * only outside braces and when the next piece is not a `key=value` option.
 */
export function splitList(text: string): string[] {
  const pieces: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of text) {
    if (ch === '{') depth++;
    if (ch === '}') depth = Math.max(0, depth - 1);
    if (ch === ',' && depth === 0) {
      pieces.push(cur);
      cur = '';
      continue;
    }
    cur += ch;
  }
  pieces.push(cur);
  const out: string[] = [];
  for (const p of pieces) {
    const t = p.trim();
    if (t === '') continue;
    const last = out.length - 1;
    // `minimax:depth=6,x=1`: `x=1` continues the previous bot's options.
    if (last >= 0 && /^[A-Za-z][\w-]*\s*=/.test(t) && out[last]!.includes(':')) out[last] = `${out[last]},${t}`;
    else out.push(t);
  }
  return out;
}
