/**
 * The shared conformance suite (OpenSpiel's RandomSimTest): random play from dealt positions for every
 * registered family and several parameter sets.
 */
import { describe, expect, it } from 'vitest';
import { createRng, type AnyGame } from '../../src/core/index.ts';
import { FAMILIES, makeGame, parseVariant } from '../../src/games/index.ts';
import { SAMPLES } from './samples.ts';

const GAMES_PER_VARIANT = 12;

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value) && !ArrayBuffer.isView(value)) {
    Object.freeze(value);
    for (const v of Object.values(value as object)) deepFreeze(v);
  }
  return value;
}

const variants: { label: string; game: AnyGame }[] = [];
for (const family of FAMILIES) {
  const samples = SAMPLES[family.id] ?? [];
  samples.forEach((params, i) => variants.push({ label: `${family.id} #${i}`, game: makeGame(family.id, params) }));
}

describe('registry', () => {
  it('has sample parameter sets for every family', () => {
    for (const family of FAMILIES) expect(SAMPLES[family.id]?.length ?? 0, family.id).toBeGreaterThanOrEqual(2);
  });
});

describe.each(variants)('conformance: $label', ({ game }) => {
  it('has a variant id that round-trips through parseVariant', () => {
    expect(parseVariant(game.id).id).toBe(game.id);
  });

  it('deals reproducibly by seed', () => {
    for (let seed = 0; seed < 5; seed++) {
      expect(game.key(game.deal(createRng(seed)))).toEqual(game.key(game.deal(createRng(seed))));
    }
  });

  it('plays random games to the end under the contract', () => {
    for (let g = 0; g < GAMES_PER_VARIANT; g++) {
      const rng = createRng(1000 + g);
      let state = deepFreeze(game.deal(rng));
      for (let ply = 0; ; ply++) {
        expect(ply, 'game must end').toBeLessThan(100_000);
        const moves = game.moves(state);
        const outcome = game.outcome(state);
        // moves is empty exactly when the game is over
        expect(moves.length === 0, game.describe(state)).toBe(outcome !== null);
        if (outcome) {
          if (outcome.winner !== null) expect(['first', 'second']).toContain(outcome.winner);
          break;
        }
        const texts = moves.map((m) => game.formatMove(m));
        expect(new Set(texts).size, 'move notations are distinct').toBe(texts.length);
        for (const m of moves) {
          const text = game.formatMove(m);
          expect(game.formatMove(game.parseMove(text, state))).toBe(text);
        }
        const before = JSON.stringify(game.toJSON(state));
        const keyBefore = game.key(state);
        const move = rng.pick(moves);
        const next = game.play(state, move); // throws if play mutates the frozen input
        expect(JSON.stringify(game.toJSON(state))).toBe(before);
        expect(game.key(state)).toEqual(keyBefore);
        expect(game.toMove(next)).not.toBe(game.toMove(state));
        // equal states have equal keys: replaying the same move gives the same key
        expect(game.key(game.play(state, move))).toEqual(game.key(next));
        state = deepFreeze(next);
      }
    }
  });

  it('rejects move text that does not parse', () => {
    const state = game.deal(createRng(7));
    if (game.moves(state).length === 0) return;
    expect(() => game.parseMove('not a move', state)).toThrow(/./);
  });

  it('offers structured-cloneable states and moves', () => {
    const state = game.deal(createRng(3));
    expect(game.key(structuredClone(state))).toEqual(game.key(state));
    for (const m of game.moves(state).slice(0, 5)) {
      expect(game.formatMove(structuredClone(m))).toBe(game.formatMove(m));
    }
  });
});
