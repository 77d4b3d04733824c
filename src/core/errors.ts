/**
 * The arena's error classes. A user's own mistake (a bad parameter, an unknown bot, a malformed
 * spec) is an ArenaError: the CLI prints its one-line message and exits 2, never a stack trace.
 */
import { visible } from './text.ts';

/** Base class of every error the arena raises for bad input or a failed contract. */
export class ArenaError extends Error {
  override name = 'ArenaError';
}

/** A game or bot parameter failed validation; the message names the field. */
export class ParamError extends ArenaError {
  override name = 'ParamError';
}

/** A move string that does not parse, or a move that is not legal in the position. */
export class MoveError extends ArenaError {
  override name = 'MoveError';
}

/** Bad command-line input (unknown family, bad flag value…). */
export class UsageError extends ArenaError {
  override name = 'UsageError';
}

/** A tournament spec that is malformed or inconsistent. */
export class SpecError extends ArenaError {
  override name = 'SpecError';
}

/** A bot module that cannot be loaded or is not a valid bot. */
export class BotLoadError extends ArenaError {
  override name = 'BotLoadError';
}

/** A position too large for an exact solver. */
export class TooLargeError extends ArenaError {
  override name = 'TooLargeError';
}

/**
 * Short, stable rendering of a received value for error messages: `got [3, 0]`. Control characters
 * are made visible (JSON escapes only some of them), since the value may come from a bot.
 */
export function show(value: unknown): string {
  if (typeof value === 'string') return visible(JSON.stringify(value));
  if (typeof value === 'bigint') return `${value}n`;
  if (value === undefined) return 'nothing';
  try {
    const text = JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}` : v));
    if (text === undefined) return visible(String(value));
    const spaced = visible(text.replace(/,(?=\S)/g, ', '));
    return spaced.length > 80 ? `${spaced.slice(0, 77)}...` : spaced;
  } catch {
    return visible(String(value));
  }
}

/**
 * Levenshtein-nearest candidates for "did you mean" hints: at most three, closest first.
 */
export function closest(word: string, candidates: readonly string[]): string[] {
  const dist = (a: string, b: string): number => {
    const row = Array.from({ length: b.length + 1 }, (_, i) => i);
    for (let i = 1; i <= a.length; i++) {
      let prev = row[0]!;
      row[0] = i;
      for (let j = 1; j <= b.length; j++) {
        const tmp = row[j]!;
        row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
        prev = tmp;
      }
    }
    return row[b.length]!;
  };
  const limit = Math.max(2, Math.floor(word.length / 2));
  return candidates
    .map((c) => ({ c, d: c.startsWith(word) || word.startsWith(c) ? 1 : dist(word.toLowerCase(), c.toLowerCase()) }))
    .filter((x) => x.d <= limit)
    .sort((x, y) => x.d - y.d || x.c.localeCompare(y.c))
    .slice(0, 3)
    .map((x) => x.c);
}

/** ` (did you mean a or b?)` or the empty string. */
export function didYouMean(word: string, candidates: readonly string[]): string {
  const near = closest(word, candidates);
  if (near.length === 0) return '';
  return ` (did you mean ${near.map((n) => `\`${n}\``).join(' or ')}?)`;
}
