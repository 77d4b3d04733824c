/**
 * The program that loads a user's game file in a child process (never first in the arena's): it is
 * bundled with the game into one `.mjs` file (game-discovery.ts) and started like a bot's
 * discovery child (Node's permission model, an empty environment, a CPU limit). It imports the
 * game, validates its default export, and prints one line: the game's name and title after one
 * playout of its default variant (so a game whose rules throw or loop at once is caught here), the
 * reason the file is not a game, or, for `arena games check`, the conformance test's items.
 */
import { ParamError } from '../core/errors.ts';
import type { AnyFamily, AnyGame } from '../core/game.ts';
import { createVariant, eraseGame, splitVariantId } from '../core/params.ts';
import { createRng } from '../core/rng.ts';
import { checkGame, type CheckItem } from '../games/check.ts';
import { exportedGame, userFamily } from '../games/user.ts';
import { oneLine } from './bot-module.ts';
import { answerLine } from './discovery-runner.ts';

/** The line the runner answers with starts with this (the game's own output may precede it). */
export const GAME_DISCOVERY_PREFIX = 'take-arena-game ';

/** What the child is asked (its argv[2], JSON). */
export type GameRequest = { readonly file: string } & ({ readonly mode: 'describe' } | { readonly mode: 'check'; readonly variants: readonly string[]; readonly games: number; readonly seed: number });

/** What the runner prints after the prefix. */
export type GameAnswer =
  | { readonly meta: { readonly name: string; readonly title: string } }
  | { readonly checked: readonly { readonly variant: string; readonly items: readonly CheckItem[] }[] }
  | { readonly reason: string };

/** The variant of `family` an id names (the family's own id, with parameters or without). */
function variantOf(family: AnyFamily, id: string): AnyGame {
  const { family: name, params } = splitVariantId(id);
  if (name !== family.id) throw new Error(`the variant ${JSON.stringify(id)} is not of game \`${family.id}\``);
  return eraseGame(createVariant(family, params));
}

/**
 * One random playout of the default variant, bounded: what loading asks of a game beyond its
 * export. A game with a required parameter has no default variant, and is played only when asked.
 */
function firstPlayout(family: AnyFamily): void {
  let game: AnyGame;
  try {
    game = variantOf(family, family.id);
  } catch (err) {
    if (err instanceof ParamError) return;
    throw err;
  }
  const rng = createRng(1);
  let state = game.deal(rng);
  for (let ply = 0; game.outcome(state) === null; ply++) {
    if (ply >= 100_000) throw new Error('its default variant was not over after 100000 random moves');
    state = game.play(state, rng.pick(game.moves(state)));
  }
}

/** Runs the request (argv[2]) on the game `load` imports and prints the answer. */
export async function runGameDiscovery(load: () => Promise<unknown>): Promise<void> {
  // Taken before the game's code runs: a module that patches globals cannot change how we answer.
  const { answer } = answerLine<GameAnswer>(GAME_DISCOVERY_PREFIX);
  const request = JSON.parse(process.argv[2] ?? '{"mode":"describe","file":"the file"}') as GameRequest;
  let mod: unknown;
  try {
    mod = await load();
  } catch (err) {
    return answer({ reason: `failed to load: ${oneLine(err)}` });
  }
  const definition = exportedGame(mod);
  if ('reason' in definition) return answer(definition);
  const family = userFamily(definition, request.file);
  try {
    if (request.mode === 'describe') {
      firstPlayout(family);
      return answer({ meta: { name: family.id, title: family.title } });
    }
    const variants = request.variants.length > 0 ? request.variants : [family.id];
    const checked = variants.map((id) => ({ variant: id, items: checkGame(variantOf(family, id), { games: request.games, seed: request.seed }) }));
    return answer({ checked });
  } catch (err) {
    return answer({ reason: `${request.mode === 'describe' ? 'failed its first playout' : 'failed the check'}: ${oneLine(err)}` });
  }
}
