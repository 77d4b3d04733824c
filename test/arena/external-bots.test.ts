/**
 * External bots over the JSON-lines protocol: manifests, the process host's fault handling in a
 * real tournament, and the CLI (`arena bots`, `arena bots check`). The examples: external-examples.test.ts.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { discoverBots, ProcessHost, resolveBot, type BotRegistry } from '../../src/hosting/index.ts';
import type { ArenaEvent } from '../../src/arena/events.ts';
import { validateSpec, type TournamentSpecInput } from '../../src/arena/spec.ts';
import { prepareTournament, runTournament } from '../../src/arena/tournament.ts';
import { run } from '../cli/run.ts';
import { readLog, tempDir } from './helpers.ts';

const EXTERNAL = fileURLToPath(new URL('../fixtures/external', import.meta.url));
const BROKEN = fileURLToPath(new URL('../fixtures/external/broken', import.meta.url));
const PYTHON = fileURLToPath(new URL('../../examples/python-bot', import.meta.url));

async function tournament(raw: TournamentSpecInput, registry: BotRegistry, events: ArenaEvent[] = []) {
  const spec = validateSpec({ out: tempDir(), seed: 5, deals: 1, concurrency: 3, isolation: 'none', ...raw });
  return runTournament(prepareTournament(spec, registry), { sink: { emit: (e) => events.push(e) } });
}

describe('manifests', () => {
  it('are discovered with the module bots; a broken one is reported by file with the field at fault', async () => {
    const registry = await discoverBots([EXTERNAL, BROKEN]);
    const first = registry.bots.find((b) => b.name === 'fx-ext-first');
    expect(first).toMatchObject({ transport: 'process', command: ['sh', 'fx-ext.sh', 'first'], cwd: EXTERNAL });
    expect(registry.bots.find((b) => b.name === 'random')?.transport).toBe('module');
    const reason = (name: string): string => registry.problems.find((p) => p.file.endsWith(`${name}.bot.json`))?.reason ?? '(not reported)';
    expect(reason('fx-bad-json')).toMatch(/is not a valid manifest: .*JSON/);
    expect(reason('fx-bad-field')).toBe('is not a valid manifest: expected `command` to be a non-empty array of strings, got []');
    expect(reason('fx-bad-key')).toMatch(/unknown field `comand`/);
    expect(reason('fx-bad-family')).toMatch(/`supports\[1\]`: unknown game family `nimm`/);
    expect(reason('fx-no-program')).toMatch(/command "\.\/not-built" not found \(looked for .*broken\/not-built; build it first\?\)/);
    expect(reason('fx-no-cwd')).toMatch(/expected `cwd` to be a folder, got "nowhere"/);
    expect(() => resolveBot(registry, 'fx-bad-key')).toThrow(/Bot `fx-bad-key` could not be loaded: .*fx-bad-key.bot.json is not a valid manifest/);
  });

  it('an external bot plays only its `supports` families and takes no options', async () => {
    const registry = await discoverBots([PYTHON]);
    const py = resolveBot(registry, 'python-bot');
    expect(py.entry.bot.supports).toBeUndefined();
    expect(() => resolveBot(registry, 'python-bot:depth=3')).toThrow(/depth/);
  });
});

describe('process host faults', () => {
  it('hang, exit, garbage and illegal answers each forfeit with their kind, and the tournament goes on', async () => {
    const registry = await discoverBots([EXTERNAL]);
    const events: ArenaEvent[] = [];
    const faulty: Record<string, { kind: string; reason: RegExp }> = {
      // It waits without computing: under the CPU clock (the default) the wall-clock cap stops it.
      'fx-ext-hang': { kind: 'timeout', reason: /^no move within 200 ms: stopped at the CPU clock's wall-clock cap of 4000 ms$/ },
      'fx-ext-exit': { kind: 'crash', reason: /^exited with code 3 \(stderr: .*fx-ext-exit\.stderr\.log\)$/ },
      'fx-ext-garbage': { kind: 'illegal-move', reason: /answered "this is not json", not a JSON object/ },
      'fx-ext-illegal': { kind: 'illegal-move', reason: /answered "9999": .*not legal/ },
      'fx-ext-nohello': { kind: 'crash', reason: /failed to start: answered hello with "who is there\?"/ },
    };
    const bots = ['fx-ext-first', 'random', ...Object.keys(faulty)];
    const result = await tournament({ name: 'ext-faults', bots, games: ['subtraction{n=12..30}'], timePerMoveMs: 200 }, registry, events);
    expect(result.interrupted).toBe(false);
    const log = readLog(result.dir);
    expect(log).toHaveLength(((7 * 6) / 2) * 2);
    for (const rec of log) {
      if (rec.termination === 'normal') {
        expect(bots.slice(0, 2)).toContain(rec.seats.first);
        expect(bots.slice(0, 2)).toContain(rec.seats.second);
        continue;
      }
      const culprit = rec.seats[rec.faulty!];
      expect(faulty[culprit], `${culprit}: ${rec.termination} ${rec.reason}`).toBeDefined();
      expect(rec.termination, `${culprit}: ${rec.reason}`).toBe(faulty[culprit]!.kind);
      expect(rec.reason).toMatch(faulty[culprit]!.reason);
    }
    // Against the good bots, every faulty bot forfeited all 4 games (its process restarted in between).
    for (const name of Object.keys(faulty)) {
      const vsGood = log.filter((r) => (r.seats.first === name || r.seats.second === name) && bots.slice(0, 2).includes(r.seats.first === name ? r.seats.second : r.seats.first));
      expect(vsGood.map((r) => r.seats[r.faulty ?? 'first'] === name && r.faulty !== null), name).toEqual([true, true, true, true]);
    }
    expect(events.filter((e) => e.type === 'bot-failed').map((e) => (e as { bot: string }).bot)).toEqual(['fx-ext-nohello']);
    // stderr goes beside the results, with the arena's own notes.
    const stderr = readFileSync(`${result.dir}/bots/fx-ext-exit.stderr.log`, 'utf8');
    expect(stderr).toMatch(/fx-ext-exit: leaving on purpose/);
    expect(stderr).toMatch(/\[arena\] .* exited with code 3/);
  });

  it('a bot that never answers hello fails to start within the start timeout', async () => {
    const host = new ProcessHost('silent', {
      name: 'silent',
      command: ['sh', 'fx-ext.sh', 'silent'],
      cwd: EXTERNAL,
      stderrLog: `${tempDir()}/silent.log`,
      startTimeoutMs: 150,
    });
    await expect(host.start()).rejects.toThrow(/did not answer hello within 150 ms/);
    expect(host.failure).toMatch(/did not answer hello/);
    await host.close();
  });

  it('a program that does not exist fails to start with the reason', async () => {
    const host = new ProcessHost('nothing', { name: 'nothing', command: ['no-such-program-xyz'], cwd: EXTERNAL, stderrLog: `${tempDir()}/n.log` });
    await expect(host.start()).rejects.toThrow(/cannot run "no-such-program-xyz": .*ENOENT/);
    await host.close();
  });
});

describe('CLI', () => {
  it('`arena bots` lists external bots with their command', async () => {
    const r = await run('bots', '--bots-dir', PYTHON);
    expect(r.out).toMatch(/python-bot — Python example/);
    expect(r.out).toMatch(/runs: {2}python3 bot\.py {2}\(in .*examples\/python-bot/);
    const j = await run('bots', '--json', '--bots-dir', PYTHON);
    expect(JSON.parse(j.out).bots.find((b: { name: string }) => b.name === 'python-bot')).toMatchObject({ transport: 'process', command: ['python3', 'bot.py'] });
  });

  it('`arena bots check` passes the Python example and fails a cheating external bot, saying where stderr goes', async () => {
    const ok = await run('bots', 'check', 'python-bot', '--bots-dir', PYTHON, '--family', 'subtraction', '--family', 'coins', '--positions', '2');
    expect(ok.out).toMatch(/its stderr goes to .*python-bot-\d+\.stderr\.log/);
    expect(ok.out).toMatch(/python-bot: passed on 5 variants/);
    expect(ok.code).toBe(0);
    const bad = await run('bots', 'check', `${EXTERNAL}/fx-ext-illegal.bot.json`, '--family', 'subtraction', '--positions', '1');
    expect(bad.out).toMatch(/FAIL .*illegal-move: answered "9999"/);
    expect(bad.code).toBe(1);
  });
});
