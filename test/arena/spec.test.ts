import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseJsonText, resolveVariants, splitList, validateSpec } from '../../src/arena/spec.ts';
import { SpecError } from '../../src/core/errors.ts';
import { SCHEMA_FILE, schemaText } from '../../scripts/write-schema.ts';

describe('tournament spec', () => {
  it('fills defaults', () => {
    const spec = validateSpec({ games: ['subtraction'] });
    expect(spec).toMatchObject({ name: 'tournament', seed: 1, bots: 'all', deals: 2, isolation: 'worker', out: 'tournaments/results' });
  });

  it('accepts variants as ids or as family with params, and rejects duplicates', () => {
    const games = resolveVariants([
      'subtraction{moves=1,5,8,10;n=50..200}',
      { family: 'subtraction', params: { moves: [1, 2], n: 7 } },
    ]);
    expect(games.map((g) => g.id)).toEqual(['subtraction{moves=1,5,8,10;n=50..200}', 'subtraction{moves=1,2;n=7}']);
    expect(() => resolveVariants(['subtraction', 'subtraction{moves=1,5,8,10}'])).toThrow(/games\[1\].*listed twice/);
  });

  it.each([
    [{ games: ['sutraction'] }, /`games\[0\]`: Unknown game family `sutraction` \(did you mean `subtraction`\?\)/],
    [{ games: [{ family: 'subtraction', params: { moves: [3, 0] } }] }, /`games\[0\]`: Expected `moves` to be .*got \[3, 0\]/],
    [{ games: ['subtraction{n=-4}'] }, /`games\[0\]`: Expected `n` to be/],
  ])('names the bad variant: %j', (raw, message) => {
    const spec = validateSpec(raw);
    expect(() => resolveVariants(spec.games, 'x.json')).toThrow(message);
  });

  it.each([
    [{ games: ['subtraction'], deals: 0 }, /`deals`: Too small.*got 0/],
    [{ games: ['subtraction'], timePerMoveMs: -5 }, /`timePerMoveMs`: Too small.*got -5/],
    [{ games: [] }, /`games`: Too small.*got \[\]/],
    [{ games: ['subtraction'], bots: ['random'] }, /`bots`/],
    [{ games: ['subtraction'], isolation: 'process' }, /`isolation`.*got "process"/],
    [{ games: ['subtraction'], colour: 'red' }, /unknown field `colour`; expected fields: name,/],
  ])('rejects %j with one line naming the field', (raw, message) => {
    let error: unknown;
    try {
      validateSpec(raw, 'x.json');
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(SpecError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain('\n');
  });

  it('reports malformed JSON with line and column', () => {
    expect(() => parseJsonText('{\n  "name": "x",\n  "games": [1,]\n}', 'bad.json')).toThrow(/^bad\.json:3:15: malformed JSON/);
    expect(() => parseJsonText('{"a": ', 'cut.json')).toThrow(/^cut\.json:1:7: malformed JSON: Unexpected end of JSON input/);
  });

  it('splits flag lists outside braces and bot options', () => {
    expect(splitList('subtraction{moves=1,5,8,10;n=50..200},piles')).toEqual(['subtraction{moves=1,5,8,10;n=50..200}', 'piles']);
    expect(splitList('random, minimax:depth=6,x=1,greedy')).toEqual(['random', 'minimax:depth=6,x=1', 'greedy']);
  });

  it('has an up-to-date tournaments/schema.json (run `npm run schema`)', () => {
    expect(readFileSync(SCHEMA_FILE, 'utf8')).toBe(schemaText());
  });

  it('validates the shipped specs', () => {
    for (const name of ['classic', 'quick']) {
      const file = SCHEMA_FILE.replace('schema.json', `${name}.json`);
      const spec = validateSpec(parseJsonText(readFileSync(file, 'utf8'), file), file);
      expect(resolveVariants(spec.games, file).length).toBeGreaterThan(0);
    }
  });
});
