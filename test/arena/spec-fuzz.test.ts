/**
 * Seeded fuzzing of tournament spec files (issue 17): mutated copies of the shipped specs (bytes
 * dropped, inserted, swapped; values replaced by other types; 100,000 nested brackets) are either a
 * valid spec or one SpecError line, never another exception; through the CLI, exit 2 and one line.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ArenaError } from '../../src/core/errors.ts';
import { createRng, type Rng } from '../../src/core/rng.ts';
import { discoverBots } from '../../src/hosting/index.ts';
import { parseJsonText, validateSpec } from '../../src/arena/spec.ts';
import { prepareTournament } from '../../src/arena/tournament.ts';
import { run } from '../cli/run.ts';
import { arena, isUsageError } from '../cli/spawn.ts';

const DIR = mkdtempSync(join(tmpdir(), 'arena-spec-fuzz-'));
const SOURCES = ['tournaments/quick.json', 'tournaments/classic.json'].map((f) => readFileSync(f, 'utf8'));
const VALUES = ['null', 'true', '-1', '1e999', '0.5', '""', '"all"', '[]', '{}', '[[[]]]', '"\\u0000"', '"subtraction{"', '9007199254740993', `${'['.repeat(300)}${']'.repeat(300)}`];

function mutate(rng: Rng, text: string): string {
  if (text.length === 0) return rng.pick(VALUES);
  const at = rng.int(0, text.length - 1);
  switch (rng.int(0, 5)) {
    case 0:
      return text.slice(0, at) + text.slice(at + rng.int(1, 8));
    case 1:
      return text.slice(0, at) + rng.pick(['[', ']', '{', '}', '"', ',', ':', '\\', '0', 'x', ' ', '\n', '\u2028']) + text.slice(at);
    case 2: {
      const from = rng.int(0, text.length - 1);
      return text.slice(0, at) + text.slice(from, from + rng.int(1, 40)) + text.slice(at);
    }
    case 3: {
      // a value replaced by another type: the text after a `:` up to the next `,` or line end
      const colon = text.indexOf(':', at);
      if (colon < 0) return text;
      const end = text.slice(colon).search(/,|\n/);
      return text.slice(0, colon + 1) + ' ' + rng.pick(VALUES) + (end < 0 ? '' : text.slice(colon + end));
    }
    case 4:
      return text.replace(/"deals": \d+/, `"deals": ${rng.pick(['0', '-3', '1.5', '"2"', '1e7', '[2]'])}`);
    default:
      return text.slice(0, at);
  }
}

describe('tournament spec fuzz (seeded)', () => {
  it('2,000 mutated specs: valid, or a one-line SpecError; through the CLI exit 2 and one line', async () => {
    const rng = createRng(1717);
    const registry = await discoverBots([]);
    const failures: string[] = [];
    let cliRuns = 0;
    let rejected = 0;
    for (let i = 0; i < 2000; i++) {
      let text = rng.pick(SOURCES);
      for (let k = rng.int(1, 3); k > 0; k--) text = mutate(rng, text);
      const file = join(DIR, `spec-${i}.json`);
      writeFileSync(file, text);
      try {
        prepareTournament(validateSpec(parseJsonText(readFileSync(file, 'utf8'), file), file), registry, file);
        continue; // still valid: nothing to check
      } catch (err) {
        if (!(err instanceof ArenaError) || err.message.includes('\n')) {
          failures.push(`${file}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
          continue;
        }
        rejected++;
      }
      if (cliRuns++ < 60) {
        const r = await run('tournament', file, '--out', DIR);
        if (r.code !== 2 || r.out !== '' || r.err.trimEnd().split('\n').length !== 1) failures.push(`${file}: CLI exit ${r.code}: ${r.err}${r.out.slice(0, 200)}`);
      }
    }
    expect(failures).toEqual([]);
    expect(rejected).toBeGreaterThan(1000);
  });

  it('a spec of 100,000 nested brackets is one line and exit 2 (no stack overflow), through the real bin', async () => {
    for (const [name, text] of [
      ['open.json', '['.repeat(100_000)],
      ['closed.json', `{"games": ${'['.repeat(100_000)}${']'.repeat(100_000)}}`],
      ['objects.json', '{"a":'.repeat(100_000)],
    ] as const) {
      const file = join(DIR, name);
      writeFileSync(file, text);
      const r = await arena(['tournament', file]);
      expect(isUsageError(r), r.err).toBe(true);
      expect(r.err).toMatch(/nested deeper than 64 levels/);
    }
  });
});
