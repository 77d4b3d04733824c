import { readFileSync } from 'node:fs';
import type { StandingsTable } from '../arena/fold/standings.ts';
import { PAIRS_HEADER, pairsRows, STANDINGS_HEADER, STANDINGS_NUMERIC, standingsRows } from '../arena/fold/text.ts';
import { startResults } from '../arena/starts.ts';
import { escapeHtml as esc, renderSvg, reportCharts, type ChartSpec } from './charts.ts';
import type { ReportData, ReportIncident } from './data.ts';
import { packReplays } from './pack.ts';
import type { BracketMatch } from '../arena/staged/format.ts';
import { bracketMatchText, bracketRounds, halves, roundName, SWISS_HEADER, swissRows } from '../arena/staged/text.ts';

/** The page's stylesheet and replay script, inlined: the page must open with no network. */
const asset = (name: string): string => readFileSync(new URL(`./assets/${name}`, import.meta.url), 'utf8');

/** One section of the page: its anchor, its heading (the table of contents lists it) and its body. */
interface Section {
  readonly id: string;
  readonly title: string;
  readonly body: string;
  /** Entries under it in the table of contents (anchor, title). */
  readonly parts?: readonly (readonly [string, string])[];
}

const section = (s: Section): string => `<section id="${s.id}"><h2>${esc(s.title)}</h2>\n${s.body}\n</section>`;

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
    ...(Object.keys(d.trust.workers).length ? [['workers', workersText(d.trust.workers)] as [string, string]] : []),
    ...(d.workerHealth ? [['worker health', Object.entries(d.workerHealth).map(([w, h]) => `${w}: ${h}`).join('; ')] as [string, string]] : []),
  ];
  const description = typeof d.spec['description'] === 'string' ? `<p class="note">${esc(d.spec['description'])}</p>` : '';
  return `<header>
<h1>${esc(d.name)}</h1>${description}
<ul class="meta">${items.map(([k, v]) => `<li><b>${esc(k)}</b> ${esc(v)}</li>`).join('')}</ul>
${sprtHtml(d.sprt)}
<details><summary>spec</summary><pre class="spec">${esc(JSON.stringify(d.spec, null, 2))}</pre></details>
</header>`;
}

/**
 * What was verified of games played on `arena worker` processes: the checksums were made by the
 * coordinator, so they vouch for the log since, and the replay for the rules; the workers' own play
 * (times, forfeits, the bots' choices) is theirs.
 */
function workersText(workers: Readonly<Record<string, number>>): string {
  const games = Object.values(workers).reduce((a, b) => a + b, 0);
  const by = Object.entries(workers)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([w, n]) => `${w} ${num(n)}`)
    .join(', ');
  return `${num(games)} games played on arena workers (${by}), each replayed through the referee from its deal before it was logged; the checksums cover the log from then on, times and forfeits are the workers' word`;
}

/** A table in a box that scrolls sideways, visibly, when the table is wider than the page (a phone). */
const scroller = (table: string): string => `<div class="scroll">${table}</div>`;

/** A table of text cells; `numeric[i]` aligns column i right, the others left. */
function cellsTable(header: readonly string[], rows: readonly (readonly string[])[], numeric: readonly boolean[]): string {
  const cls = (i: number): string => (numeric[i] ? '' : ' class="left"');
  return scroller(`<table><thead><tr>${header.map((h, i) => `<th${cls(i)}>${esc(h)}</th>`).join('')}</tr></thead><tbody>${rows.map((r) => `<tr>${r.map((c, i) => `<td${cls(i)}>${esc(c)}</td>`).join('')}</tr>`).join('')}</tbody></table>`);
}

/** A standings table: the plain output's rows. */
function standingsTable(t: StandingsTable): string {
  return cellsTable(STANDINGS_HEADER, standingsRows(t), STANDINGS_NUMERIC);
}

/** What the standings' terse column names mean. */
const STANDINGS_NOTE =
  'W/D/L: games won, drawn, lost; elo with its 95 % interval; LOS: the likelihood that a bot is stronger than the next one down; margin: the mean score margin in scored games; forfeit T/C/I: games lost on time, by a crash, by an illegal move; acc%: moves that kept the best result the solver says was there, blunders: those that did not; ms: time a move.';

function firstMoverTable(d: ReportData): string {
  const rows = d.variants.map((v) => {
    const o = v.odds;
    const exact = o ? `${(100 * o.win).toFixed(1)}%${o.draw > 0 ? ` (+${(100 * o.draw).toFixed(1)}% drawn)` : ''}` : 'no exact solver';
    const over = o ? (o.exact ? `all ${num(o.positions)} deals` : `${num(o.positions)} sampled deals`) : '';
    const seen = v.observed.games ? `${((100 * v.observed.moverPoints) / v.observed.games).toFixed(1)}% of ${v.observed.games} games` : '–';
    return `<tr><td class="left">${esc(v.id)}</td><td>${exact}</td><td>${over}</td><td>${seen}</td></tr>`;
  });
  return scroller(`<table><thead><tr><th class="left">variant</th><th>first mover wins (solver)</th><th>over</th><th>first mover’s score (observed)</th></tr></thead><tbody>${rows.join('')}</tbody></table>`);
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
  return scroller(`<table><thead><tr>${head}</tr></thead><tbody>${rows.join('')}</tbody></table>`);
}

/** An incident's kind in words. */
const INCIDENT_WORDS: Readonly<Record<ReportIncident['kind'], string>> = {
  timeout: 'lost on time',
  crash: 'crashed',
  'illegal-move': 'illegal move',
  restart: 'process replaced',
};

/** Forfeits and crashes: a count per bot and kind, then a row per incident with its reason and a link to its replay. */
function incidentsSection(d: ReportData): Section {
  const id = 'incidents';
  const title = 'Forfeits and crashes';
  const counts = Object.entries(d.incidentCounts);
  const total = counts.reduce((n, [, c]) => n + Object.values(c).reduce((x, y) => x + y, 0), 0);
  if (total === 0) return { id, title, body: '<p class="note">None: every game ended by the rules (or by adjudication), and no bot’s process was replaced.</p>' };
  const kinds = Object.keys(INCIDENT_WORDS) as ReportIncident['kind'][];
  const summary = counts.map(([bot, c]) => [bot, ...kinds.map((k) => String(c[k] ?? 0))]);
  const rows = d.incidents.map((i) => {
    const game = i.replayable ? `<a href="#replay" data-game="${i.number}">#${i.number}</a>` : `<span title="not among the replays here: arena replay ${esc(d.dir)} --game ${i.number}">#${i.number}</span>`;
    return `<tr><td>${game}</td><td class="left">${esc(i.bot)}</td><td class="left">${esc(INCIDENT_WORDS[i.kind])}</td><td>${i.ply}</td><td class="left">${esc(i.opponent)}</td><td class="left">${esc(i.variant)}</td><td class="left reason">${esc(i.reason)}</td></tr>`;
  });
  const more = total > d.incidents.length ? ` The first ${num(d.incidents.length)} of ${num(total)} are listed.` : '';
  return {
    id,
    title,
    body: `<p class="note">Each game a bot lost by a fault (out of time, a crash, an illegal move), and each time a bot’s process was replaced during a game (it played on without what it had kept). Click a game to replay it; a game not among the replays opens with <code>arena replay ${esc(d.dir)} --game N</code>.${more}</p>
<div class="card">${cellsTable(['bot', ...kinds.map((k) => INCIDENT_WORDS[k])], summary, [false, ...kinds.map(() => true)])}</div>
<div class="card">${scroller(`<table class="incidents"><thead><tr><th>game</th><th class="left">bot</th><th class="left">what</th><th>after move</th><th class="left">against</th><th class="left">variant</th><th class="left">reason</th></tr></thead><tbody>${rows.join('')}</tbody></table>`)}</div>`,
  };
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
function formatSection(d: ReportData): Section | null {
  const f = d.format;
  if (!f) return null;
  if (f.format === 'swiss') {
    return {
      id: 'swiss',
      title: 'Swiss',
      body: `<p class="note">${f.round} of ${f.rounds} rounds. Score: 1 a round won on game points, ½ level, 0 lost, 1 a bye; ties broken by Buchholz (the opponents’ scores), then Sonneborn–Berger (the opponents’ scores weighted by the result against each), then game points.</p>
<div class="card">${cellsTable(SWISS_HEADER, swissRows(f.lines), SWISS_HEADER.map((_, i) => i !== 1))}</div>`,
    };
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
  return {
    id: 'bracket',
    title: 'Bracket',
    body: `<p class="note">Seeded ${d.spec['seedRatings'] ? 'by the ratings file' : 'in the spec’s order'}; each match is every variant × deals in both seatings, the bot with more game points through; level, up to ${esc(String(d.spec['tiebreakPairs'] ?? 0))} extra pairs, then the higher seed.</p>
<div class="card bracket">${rounds.join('')}${champion}</div>`,
  };
}

/** The table of contents: a link to each section, and to the parts of those that have them. */
function contents(sections: readonly Section[]): string {
  const item = (id: string, title: string, sub = ''): string => `<li><a href="#${id}">${esc(title)}</a>${sub}</li>`;
  const items = sections.map((s) => item(s.id, s.title, s.parts?.length ? `<ol>${s.parts.map(([id, t]) => item(id, t)).join('')}</ol>` : ''));
  return `<nav id="contents" aria-label="contents"><h2>Contents</h2><ol>${items.join('')}</ol></nav>`;
}

/**
 * What the move-time chart shows, and why a whisker may pass the dashed limit: a move answered
 * within the margin past the limit stands; one still unanswered at the limit plus the margin
 * loses on time and has no time of its own in the chart.
 */
function moveTimeNote(d: ReportData): string {
  const clock = d.spec['clock'] === 'wall' ? 'wall-clock time' : 'the CPU time charged to the bot (the CPU clock)';
  const box = `Each bot’s moves on ${clock}: the box spans the middle half, the tick is the median, the whiskers reach the fastest and the slowest move.`;
  const limit = d.timePerMoveMs;
  if (limit === null) return `<p class="note">${box}</p>`;
  const past = d.moveTimes.filter((t) => t.max > limit).map((t) => `${esc(t.bot)} (up to ${t.max.toFixed(1)} ms)`);
  const pastText = past.length ? ` Past the limit here: ${past.join(', ')}.` : ' No move here took longer than the limit.';
  return `<p class="note" id="move-times-note">${box} Dashed: the ${limit} ms limit a move. A whisker past it is a move answered after the limit but within the ${d.timeMarginMs} ms margin the arena allows for its own overhead (messages, a busy machine): such a move stands. A bot that has not answered by the limit plus the margin loses the game on time (✕); that move has no time in the chart.${pastText}</p>`;
}

/** Options of `reportHtml`. */
export interface PageOptions {
  /** About how much JSON of the games' moves goes in one chunk of the packed replays (default `CHUNK_JSON_CHARS`). */
  readonly chunkChars?: number;
}

/** The whole report as one self-contained HTML document. */
export async function reportHtml(d: ReportData, options: PageOptions = {}): Promise<string> {
  const charts = reportCharts(d);
  const [ratings, ratingsHistory, crosstable, variantCrosstables, accuracy, moveTimes, firstMover, patterns] = await Promise.all([
    figure(charts.ratings),
    figure(charts.ratingsHistory),
    figure(charts.crosstable),
    Promise.all(charts.variantCrosstables.map((c) => figure(c, false))),
    figure(charts.accuracy),
    figure(charts.moveTimes),
    figure(charts.firstMover),
    Promise.all(charts.patterns.map((c) => figure(c))),
  ]);
  const games = d.games;
  const replays = packReplays(games, options.chunkChars);
  const pooled = d.standings.pooled;
  // A table per variant with games, as the plain output prints them (a start suite has its own table instead).
  const variants = d.starts ? [] : d.variants.map((v, i) => ({ v, i, t: d.standings.variants[v.id] })).filter(({ t }) => t && t.games > 0);
  const sections: (Section | null)[] = [
    {
      id: 'standings',
      title: 'Standings',
      body: `<div class="card">${standingsTable(pooled)}<p class="note">${esc(STANDINGS_NOTE)}</p></div>
<div class="card">${ratings}<p class="note">Bradley–Terry ratings on the Elo scale with a first-seat term; LOS is the likelihood that a bot is stronger than the next one down.${anchorNote(d)}</p></div>
${historyHtml(d, ratingsHistory)}`,
    },
    pooled.pairs.length
      ? {
          id: 'pairs',
          title: 'Game pairs',
          body: `<p class="note">A pair is both seatings of one deal. Each pairing’s completed pairs, counted by the first bot’s result in its two games (LL: lost both, LD: lost one and drew one, DD: two draws or a win and a loss, WD, WW: won both), and its score over them. Pairs cancel most of the luck of the deal and of the first move.</p>
<div class="card">${cellsTable(PAIRS_HEADER, pairsRows(pooled), PAIRS_HEADER.map((_, i) => i > 1))}</div>`,
        }
      : null,
    incidentsSection(d),
    d.starts
      ? {
          id: 'starts',
          title: 'Start positions',
          body: `<p class="note">The tournament played a suite of start positions, each in both seatings: every bot's points / games on each start, beside the solver's verdict for the player who moves first.</p>
<div class="card">${startsTable(d)}</div>`,
        }
      : null,
    formatSection(d),
    {
      id: 'crosstable',
      title: 'Crosstable',
      body: `<p class="note">Score of the row bot against the column bot, in percent; every variant’s table has the bots in this order.</p>
<div class="card">${crosstable}</div>`,
    },
    variants.length
      ? {
          id: 'variants',
          title: 'Per variant',
          body: `<p class="note">Each variant’s standings and crosstable (bots in the order of the overall standings).</p>
${variants
  .map(
    ({ v, i, t }) => `<div class="card variant" id="variant-${i}"><h3>${esc(v.id)}</h3>
${standingsTable(t!)}
${variantCrosstables[i] ?? ''}</div>`,
  )
  .join('\n')}`,
          parts: variants.map(({ v, i }) => [`variant-${i}`, v.id] as const),
        }
      : null,
    {
      id: 'play',
      title: 'Accuracy and move times',
      body: `${accuracy ? `<div class="card">${accuracy}</div>` : '<p class="note">No variant here has an exact solver, so no move was judged.</p>'}
${moveTimes ? `<div class="card">${moveTimes}${moveTimeNote(d)}</div>` : ''}`,
    },
    {
      id: 'first-mover',
      title: 'First-mover advantage',
      body: `<p class="note">Every variant here is solved: the solver says exactly which start positions the player who moves first wins with perfect play. Beside it, how the first mover actually scored in this tournament (the bots do not all play perfectly).</p>
<div class="card">${firstMover}</div>
<div class="card">${firstMoverTable(d)}</div>
${patterns.length ? `<h3>Patterns over the start position</h3><div class="card">${patterns.join('')}</div>` : ''}`,
    },
    {
      id: 'replay',
      title: 'Replay',
      body: `<p class="note">Pick a game, then step with <kbd>←</kbd> <kbd>→</kbd> (<kbd>Home</kbd>/<kbd>End</kbd> for the ends, <kbd>↑</kbd> <kbd>↓</kbd> for the previous or next game). ✓: the move kept the best result the solver says was there; ✗: it did not.${d.games.length < d.played ? ` ${num(d.games.length)} of the ${num(d.played)} games are here, the first of each variant (<code>arena report --replays all</code> puts in every one).` : ''}</p>
<div class="controls"><input id="game-filter" type="search" placeholder="filter: bot, variant, #number" aria-label="filter games"><select id="game-pick" aria-label="game"></select></div>
<div class="replay">
<div><pre id="board" aria-live="polite"></pre>
<div class="controls"><button id="first" title="Home">« start</button><button id="prev" title="←">‹ back</button><button id="next" title="→">next ›</button><button id="last" title="End">end »</button></div>
<div id="replay-status"></div></div>
<ol id="moves"></ol>
</div>`,
    },
  ];
  const shown = sections.filter((s): s is Section => s !== null);
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
${contents(shown)}
${shown.map(section).join('\n')}
<p class="note">Made by take-arena <code>arena report</code> from ${esc(d.dir)}.</p>
</main>
<script type="application/gzip" id="report-games" data-games="${games.length}">${replays.index}</script>
${replays.chunks.map((chunk, k) => `<script type="application/gzip" id="report-chunk-${k}">${chunk}</script>`).join('\n')}
<script>${asset('unpack.js')}
${asset('replay.js')}</script>
</body>
</html>
`;
}
