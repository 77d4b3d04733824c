/**
 * Ratings across tournaments: a JSON file (`--ratings-in`, `--ratings-out`) holding, per completed
 * tournament, each bot's rating. The latest rating of each bot seeds a later Swiss or knockout, and
 * the report draws each bot's rating over the tournaments in the file (docs/TOURNAMENTS.md
 * "Ratings across tournaments").
 */
import { existsSync, readFileSync } from 'node:fs';
import { z } from 'zod';
import { SpecError } from '../core/errors.ts';
import { textFileProblem, writeFileAtomic } from '../platform/files.ts';
import type { Anchor, RatingFit } from './fold/ratings.ts';

/** The version this code reads and writes. */
export const RATINGS_FILE_VERSION = 1;

const EntrySchema = z
  .object({
    name: z.string(),
    dir: z.string(),
    /** When the tournament completed (ISO, UTC). */
    finishedAt: z.string(),
    anchor: z.object({ bot: z.string(), elo: z.number() }).strict().optional(),
    ratings: z.record(z.string(), z.object({ elo: z.number(), ci95: z.number(), games: z.number().int().min(0) }).strict()),
  })
  .strict();

const FileSchema = z.object({ version: z.literal(RATINGS_FILE_VERSION), tournaments: z.array(EntrySchema) }).strict();

/** One tournament's ratings in a ratings file. */
export type RatingsEntry = z.output<typeof EntrySchema>;
/** A ratings file. */
export type RatingsFile = z.output<typeof FileSchema>;

/** Reads `bot=elo` (the last `=` separates: labels may hold `=`). */
export function parseAnchor(text: string): Anchor {
  const at = text.lastIndexOf('=');
  return { bot: text.slice(0, at).trim(), elo: Number(text.slice(at + 1)) };
}

/** The largest ratings file read (one line per bot and tournament: thousands of tournaments fit). */
const MAX_RATINGS_BYTES = 64 << 20;

/** Reads a ratings file; a missing one is an empty file when `missingOk`, else (or when malformed) a one-line SpecError naming `flag`. */
export function readRatingsFile(path: string, flag: string, missingOk = false): RatingsFile {
  if (!existsSync(path)) {
    if (missingOk) return { version: RATINGS_FILE_VERSION, tournaments: [] };
    throw new SpecError(`${flag} ${path}: no such file`);
  }
  const problem = textFileProblem(path, MAX_RATINGS_BYTES);
  if (problem !== null) throw new SpecError(`${flag} ${path}: ${problem}`);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    throw new SpecError(`${flag} ${path}: not valid JSON (expected a ratings file written by --ratings-out)`);
  }
  const parsed = FileSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length ? ` at ${issue.path.join('.')}` : '';
    throw new SpecError(`${flag} ${path}: not a ratings file${where}: ${issue.message}; expected {"version": ${RATINGS_FILE_VERSION}, "tournaments": [...]} as --ratings-out writes`);
  }
  return parsed.data;
}

/** Each bot's latest rating in the file (later tournaments override earlier ones). */
export function latestRatings(file: RatingsFile): Record<string, number> {
  const out: Record<string, number> = {};
  for (const t of file.tournaments) for (const [bot, r] of Object.entries(t.ratings)) out[bot] = r.elo;
  return out;
}

/** A tournament's entry from its pooled rating fit and games per bot. */
export function ratingsEntry(name: string, dir: string, finishedAt: string, fit: RatingFit, games: ReadonlyMap<string, number>): RatingsEntry {
  const ratings: RatingsEntry['ratings'] = {};
  for (const r of fit.ratings) ratings[r.bot] = { elo: r.elo, ci95: r.ci95, games: games.get(r.bot) ?? 0 };
  return { name, dir, finishedAt, ...(fit.anchor ? { anchor: fit.anchor } : {}), ratings };
}

/** Appends an entry to a ratings file (created when missing), written atomically. */
export function appendRatings(path: string, entry: RatingsEntry): void {
  const file = readRatingsFile(path, '--ratings-out', true);
  // The same results folder written twice (a rerun of the summary) replaces its entry.
  const tournaments = [...file.tournaments.filter((t) => t.dir !== entry.dir), entry];
  writeFileAtomic(path, `${JSON.stringify({ version: RATINGS_FILE_VERSION, tournaments }, null, 2)}\n`);
}
