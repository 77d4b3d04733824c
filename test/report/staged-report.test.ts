import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../arena/helpers.ts';
import { run } from '../cli/run.ts';

const GAME = 'subtraction{moves=1,3,4;n=15..30}';
const BASE = ['--games', GAME, '--deals', '1', '--isolation', 'none', '--plain'];

/** The report of the one results folder under `out` (made by the tournament's `--report`). */
function reportOf(out: string): string {
  const dir = readdirSync(out).find((n) => n.startsWith('tournament-'))!;
  return readFileSync(join(out, dir, 'report.html'), 'utf8');
}

describe('arena report of the staged formats and ratings', () => {
  it('draws a knockout bracket round by round, with seeds, points, the winners and the champion', async () => {
    const out = tempDir();
    const bots = 'random,greedy,optimal,optimal:strength=0.5,minimax:depth=2';
    expect((await run('tournament', '--bots', bots, '--format', 'knockout', ...BASE, '--out', out, '--report')).code).toBe(0);
    const html = reportOf(out);
    expect(html).toContain('<section id="bracket"><h2>Bracket</h2>');
    const rounds = [...html.matchAll(/<div class="round"><h4>([^<]+)<\/h4>/g)].map((m) => m[1]);
    expect(rounds).toEqual(['Quarterfinals', 'Semifinals', 'Final', 'Champion']);
    // Seeds 1-3 have byes in a bracket of 8 with 5 bots; seed 4 meets seed 5.
    expect(html.match(/<div class="side bye">bye<\/div>/g)).toHaveLength(3);
    expect(html).toMatch(/<span class="seed">4<\/span> optimal:strength=0\.5<span class="pts">\d½?<\/span>/);
    const champion = /<h4>Champion<\/h4><div class="matches"><div class="match"><div class="side win">([^<]+)<\/div>/.exec(html)![1];
    const summary = JSON.parse(readFileSync(join(out, readdirSync(out).find((n) => n.startsWith('tournament-'))!, 'summary.json'), 'utf8'));
    expect(champion).toBe(summary.format.champion);
  });

  it('shows a Swiss table with its tie-breaks; an anchored rating and the ratings file drawn across tournaments', async () => {
    const out = tempDir();
    const file = join(out, 'ratings.json');
    const bots = 'random,greedy,optimal,optimal:strength=0.5,minimax:depth=2,optimal:strength=0.3';
    const args = ['tournament', '--bots', bots, '--format', 'swiss', '--rounds', '3', ...BASE, '--anchor', 'random=0', '--ratings-out', file];
    expect((await run(...args, '--out', join(out, 'one'))).code).toBe(0);
    expect((await run(...args, '--ratings-in', file, '--seed', '5', '--out', join(out, 'two'), '--report')).code).toBe(0);
    const html = reportOf(join(out, 'two'));
    expect(html).toContain('<section id="swiss"><h2>Swiss</h2>');
    expect(html).toContain('<th>Buchholz</th><th>S-B</th>');
    expect(html).toMatch(/Anchored: <b>random<\/b> holds 0 Elo/);
    expect(html).toContain('data-chart="ratings-history"');
    expect(html).toContain(`From ${file}`);
    // Both tournaments are in the file: the chart has a point per bot and tournament.
    expect(JSON.parse(readFileSync(file, 'utf8')).tournaments).toHaveLength(2);
    // A ratings file gone bad: the report is still made, and says why the chart is missing.
    writeFileSync(file, '[]');
    const dir = join(out, 'two', readdirSync(join(out, 'two')).find((n) => n.startsWith('tournament-'))!);
    const again = join(out, 'again.html');
    expect((await run('report', dir, '--out', again)).code).toBe(0);
    expect(readFileSync(again, 'utf8')).toMatch(/No ratings history: ratings file .*ratings\.json: not a ratings file/);
  });
});
