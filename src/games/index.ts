import { UsageError, didYouMean } from '../core/errors.ts';
import type { AnyFamily, AnyGame } from '../core/game.ts';
import { createVariant, eraseFamily, eraseGame, splitVariantId } from '../core/params.ts';
import { subtraction } from './subtraction.ts';
import { noRepeat } from './no-repeat.ts';
import { partizan } from './partizan.ts';
import { piles } from './piles.ts';
import { coins } from './coins.ts';
import { endGame } from './end-game.ts';
import { grundy, octal } from './octal.ts';

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

/** Finds a family by id; throws a UsageError with the closest names otherwise. */
export function getFamily(id: string): AnyFamily {
  const family = FAMILIES.find((f) => f.id === id);
  if (!family) {
    const ids = FAMILIES.map((f) => f.id);
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
