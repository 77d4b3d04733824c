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
import { ByteMemo, numberLength, putAscii, putNumber } from '../../core/bytes.ts';

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

/** Results as `scoreText` writes them, as UTF-8. */
const SCORE_BYTES = { first: Buffer.from(' 1-0, '), second: Buffer.from(' 0-1, '), draw: Buffer.from(' ½-½, ') };

/**
 * The plain reporter's output: the lines given in one turn of the event loop (the games of a durable
 * batch come in one) go out as one text when the turn ends, or at `flush`. A game line that ended by
 * the rules is written straight into the batch's bytes, its bot-supplied strings made visible once
 * each (`ByteMemo`): at 10^5 games a second, making each line's string, checking it for control
 * characters and joining the lines cost more than the rest of the line's way (docs/PERFORMANCE.md).
 */
export class PlainBatch {
  readonly #write: (text: string) => void;
  #buf = Buffer.allocUnsafe(64 << 10);
  #used = 0;
  /** Variants and labels as `visible` shows them. */
  readonly #shown = new ByteMemo(visible);

  /** `write` receives whole lines, each ending with a newline. */
  constructor(write: (text: string) => void) {
    this.#write = write;
  }

  /** The buffer with room for `bytes` more; the first line of a turn asks for the flush at its end. */
  #room(bytes: number): Buffer {
    if (this.#used === 0) setImmediate(this.flush);
    if (this.#used + bytes > this.#buf.length) {
      const bigger = Buffer.allocUnsafe(Math.max(this.#buf.length * 2, this.#used + bytes));
      this.#buf.copy(bigger, 0, 0, this.#used);
      this.#buf = bigger;
    }
    return this.#buf;
  }

  /** One line of text (shown as it is: the reporter has made it visible). */
  line(text: string): void {
    const buf = this.#room(3 * text.length + 1);
    const end = this.#used + buf.write(text, this.#used, 'utf8');
    buf[end] = 0x0a;
    this.#used = end + 1;
  }

  /** The line of a finished game: the text of `visible(gameLine(rec, done, total))`. */
  game(rec: GameRecord, done: number, total: number): void {
    const { variant, deal, seats } = rec;
    const { first, second } = seats;
    // Anything but a game ended by the rules without scores (or a record of odd types, read from a
    // log written elsewhere) takes the text's way.
    if (rec.termination !== 'normal' || rec.outcome.scores || typeof variant !== 'string' || typeof deal !== 'number' || typeof first !== 'string' || typeof second !== 'string') {
      this.line(visible(gameLine(rec, done, total)));
      return;
    }
    const shown = this.#shown;
    // Four numbers and the padding at most 24 bytes each, shown strings at most 4 a UTF-16 unit (`\x9b`), constants 40.
    const buf = this.#room(4 * (variant.length + first.length + second.length) + 5 * 24 + 40);
    let at = this.#used;
    buf[at++] = 0x5b; // [
    for (let pad = numberLength(total) - numberLength(done); pad > 0; pad--) buf[at++] = 0x20;
    at = putNumber(buf, at, done);
    buf[at++] = 0x2f; // /
    at = putNumber(buf, at, total);
    at = putAscii(buf, at, '] ');
    at = shown.put(buf, at, variant);
    at = putAscii(buf, at, ' deal ');
    at = putNumber(buf, at, deal);
    at = putAscii(buf, at, ': ');
    at = shown.put(buf, at, first);
    at = putAscii(buf, at, ' vs ');
    at = shown.put(buf, at, second);
    const score = rec.outcome.winner === null ? SCORE_BYTES.draw : rec.outcome.winner === 'first' ? SCORE_BYTES.first : SCORE_BYTES.second;
    buf.set(score, at);
    at = putNumber(buf, at + score.length, rec.moves.length);
    at = putAscii(buf, at, ' moves\n');
    this.#used = at;
  }

  /** Writes what the batch holds. */
  readonly flush = (): void => {
    if (this.#used === 0) return;
    const text = this.#buf.toString('utf8', 0, this.#used);
    this.#used = 0;
    this.#write(text);
  };
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
  out: ((line: string) => void) | PlainBatch,
  options: { readonly json?: boolean; readonly resumeCommand?: (dir: string) => string } = {},
): EventSink {
  const json = options.json ?? false;
  const batch = out instanceof PlainBatch ? out : null;
  const writeLine = batch ? (line: string): void => batch.line(line) : (out as (line: string) => void);
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
          if (json) return;
          if (batch) batch.game(e.record, e.done, e.total);
          else write(gameLine(e.record, e.done, e.total));
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
