/**
 * A user's TypeScript bot through the real bin: under CI (after `npm ci` built dist/) this is the
 * compiled copy, which starts without tsx and registers it only for such a bot, its imports of the
 * package resolving to the compiled modules; without an up-to-date build it is the sources.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../arena/helpers.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe('a TypeScript bot from --bots-dir', () => {
  it('plays a tournament in-process and in a worker', () => {
    for (const isolation of ['none', 'worker']) {
      const out = tempDir();
      const run = spawnSync(
        process.execPath,
        ['bin/arena.mjs', 'tournament', '--bots', 'fx-random,random', '--bots-dir', 'test/fixtures/bots', '--games', 'subtraction{n=10..20}', '--deals', '3', '--isolation', isolation, '--plain', '--out', out],
        { cwd: ROOT, encoding: 'utf8' },
      );
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      const summary = JSON.parse(readFileSync(join(out, readdirSync(out)[0]!, 'summary.json'), 'utf8')) as { games: { played: number; byTermination: { normal: number } } };
      expect(summary.games).toMatchObject({ played: 6, byTermination: { normal: 6 } });
      expect(run.stdout).toMatch(/fx-random/);
    }
  });
});
