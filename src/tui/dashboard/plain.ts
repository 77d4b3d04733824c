/**
 * The plain-text tournament reporter (stdout not a TTY, `--plain`, CI): one line per finished game,
 * then the standings and the crosstable as aligned tables. With `json`, only the final summary is
 * printed, as JSON.
 */
import type { ArenaEvent, EventSink } from '../../arena/events.ts';
import type { GameRecord } from '../../arena/match.ts';
import type { StandingsTable } from '../../arena/fold/standings.ts';
import type { TimeTotals, TournamentSummary } from '../../arena/summary.ts';
import { startResults } from '../../arena/starts.ts';
import { PAIRS_HEADER, pairsRows, STANDINGS_HEADER, STANDINGS_NUMERIC, standingsRows } from '../../arena/fold/text.ts';
import { droppedText, type DropCounts } from '../../arena/results/index.ts';
import { sprtLine, sprtResultLine } from './sprt-text.ts';
import { scoreText } from '../text/result-text.ts';
import { anchorLine, bracketLines, SWISS_HEADER, swissRows } from '../../arena/staged/text.ts';
import { visible } from '../../core/text.ts';

/** Lays out rows as aligned columns; `right` marks the columns aligned right (numbers). */
export function alignTable(header: readonly string[], rows: readonly (readonly string[])[], right: readonly boolean[]): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((c, i) => (right[i] ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)];
}

const num = (v: number, digits = 0): string => (Number.isFinite(v) ? v.toFixed(digits) : '-');

/** The line of a bot whose store was emptied at the start of the run (dashboard log and plain output). */
export function storeResetLine(e: { readonly bot: string; readonly reason: string }): string {
  return `! bot ${e.bot}: ${e.reason}; it plays on with an empty store`;
}

/** The warning when resume dropped log lines it could not trust. */
export function repairedLine(r: { readonly dropped: DropCounts; readonly quarantine: string }): string {
  return `! resume: ${droppedText(r.dropped)}, moved to ${r.quarantine}; games without a trusted line are played again`;
}

/** One line for a finished game. */
export function gameLine(rec: GameRecord, done: number, total: number): string {
  const width = String(total).length;
  const { first, second } = rec.seats;
  const score = scoreText(rec.outcome);
  const scores = rec.outcome.scores ? ` ${rec.outcome.scores[0]}:${rec.outcome.scores[1]}` : '';
  const how =
    rec.termination === 'normal'
      ? `${rec.moves.length} moves`
      : rec.termination === 'adjudicated'
        ? `adjudicated after ${rec.moves.length} moves (${rec.reason ?? ''})`
        : `${rec.faulty ? rec.seats[rec.faulty] : '?'} forfeits: ${rec.termination}${rec.reason ? ` (${rec.reason})` : ''}`;
  return `[${String(done).padStart(width)}/${total}] ${rec.variant} deal ${rec.deal}: ${first} vs ${second} ${score}${scores}, ${how}`;
}

/** Seconds or milliseconds, whichever reads better. */
function duration(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(1)} ms`;
}

/**
 * The time line of a run under a time control: the bots' think time (charged to their banks) and
 * the arena's overhead, measured apart (dashboard and plain output).
 */
export function timeLine(t: TimeTotals, timeControl?: unknown): string {
  const tc = typeof timeControl === 'string' ? ` (time control ${timeControl})` : '';
  return (
    `Time${tc}: think ${duration(t.thinkMs)}, arena overhead ${duration(t.overheadMs)} over ${t.moves} moves ` +
    `(${t.meanOverheadUs} µs a move on average, at most ${duration(t.maxOverheadUs / 1000)})`
  );
}

/** The standings table. */
export function standingsLines(t: StandingsTable): string[] {
  return alignTable(STANDINGS_HEADER, standingsRows(t), STANDINGS_NUMERIC);
}

/** The crosstable: row bot's points against each column bot (out of the games played). */
export function crosstableLines(t: StandingsTable): string[] {
  const bots = t.bots.map((b) => b.bot);
  const header = ['', ...bots.map((_, i) => String(i + 1))];
  const rows = bots.map((a, i) => [
    `${i + 1} ${a}`,
    ...bots.map((b) => {
      if (a === b) return '·';
      const cell = t.crosstable[a]?.[b];
      return cell && cell.games ? `${num(cell.points, cell.points % 1 ? 1 : 0)}/${cell.games}` : '-';
    }),
  ]);
  return alignTable(header, rows, header.map((_, i) => i > 0));
}

/** The game pairs of a standings table, one line per pairing, with the first bot's score over them. */
export function pairsLines(t: StandingsTable): string[] {
  return alignTable(PAIRS_HEADER, pairsRows(t), PAIRS_HEADER.map((_, i) => i > 1));
}

/**
 * A start suite's results, one row per start in play order: its line and position (and variant,
 * when the suite was played on several), its games, and each bot's points / games on it.
 */
export function startsLines({ starts, standings }: Pick<TournamentSummary, 'starts' | 'standings'>): string[] {
  const bots = standings.pooled.bots.map((b) => b.bot);
  const played = startResults(starts ?? [], standings, bots).filter((r) => r.games > 0);
  const several = new Set(played.map((r) => r.start.base)).size > 1;
  const rows = played.map(({ start, games, scores }) => [String(start.line), start.position, ...(several ? [start.base] : []), String(games), ...scores.map((x) => x ?? '-')]);
  const header = ['line', 'position', ...(several ? ['variant'] : []), 'games', ...bots];
  return alignTable(header, rows, header.map((_, i) => i === 0 || i >= (several ? 3 : 2)));
}

/**
 * The plain reporter as an event sink; `write` receives whole lines. Every line but the JSON
 * summary goes out with its control characters made visible (core/text.ts): lines quote bots
 * (reasons, store warnings), and records from a log written elsewhere are shown as they are.
 */
export function plainReporter(
  writeLine: (line: string) => void,
  options: { readonly json?: boolean; readonly resumeCommand?: (dir: string) => string } = {},
): EventSink {
  const json = options.json ?? false;
  const write = (line: string): void => writeLine(visible(line));
  // Queued tournaments: the workers are printed when who is there changes, not at every status.
  let workersSeen = '';
  return {
    detail: 'games',
    emit(e: ArenaEvent): void {
      switch (e.type) {
        case 'tournament-started':
          if (json) return;
          write(
            `Tournament ${e.name}: ${e.bots.length} bots, ${e.variants.length} variant${e.variants.length === 1 ? '' : 's'}, ` +
              `${e.total} games${e.done ? ` (${e.done} already played)` : ''}, concurrency ${e.concurrency}, isolation ${e.isolation}`,
          );
          write(`Results: ${e.dir}`);
          if (e.repaired) write(repairedLine(e.repaired));
          return;
        case 'bot-failed':
          if (!json) write(`! bot ${e.bot} failed to start and forfeits all its games: ${e.reason}`);
          return;
        case 'bot-store-reset':
          if (!json) write(storeResetLine(e));
          return;
        case 'game-ended':
          if (!json) write(gameLine(e.record, e.done, e.total));
          return;
        case 'sprt':
          if (json || e.result.pairs === 0) return;
          write(e.result.decision ? sprtResultLine(e.result) : sprtLine(e.result));
          return;
        case 'queue-link':
          if (!json) write(`Redis ${e.url}: ${e.state}${e.detail ? ` (${e.detail})` : ''}${e.state === 'reconnecting' ? '; waiting, nothing already logged is lost' : ''}`);
          return;
        case 'queue-problem':
          if (!json) write(`! ${e.worker !== undefined ? `worker ${e.worker}: ` : ''}${e.reason}`);
          return;
        case 'queue-status': {
          const who = e.workers.map((w) => w.id).join(' ');
          if (json || who === workersSeen) return;
          workersSeen = who;
          write(`Workers: ${e.workers.length}${e.workers.length ? ` (${e.workers.map((w) => `${w.id} ${w.state}`).join(', ')})` : ' (start one: arena worker --queue …)'}`);
          return;
        }
        case 'finished': {
          if (json) {
            writeLine(JSON.stringify(e.summary, null, 2));
            return;
          }
          const { standings, games } = e.summary;
          write('');
          const notPlayed = games.skipped ? `; ${games.skipped} not played: ${notPlayedWhy(e.summary)}` : '';
          write(`Standings (${games.played} games${games.played + games.skipped < games.total ? ` of ${games.total}` : ''}${notPlayed}):`);
          for (const l of standingsLines(standings.pooled)) write(l);
          const h = standings.pooled.ratings;
          write(`first-seat advantage: ${num(h.firstSeatElo)} ±${num(h.firstSeatCi95)} Elo`);
          if (e.summary.clocks) write(`clocks (time odds): ${Object.entries(e.summary.clocks).map(([bot, clock]) => `${bot} ${clock}`).join('; ')}`);
          const anchor = anchorLine(h);
          if (anchor) write(anchor);
          const format = e.summary.format;
          if (format) {
            write('');
            if (format.format === 'swiss') {
              write(`Swiss standings (${format.round} of ${format.rounds} rounds; score: 1 a round won, ½ level, 0 lost, 1 a bye):`);
              for (const l of alignTable(SWISS_HEADER, swissRows(format.lines), SWISS_HEADER.map((_, i) => i !== 1))) write(l);
            } else {
              write('Bracket:');
              for (const l of bracketLines(format)) write(l);
            }
          }
          write('');
          write('Crosstable (points/games, row against column):');
          for (const l of crosstableLines(standings.pooled)) write(l);
          if (standings.pooled.pairs.length > 0) {
            write('');
            write('Game pairs (both seatings of a deal; the first bot\'s pair results):');
            for (const l of pairsLines(standings.pooled)) write(l);
          }
          if (e.summary.sprt) {
            write('');
            for (const r of e.summary.sprt) write(sprtResultLine(r));
          }
          if (e.summary.time) {
            write('');
            write(timeLine(e.summary.time, e.summary.spec['timeControl']));
          }
          // A start suite: a row per start. Else a table per variant when there are several; none
          // for a variant without a game (a test that decided early, an interrupted run, a variant
          // no pairing could play).
          const variants = Object.entries(standings.variants);
          if (e.summary.starts) {
            write('');
            write('Start positions (points/games of each bot on each start, both seatings):');
            for (const l of startsLines(e.summary)) write(l);
          } else if (variants.length > 1) {
            for (const [v, t] of variants.filter(([, table]) => table.games > 0)) {
              write('');
              write(`${v}:`);
              for (const l of standingsLines(t)) write(l);
            }
          }
          write('');
          if (e.interrupted) {
            write(`Interrupted after ${games.played} of ${games.total} games.`);
            if (options.resumeCommand) write(`Resume with: ${options.resumeCommand(e.dir)}`);
          } else write(`Results in ${e.dir}`);
          return;
        }
        default:
          return;
      }
    },
  };
}

/** Why a finished run left scheduled games unplayed (`games.skipped`): a knockout's needless extra pairs, or decided tests. */
export function notPlayedWhy(summary: TournamentSummary): string {
  return summary.spec['format'] === 'knockout' ? 'extra pairs their matches did not need' : 'the sequential test had decided';
}
