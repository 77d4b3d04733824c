import { readFileSync } from 'node:fs';
import type { StandingsTable } from '../arena/fold/standings.ts';
import { startResults } from '../arena/starts.ts';
import { escapeHtml as esc, renderSvg, reportCharts, type ChartSpec } from './charts.ts';
import type { ReportData, ReportIncident } from './data.ts';
import { packGames } from './pack.ts';
import type { BracketMatch } from '../arena/staged/format.ts';
import { bracketMatchText, bracketRounds, halves, roundName, SWISS_HEADER, swissRows } from '../arena/staged/text.ts';

/** The page's stylesheet and replay script, inlined: the page must open with no network. */
const asset = (name: string): string => readFileSync(new URL(`./assets/${name}`, import.meta.url), 'utf8');

const num = (x: number, digits = 0): string => x.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

function duration(ms: number): string {
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)} s`;
  const m = Math.floor(s / 60);
  return m < 60 ? `${m} min ${Math.round(s % 60)} s` : `${Math.floor(m / 60)} h ${m % 60} min`;
}

/** One pairing's sequential test as `summary.json` records it (`sprt`: one per pairing). */
interface SprtEntry {
  readonly a?: unknown;
  readonly b?: unknown;
  readonly decision?: unknown;
  readonly llr?: unknown;
  readonly lower?: unknown;
  readonly upper?: unknown;
  readonly games?: unknown;
  readonly config?: { readonly elo0?: unknown; readonly elo1?: unknown };
}

/** A test's decision in words: which hypothesis was accepted, or where the LLR stands. */
function sprtLine(t: SprtEntry): string {
  const n = (v: unknown, d = 2): string => (typeof v === 'number' ? v.toFixed(d) : '?');
  const who = `${String(t.a ?? '?')} vs ${String(t.b ?? '?')}`;
  const elo = `[${n(t.config?.elo0, 0)}, ${n(t.config?.elo1, 0)}] Elo`;
  const where = `LLR ${n(t.llr)} in (${n(t.lower)}, ${n(t.upper)}) after ${String(t.games ?? '?')} games`;
  const decided =
    t.decision === 'H1'
      ? `<b>H1 accepted</b>: ${esc(String(t.a))} is stronger (elo1)`
      : t.decision === 'H0'
        ? `<b>H0 accepted</b>: ${esc(String(t.a))} is not stronger by elo1`
        : '<b>no decision</b> yet';
  return `<li>${esc(who)} ${esc(elo)}: ${decided} · ${esc(where)}</li>`;
}

/** The SPRT block of the header: one line per test, when `summary.json` has them. */
function sprtHtml(sprt: unknown): string {
  if (sprt === null || sprt === undefined) return '';
  const tests = (Array.isArray(sprt) ? sprt : [sprt]).filter((t): t is SprtEntry => t !== null && typeof t === 'object');
  if (tests.length === 0) return '';
  return `<div class="sprt" id="sprt"><b>SPRT</b><ul>${tests.map(sprtLine).join('')}</ul></div>`;
}

/** The time control, its margin, and the bots' think time apart from the arena's overhead. */
function timeControlText(d: ReportData): string {
  const tc = `${d.timeControl!.notation} (margin ${d.timeControl!.marginMs} ms)`;
  const t = d.time;
  if (!t) return tc;
  return `${tc}: think ${duration(t.thinkMs)}, arena overhead ${duration(t.overheadMs)} over ${num(t.moves)} moves (mean ${num(t.meanOverheadUs)} µs, max ${(t.maxOverheadUs / 1000).toFixed(1)} ms)`;
}

function header(d: ReportData): string {
  const played = d.played;
  const items: [string, string][] = [
    ['seed', d.seed === null ? '–' : String(d.seed)],
    ['date', d.run.startedAt ? d.run.startedAt.replace('T', ' ').replace(/\.\d+Z$/, ' UTC') : '–'],
    ['games', `${num(played)}${d.gamesTotal !== null ? ` of ${num(d.gamesTotal)}` : ''}${d.complete ? '' : ' (not finished)'}`],
    ['wall time', d.run.wallMs === null ? '–' : duration(d.run.wallMs)],
    ['machine', d.run.machine ?? '–'],
    ['bots', String(d.standings.pooled.bots.length)],
    ['variants', String(d.variants.length)],
    ['time per move', d.timePerMoveMs === null ? '–' : `${d.timePerMoveMs} ms`],
    ...(d.timeControl ? [['time control', timeControlText(d)] as [string, string]] : []),
    ...(d.clocks ? [['time odds', Object.entries(d.clocks).map(([bot, clock]) => `${bot} ${clock}`).join('; ')] as [string, string]] : []),
    ['log', d.trust.verified ? (d.trust.dropped ? `checksums verified; ${d.trust.dropped}` : 'every line’s checksum verified') : 'not verified (no games.key: an older folder)'],
  ];
  const description = typeof d.spec['description'] === 'string' ? `<p class="note">${esc(d.spec['description'])}</p>` : '';
  return `<header>
<h1>${esc(d.name)}</h1>${description}
<ul class="meta">${items.map(([k, v]) => `<li><b>${esc(k)}</b> ${esc(v)}</li>`).join('')}</ul>
${sprtHtml(d.sprt)}
<details><summary>spec</summary><pre class="spec">${esc(JSON.stringify(d.spec, null, 2))}</pre></details>
</header>`;
}

function standingsTable(t: StandingsTable): string {
  const rating = new Map(t.ratings.ratings.map((r) => [r.bot, r]));
  const rows = t.bots.map((b, i) => {
    const r = rating.get(b.bot);
    const acc = b.accuracy && b.accuracy.moves ? `${((100 * b.accuracy.accurate) / b.accuracy.moves).toFixed(1)}%` : '–';
    const forfeits = b.forfeits.timeout + b.forfeits.crash + b.forfeits['illegal-move'];
    return `<tr><td>${i + 1}</td><td>${esc(b.bot)}</td><td>${b.games}</td><td>${b.wins}/${b.draws}/${b.losses}</td><td>${num(b.points, 1)}</td><td>${b.games ? ((100 * b.points) / b.games).toFixed(1) : '–'}%</td><td>${r ? Math.round(r.elo) : '–'}</td><td>${r ? `±${Math.round(r.ci95)}` : ''}</td><td>${r?.losNext != null ? `${Math.round(r.losNext * 100)}%` : ''}</td><td>${acc}</td><td>${b.accuracy ? b.accuracy.blunders : '–'}</td><td>${forfeits}</td><td>${b.meanMoveMs.toFixed(2)}</td></tr>`;
  });
  return `<table><thead><tr><th>#</th><th>bot</th><th>games</th><th>W/D/L</th><th>points</th><th>score</th><th>Elo</th><th>95 %</th><th>LOS next</th><th>accuracy</th><th>blunders</th><th>forfeits</th><th>mean ms</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function firstMoverTable(d: ReportData): string {
  const rows = d.variants.map((v) => {
    const o = v.odds;
    const exact = o ? `${(100 * o.win).toFixed(1)}%${o.draw > 0 ? ` (+${(100 * o.draw).toFixed(1)}% drawn)` : ''}` : 'no exact solver';
    const over = o ? (o.exact ? `all ${num(o.positions)} deals` : `${num(o.positions)} sampled deals`) : '';
    const seen = v.observed.games ? `${((100 * v.observed.moverPoints) / v.observed.games).toFixed(1)}% of ${v.observed.games} games` : '–';
    return `<tr><td class="left">${esc(v.id)}</td><td>${exact}</td><td>${over}</td><td>${seen}</td></tr>`;
  });
  return `<table><thead><tr><th class="left">variant</th><th>first mover wins (solver)</th><th>over</th><th>first mover’s score (observed)</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

/** A start suite's results: a row per start with the solver's verdict and each bot's points / games on it. */
function startsTable(d: ReportData): string {
  const bots = d.standings.pooled.bots.map((b) => b.bot);
  const starts = d.starts ?? [];
  const several = new Set(starts.map((st) => st.base)).size > 1;
  const rows = startResults(starts, d.standings, bots).map(({ games, scores }, i) => {
    const st = starts[i]!;
    const cells = scores.map((x) => `<td>${x ?? '–'}</td>`).join('');
    return `<tr><td>${st.line}</td><td class="left">${esc(st.position)}</td>${several ? `<td class="left">${esc(st.base)}</td>` : ''}<td class="left">${esc(st.verdict ?? '–')}</td><td>${games}</td>${cells}</tr>`;
  });
  const head = `<th>line</th><th class="left">position</th>${several ? '<th class="left">variant</th>' : ''}<th class="left">solver</th><th>games</th>${bots.map((b) => `<th>${esc(b)}</th>`).join('')}`;
  return `<table><thead><tr>${head}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

/** An incident's kind in words. */
const INCIDENT_WORDS: Readonly<Record<ReportIncident['kind'], string>> = {
  timeout: 'lost on time',
  crash: 'crashed',
  'illegal-move': 'illegal move',
  restart: 'process replaced',
};

/** Forfeits and crashes: a count per bot and kind, then a row per incident with its reason and a link to its replay. */
function incidentsHtml(d: ReportData): string {
  const counts = Object.entries(d.incidentCounts);
  const total = counts.reduce((n, [, c]) => n + Object.values(c).reduce((x, y) => x + y, 0), 0);
  if (total === 0) return '<section id="incidents"><h2>Forfeits and crashes</h2><p class="note">None: every game ended by the rules (or by adjudication), and no bot’s process was replaced.</p></section>';
  const kinds = Object.keys(INCIDENT_WORDS) as ReportIncident['kind'][];
  const summary = counts.map(([bot, c]) => `<tr><td>${esc(bot)}</td>${kinds.map((k) => `<td>${c[k] ?? 0}</td>`).join('')}</tr>`);
  const rows = d.incidents.map((i) => {
    const game = i.replayable ? `<a href="#replay" data-game="${i.number}">#${i.number}</a>` : `<span title="not among the replays here: arena replay ${esc(d.dir)} --game ${i.number}">#${i.number}</span>`;
    return `<tr><td>${game}</td><td class="left">${esc(i.bot)}</td><td class="left">${esc(INCIDENT_WORDS[i.kind])}</td><td>${i.ply}</td><td class="left">${esc(i.opponent)}</td><td class="left">${esc(i.variant)}</td><td class="left reason">${esc(i.reason)}</td></tr>`;
  });
  const more = total > d.incidents.length ? ` The first ${num(d.incidents.length)} of ${num(total)} are listed.` : '';
  return `<section id="incidents"><h2>Forfeits and crashes</h2>
<p class="note">Each game a bot lost by a fault (out of time, a crash, an illegal move), and each time a bot’s process was replaced during a game (it played on without what it had kept). Click a game to replay it; a game not among the replays opens with <code>arena replay ${esc(d.dir)} --game N</code>.${more}</p>
<div class="card"><table><thead><tr><th class="left">bot</th>${kinds.map((k) => `<th>${esc(INCIDENT_WORDS[k])}</th>`).join('')}</tr></thead><tbody>${summary.join('')}</tbody></table></div>
<div class="card"><table class="incidents"><thead><tr><th>game</th><th class="left">bot</th><th class="left">what</th><th>after move</th><th class="left">against</th><th class="left">variant</th><th class="left">reason</th></tr></thead><tbody>${rows.join('')}</tbody></table></div>
</section>`;
}

async function figure(chart: ChartSpec | null, caption = true): Promise<string> {
  if (!chart) return '';
  return `<figure id="chart-${chart.id}">${caption ? `<figcaption>${esc(chart.title)}</figcaption>` : ''}${await renderSvg(chart)}</figure>`;
}

/** Which bot the ratings are pinned to, or the field's mean. */
function anchorNote(d: ReportData): string {
  const a = d.standings.pooled.ratings.anchor;
  return a ? ` Anchored: <b>${esc(a.bot)}</b> holds ${esc(String(a.elo))} Elo; every rating is shifted alike.` : ' Ratings are relative to the field’s mean (0).';
}

/** The ratings file's chart, or why there is none. */
function historyHtml(d: ReportData, chart: string): string {
  const h = d.ratingsHistory;
  if (!h) return '';
  if ('problem' in h) return `<p class="note">No ratings history: ${esc(h.problem)}</p>`;
  return chart ? `<div class="card">${chart}<p class="note">From ${esc(h.file)}: each tournament appended by <code>--ratings-out</code>.</p></div>` : '';
}

/** A Swiss's score table, or a knockout's bracket drawn round by round. */
function formatHtml(d: ReportData): string {
  const f = d.format;
  if (!f) return '';
  if (f.format === 'swiss') {
    const rows = swissRows(f.lines).map((r) => `<tr>${r.map((c) => `<td>${esc(c)}</td>`).join('')}</tr>`);
    return `<section id="swiss"><h2>Swiss</h2>
<p class="note">${f.round} of ${f.rounds} rounds. Score: 1 a round won on game points, ½ level, 0 lost, 1 a bye; ties broken by Buchholz (the opponents’ scores), then Sonneborn–Berger (the opponents’ scores weighted by the result against each), then game points.</p>
<div class="card"><table><thead><tr>${SWISS_HEADER.map((h) => `<th>${esc(h)}</th>`).join('')}</tr></thead><tbody>${rows.join('')}</tbody></table></div></section>`;
  }
  const total = bracketRounds(f);
  const side = (bot: string | null, seed: number | null, points: number, m: BracketMatch): string =>
    bot === null ? '<div class="side bye">bye</div>' : `<div class="side${m.winner === bot ? ' win' : ''}"><span class="seed">${seed}</span> ${esc(bot)}<span class="pts">${m.games ? esc(halves(points)) : ''}</span></div>`;
  const rounds = Array.from({ length: total }, (_, k) => {
    const round = f.rounds[k] ?? [];
    const matches = round.map((m) => `<div class="match" title="${esc(bracketMatchText(m))}">${side(m.a, m.seedA, m.pointsA, m)}${side(m.b, m.seedB, m.pointsB, m)}</div>`);
    return `<div class="round"><h4>${esc(roundName(k, total))}</h4><div class="matches">${matches.join('')}</div></div>`;
  });
  const champion = f.champion === null ? '' : `<div class="round"><h4>Champion</h4><div class="matches"><div class="match"><div class="side win">${esc(f.champion)}</div></div></div></div>`;
  return `<section id="bracket"><h2>Bracket</h2>
<p class="note">Seeded ${d.spec['seedRatings'] ? 'by the ratings file' : 'in the spec’s order'}; each match is every variant × deals in both seatings, the bot with more game points through; level, up to ${esc(String(d.spec['tiebreakPairs'] ?? 0))} extra pairs, then the higher seed.</p>
<div class="card bracket">${rounds.join('')}${champion}</div></section>`;
}

/** The whole report as one self-contained HTML document. */
export async function reportHtml(d: ReportData): Promise<string> {
  const charts = reportCharts(d);
  const [ratings, ratingsHistory, crosstables, accuracy, moveTimes, firstMover, patterns] = await Promise.all([
    figure(charts.ratings),
    figure(charts.ratingsHistory),
    Promise.all(charts.crosstables.map((c) => figure(c))),
    figure(charts.accuracy),
    figure(charts.moveTimes),
    figure(charts.firstMover),
    Promise.all(charts.patterns.map((c) => figure(c))),
  ]);
  const [pooled, ...perVariant] = crosstables;
  const games = d.games;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(d.name)} · take-arena report</title>
<style>${asset('style.css')}</style>
</head>
<body>
<main>
${header(d)}
<section id="standings"><h2>Standings</h2>
<div class="card">${standingsTable(d.standings.pooled)}</div>
<div class="card">${ratings}<p class="note">Bradley–Terry ratings on the Elo scale with a first-seat term; LOS is the likelihood that a bot is stronger than the next one down.${anchorNote(d)}</p></div>
${historyHtml(d, ratingsHistory)}
</section>
${incidentsHtml(d)}
${d.starts ? `<section id="starts"><h2>Start positions</h2>
<p class="note">The tournament played a suite of start positions, each in both seatings: every bot's points / games on each start, beside the solver's verdict for the player who moves first.</p>
<div class="card">${startsTable(d)}</div>
</section>` : ''}
${formatHtml(d)}
<section id="crosstable"><h2>Crosstable</h2>
<p class="note">Score of the row bot against the column bot, in percent.</p>
<div class="card">${pooled ?? ''}</div>
<div class="grid">${perVariant.map((c) => `<div class="card">${c}</div>`).join('')}</div>
</section>
<section id="play"><h2>Accuracy and move times</h2>
${accuracy ? `<div class="card">${accuracy}</div>` : '<p class="note">No variant here has an exact solver, so no move was judged.</p>'}
${moveTimes ? `<div class="card">${moveTimes}</div>` : ''}
</section>
<section id="first-mover"><h2>First-mover advantage</h2>
<p class="note">Every variant here is solved: the solver says exactly which start positions the player who moves first wins with perfect play. Beside it, how the first mover actually scored in this tournament (the bots do not all play perfectly).</p>
<div class="card">${firstMover}</div>
<div class="card">${firstMoverTable(d)}</div>
${patterns.length ? `<h3>Patterns over the start position</h3><div class="card">${patterns.join('')}</div>` : ''}
</section>
<section id="replay"><h2>Replay</h2>
<p class="note">Pick a game, then step with <kbd>←</kbd> <kbd>→</kbd> (<kbd>Home</kbd>/<kbd>End</kbd> for the ends, <kbd>↑</kbd> <kbd>↓</kbd> for the previous or next game). ✓: the move kept the best result the solver says was there; ✗: it did not.${d.games.length < d.played ? ` ${num(d.games.length)} of the ${num(d.played)} games are here, the first of each variant (<code>arena report --replays all</code> puts in every one).` : ''}</p>
<div class="controls"><input id="game-filter" type="search" placeholder="filter: bot, variant, #number" aria-label="filter games"><select id="game-pick" aria-label="game"></select></div>
<div class="replay">
<div><pre id="board" aria-live="polite"></pre>
<div class="controls"><button id="first" title="Home">« start</button><button id="prev" title="←">‹ back</button><button id="next" title="→">next ›</button><button id="last" title="End">end »</button></div>
<div id="replay-status"></div></div>
<ol id="moves"></ol>
</div>
</section>
<p class="note">Made by take-arena <code>arena report</code> from ${esc(d.dir)}.</p>
</main>
<script type="application/gzip" id="report-games" data-games="${games.length}">${packGames(games)}</script>
<script>${asset('unpack.js')}
${asset('replay.js')}</script>
</body>
</html>
`;
}
