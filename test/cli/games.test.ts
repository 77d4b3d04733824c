import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FAMILIES } from '../../src/games/index.ts';
import { COMMANDS } from '../../src/cli/main.ts';
import { run } from './run.ts';

describe('arena games', () => {
  it('lists every family with its parameters and notation', async () => {
    const { code, out } = await run('games');
    expect(code).toBe(0);
    for (const f of FAMILIES) {
      expect(out).toContain(`${f.id} — `);
      for (const name of Object.keys(f.params)) expect(out).toContain(`--${name}`);
    }
  });

  it('prints JSON with --json', async () => {
    const { out } = await run('games', '--json');
    const doc = JSON.parse(out) as { id: string; params: { name: string }[] }[];
    expect(doc.map((f) => f.id)).toEqual(FAMILIES.map((f) => f.id));
  });

  it('rejects an unknown command with exit code 2', async () => {
    const { code, err } = await run('gmaes');
    expect(code).toBe(2);
    expect(err).toMatch(/Unknown command/);
  });
});

describe('arena --help', () => {
  it('lists every command with the usage line and description of its own module', async () => {
    for (const c of COMMANDS) {
      const mod = await c.load();
      expect({ command: mod.command, describe: mod.describe }).toEqual({ command: c.command, describe: c.describe });
    }
    const bin = fileURLToPath(new URL('../../bin/arena.mjs', import.meta.url));
    const help = spawnSync(process.execPath, [bin, '--help'], { encoding: 'utf8', env: { ...process.env, COLUMNS: '400' } });
    expect(help.status).toBe(0);
    for (const c of COMMANDS) expect(help.stdout.replace(/\s+/g, ' ')).toContain(`arena ${c.command} ${c.describe}`);
  });

  it('suggests the nearest command for a typo', async () => {
    const { code, err } = await run('tournment');
    expect(code).toBe(2);
    expect(err.trim()).toBe("arena: Unknown command `tournment` (did you mean `tournament`?)");
  });
});
