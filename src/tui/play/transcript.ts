/**
 * `arena play --plain`, the screen-reader mode: the game as a running transcript. Every prompt,
 * move and verdict is a new line appended below the last (nothing is redrawn in place, so a
 * screen reader reads each once, in order), and the player answers each prompt with a line. It
 * asks what the command line left open (the game, the bot, who moves first), then plays games
 * until the player quits or the input ends. Text only: no Ink.
 */
import { ArenaError } from '../../core/errors.ts';
import type { AnyFamily, AnyGame, Seat, Solver } from '../../core/game.ts';
import { createVariant } from '../../core/params.ts';
import { explainPosition, winningWord } from '../../games/explain.ts';
import { endingSentence, glossaryFor } from '../../games/goals.ts';
import { goalFor, parseVariant } from '../../games/index.ts';
import { dealGame, opponentName, opponentWords, plays, type FirstMover, type Opponent, type PlaySession, type PlayState, type PlayTable } from '../../play/index.ts';
import { moveNote, outcomeText, plyText } from '../boards/board-view.ts';
import { fmtDuration } from '../text/layout.ts';
import { explainedMove, hintFor, judgeMoves, standingText, tallyText, verdictText } from '../review/verdicts.ts';

/** Where a transcript reads the player's lines and writes its own. */
export interface TranscriptIo {
  /** The player's lines, one per Enter; done when the input ends (Ctrl-D, a closed pipe). */
  readonly lines: AsyncIterator<string>;
  /** Writes one line of the transcript. */
  readonly write: (line: string) => void;
}

/** What a transcript plays: as the play screen's props, with the lines in and out. */
export interface TranscriptOptions {
  readonly families: readonly AnyFamily[];
  readonly opponents: readonly Opponent[];
  readonly table: PlayTable;
  readonly seed: number;
  readonly game?: AnyGame;
  readonly opponent?: Opponent;
  readonly first?: FirstMover;
  readonly io: TranscriptIo;
}

/** Legal moves listed after a prompt; more are counted, not listed (a full coin board has over a hundred). */
const MOVES_LISTED = 24;

const KEYS_LINE = 'Type a move and press Enter. Or: h hint, e why, u undo, ? rules, q quit.';

/** Raised (and caught by `playTranscript`) when the player quits or the input ends. */
class Quit extends Error {}

/** Plays `arena play --plain` until the player quits or the input ends. */
export async function playTranscript(opts: TranscriptOptions): Promise<void> {
  const { io } = opts;
  const ask = async (prompt: string): Promise<string> => {
    io.write(prompt);
    const next = await io.lines.next();
    if (next.done) throw new Quit();
    const text = next.value.trim();
    if (text === 'q') throw new Quit();
    return text;
  };
  try {
    const game = opts.game ?? (await chooseGame(opts.families, ask, io.write));
    const opponent = opts.opponent ?? (await chooseOpponent(opts.opponents, game, ask, io.write));
    const first = opts.first ?? (await chooseFirst(opponent, ask));
    for (let round = 0; ; round++) {
      const session = opts.table.open(dealGame({ game, opponent, first }, opts.seed, round));
      try {
        await playOne(session, ask, io.write);
      } finally {
        session.close();
      }
    }
  } catch (err) {
    if (!(err instanceof Quit)) throw err;
    io.write('Bye.');
  }
}

type Ask = (prompt: string) => Promise<string>;
type Write = (line: string) => void;

/** The game: a family's number (its default parameters) or a variant written out. */
async function chooseGame(families: readonly AnyFamily[], ask: Ask, write: Write): Promise<AnyGame> {
  write('Which game? Type its number for the default parameters, or a variant such as subtraction{moves=1,2,3;n=10}.');
  families.forEach((f, i) => write(`${i + 1}. ${f.id}: ${f.title}. ${f.summary}`));
  for (;;) {
    const text = await ask('Game (Enter for 1):');
    try {
      const n = text === '' ? 1 : /^\d+$/.test(text) ? Number(text) : null;
      if (n === null) return parseVariant(text);
      const family = families[n - 1];
      if (family) return createVariant(family, {});
      write(`No game ${n}: type a number from 1 to ${families.length}, or a variant.`);
    } catch (err) {
      if (!(err instanceof ArenaError)) throw err;
      write(err.message);
    }
  }
}

/** The opponent among the bots that play the game. */
async function chooseOpponent(opponents: readonly Opponent[], game: AnyGame, ask: Ask, write: Write): Promise<Opponent> {
  const able = opponents.filter((o) => plays(o, game));
  if (able.length === 0) throw new ArenaError(`No bot plays ${game.id}`);
  write(`Which bot do you play? ${game.title}.`);
  able.forEach((o, i) => write(`${i + 1}. ${opponentName(o)}: ${opponentWords(o)}`));
  for (;;) {
    const text = await ask('Bot (Enter for 1):');
    const n = text === '' ? 1 : Number(text);
    const o = Number.isInteger(n) ? able[n - 1] : undefined;
    if (o) return o;
    write(`Type a number from 1 to ${able.length}.`);
  }
}

/** Who moves first: the player (`me`) or the bot. */
async function chooseFirst(opponent: Opponent, ask: Ask): Promise<FirstMover> {
  for (;;) {
    const text = (await ask(`Who moves first? Type me or bot (Enter for me; the bot is ${opponentName(opponent)}):`)).toLowerCase();
    if (text === '' || text === 'me' || text === 'm') return 'me';
    if (text === 'bot' || text === 'b') return 'bot';
  }
}

/** Resolves once the bot has answered (or the game is over): the state the player acts on. */
function settled(session: PlaySession): Promise<PlayState> {
  return new Promise((resolve) => {
    let unsubscribe = (): void => {};
    const check = (): void => {
      const s = session.getSnapshot();
      if (s.thinking) return;
      unsubscribe();
      resolve(s);
    };
    unsubscribe = session.subscribe(check);
    check();
  });
}

/** One game: the bot's moves as they come, the player's prompts, and at the end the review. */
async function playOne(session: PlaySession, ask: Ask, write: Write): Promise<void> {
  const { game, human, opponent } = session;
  const names: Record<Seat, string> = human === 'first' ? { first: 'you', second: opponent.label } : { first: opponent.label, second: 'you' };
  const solver = game.solver?.();
  const goal = goalFor(game);
  write(`${game.title}: you play ${human} against ${opponentName(opponent)}.`);
  write(goal.short);
  write(KEYS_LINE);
  let shown = 0;
  for (;;) {
    const s = await settled(session);
    // The moves since the last prompt: the bot's replies (the player's own were said when typed).
    for (const p of s.history.slice(shown)) {
      if (p.seat !== human) write(`${opponent.label} played ${plyText(game, p)} in ${fmtDuration(p.ms)}.`);
    }
    shown = s.history.length;
    if (s.outcome !== null) {
      write(`Game over: ${outcomeText(s.outcome, names)}.${s.forfeit !== null ? ` ${s.forfeit}.` : ''}`);
      const ending = s.forfeit === null ? endingSentence(game, s.state, names) : null;
      if (ending) write(ending);
      for (const line of reviewLines(game, solver, s, human, names)) write(line);
      // Said once; the prompt is asked again until the player plays again, takes back a move or quits.
      for (;;) {
        const text = await ask('Type a to play again, u to take back your last move, e why your first mistake lost, q to quit:');
        if (text === 'a') return;
        if (text === 'u' && undo(session, write)) break;
        if (text === 'e') {
          const at = explainedMove(s.history, judgeMoves(game, solver, s.history), human);
          explain(game, at ? s.history[at.index]!.before : s.state, write);
        }
      }
      shown = session.getSnapshot().history.length;
      continue;
    }
    write(`Position: ${game.describe(s.state)}.`);
    const text = await ask(`Your move (${movesText(game, s)}):`);
    if (text === 'h') {
      const hint = hintFor(game, solver, s.state);
      write(`Hint: ${standingText(hint)}${hint.ok && hint.best.length > 0 && (hint.value > 0 || hint.scored) ? `; ${hint.scored ? 'best' : 'winning'} moves: ${hint.best.join(', ')}` : ''}.`);
    } else if (text === 'e') explain(game, s.state, write);
    else if (text === 'u' && undo(session, write)) shown = session.getSnapshot().history.length;
    else if (text === '?') {
      for (const line of [...goal.full, ...glossaryFor('P-position N-position')]) write(line);
      write(KEYS_LINE);
    } else if (text !== '') {
      try {
        const move = game.parseMove(text, s.state);
        if (session.play(move)) {
          write(`You played ${plyText(game, { before: s.state, text: game.formatMove(move) })}.`);
          shown++;
        }
      } catch (err) {
        if (!(err instanceof ArenaError)) throw err;
        write(err.message);
      }
    }
  }
}

/** The legal moves as the prompt lists them (End Game's with the number each end takes). */
function movesText(game: AnyGame, s: PlayState): string {
  const texts = s.moves.slice(0, MOVES_LISTED).map((m) => {
    const text = game.formatMove(m);
    const note = moveNote(game, s.state, text);
    return note === null ? text : `${text} ${note}`;
  });
  return s.moves.length > MOVES_LISTED ? `${texts.join(', ')} and ${s.moves.length - MOVES_LISTED} more` : texts.join(', ');
}

/** Takes back the player's last move (and the reply), saying so; false when there is none. */
function undo(session: PlaySession, write: Write): boolean {
  const done = session.undo();
  write(done ? 'Took back your last move and the reply.' : 'Nothing to undo yet.');
  return done;
}

/** Why a position is won or lost, line by line, with the terms it uses glossed. */
function explain(game: AnyGame, state: unknown, write: Write): void {
  let e;
  try {
    e = explainPosition(game, state);
  } catch (err) {
    write(`No explanation: ${err instanceof Error ? err.message : String(err)}.`);
    return;
  }
  if (!e) {
    write('No explanation: the game is over.');
    return;
  }
  const verdict = winningWord(e.outcome);
  write(`Why: ${verdict}${e.move !== null ? `; play ${e.move}` : ''}.`);
  for (const line of [...e.lines, ...glossaryFor(`${verdict} ${e.lines.join(' ')}`)]) write(`  ${line}`);
}

/** The review as lines: both sides' tallies, then each move with its mover and verdict. */
function reviewLines(game: AnyGame, solver: Solver<unknown, unknown> | undefined, s: PlayState, human: Seat, names: Readonly<Record<Seat, string>>): string[] {
  if (!solver) return ['No review: this variant has no exact solver.'];
  const verdicts = judgeMoves(game, solver, s.history);
  const rows = s.history.map((p, i) => ({ p, n: i + 1, verdict: verdicts[i] ?? null }));
  const bot = names[human === 'first' ? 'second' : 'first'];
  return [
    `Review: you ${tallyText(rows.filter((r) => r.p.seat === human))}; ${bot} ${tallyText(rows.filter((r) => r.p.seat !== human))}.`,
    ...rows.map((r) => `${r.n}. ${names[r.p.seat]} ${plyText(game, r.p)}: ${r.verdict ? verdictText(r.verdict, solver.scored) : 'not judged'}.`),
  ];
}
