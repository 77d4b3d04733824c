import { UsageError, didYouMean } from '../core/errors.ts';
import type { AnyFamily, AnyGame, GameGoal } from '../core/game.ts';
import { createVariant, eraseFamily, eraseGame, splitVariantId } from '../core/params.ts';
import { subtraction } from './subtraction.ts';
import { noRepeat } from './no-repeat.ts';
import { partizan } from './partizan.ts';
import { piles } from './piles.ts';
import { coins } from './coins.ts';
import { endGame } from './end-game.ts';
import { grundy, octal } from './octal.ts';
import { exportedGame, userFamily } from './user.ts';
import { goalOf } from './goals.ts';

/** Every built-in game family, in display order. Ids are checked for uniqueness at load. */
export const FAMILIES: readonly AnyFamily[] = [
  eraseFamily(subtraction),
  eraseFamily(noRepeat),
  eraseFamily(partizan),
  eraseFamily(piles),
  eraseFamily(coins),
  eraseFamily(endGame),
  eraseFamily(octal),
  eraseFamily(grundy),
];

{
  const seen = new Set<string>();
  for (const f of FAMILIES) {
    if (seen.has(f.id)) throw new Error(`Duplicate game family id \`${f.id}\` in the registry`);
    seen.add(f.id);
  }
}

/** A user's game family (`games/`, `--games-dir`) as loaded into this process: its family and file. */
export interface UserFamilyEntry {
  readonly family: AnyFamily;
  readonly file: string;
}

const userEntries: UserFamilyEntry[] = [];
/** Game files that did not load, by file: unknown-family errors name them. */
const brokenFiles = new Map<string, string>();

/**
 * Adds a user's game family to this process's registry (after discovery checked its file). Its id
 * may not be a built-in's or another file's; the same file registered again is a no-op.
 */
export function registerFamily(family: AnyFamily, file: string): void {
  const twin = userEntries.find((e) => e.family.id === family.id);
  if (twin?.file === file) return;
  if (FAMILIES.some((f) => f.id === family.id)) throw new UsageError(`${file}: game family \`${family.id}\` is a built-in family's id; rename the game`);
  if (twin) throw new UsageError(`Two games are named \`${family.id}\`: ${twin.file} and ${file}; rename one`);
  userEntries.push({ family, file });
}

/**
 * Registers the game a module exports (what a bots' process bundle does with each game file the
 * arena loaded, so that its bots build the same variants); throws when it is not a game.
 */
export function registerGameModule(mod: unknown, file: string): void {
  const definition = exportedGame(mod);
  if ('reason' in definition) throw new UsageError(`${file}: ${definition.reason}`);
  registerFamily(eraseFamily(userFamily(definition, file)), file);
}

/** Records why a game file did not load, so that naming its game explains more than "unknown family". */
export function registerBrokenGame(file: string, reason: string): void {
  brokenFiles.set(file, reason);
}

/** The game files that did not load, with the reason each gave. */
export function brokenGames(): readonly { readonly file: string; readonly reason: string }[] {
  return [...brokenFiles].map(([file, reason]) => ({ file, reason }));
}

/** The user's game families loaded into this process, in the order they were registered. */
export function userFamilies(): readonly UserFamilyEntry[] {
  return userEntries;
}

/** Every family: the built-in ones, then the user's. */
export function allFamilies(): readonly AnyFamily[] {
  return userEntries.length === 0 ? FAMILIES : [...FAMILIES, ...userEntries.map((e) => e.family)];
}

/** Finds a family by id; throws a UsageError with the closest names otherwise. */
export function getFamily(id: string): AnyFamily {
  const family = FAMILIES.find((f) => f.id === id) ?? userEntries.find((e) => e.family.id === id)?.family;
  if (!family) {
    for (const [file, reason] of brokenFiles) {
      if (file.replace(/^.*[\\/]/, '').replace(/\.[^.]*$/, '') === id) throw new UsageError(`Game family \`${id}\` could not be loaded: ${file} ${reason}`);
    }
    const ids = allFamilies().map((f) => f.id);
    throw new UsageError(`Unknown game family \`${id}\`${didYouMean(id, ids)}; expected one of: ${ids.join(', ')}`);
  }
  return family;
}

/** Builds a variant from a family id and raw parameters (JSON values or strings). */
export function makeGame(familyId: string, params: Readonly<Record<string, unknown>> = {}): AnyGame {
  return eraseGame(createVariant(getFamily(familyId), params));
}

/** Builds a variant from its id text, e.g. `subtraction{moves=1,5,8,10;n=50..200}`. */
export function parseVariant(text: string): AnyGame {
  const { family, params } = splitVariantId(text);
  return makeGame(family, params);
}

/** How a variant is won, in words (`Game.goal`); a built-in family without one falls back on its summary. */
export function goalFor(game: AnyGame): GameGoal {
  return goalOf(game, FAMILIES.find((f) => f.id === game.family)?.summary);
}
