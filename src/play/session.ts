/**
 * One game of a person against a bot, as plain state and methods (no React): the move history,
 * the legal moves, the human's move, undo, the bot's replies judged by the tournament's referee
 * and its forfeits. Screens subscribe to it and send the human's moves; it never draws.
 */
import { otherSeat, type AnyGame, type Outcome, type Seat } from '../core/game.ts';
import { findMove, judgeReply, type MoveReply } from '../core/referee.ts';
import { createRng, deriveSeed } from '../core/rng.ts';
import { visible } from '../core/text.ts';
import { errorText, type BotHost, type BotSession, type FaultKind, type SessionEnd } from '../hosting/index.ts';
import type { Opponent } from './opponents.ts';

/** One move of a game being played: the position before it, the move, who made it and how long it took. */
export interface Ply {
  readonly before: unknown;
  readonly after: unknown;
  readonly move: unknown;
  readonly text: string;
  readonly seat: Seat;
  /** The bot's time as its host measured it (0 for the human's moves). */
  readonly ms: number;
}

/** A game against a bot as a screen sees it at one moment (a new object after every change). */
export interface PlayState {
  readonly state: unknown;
  /** The position before the last move (for the board's "just taken" marks). */
  readonly prev: unknown;
  readonly history: readonly Ply[];
  readonly toMove: Seat;
  /** The legal moves; empty once the game is over. */
  readonly moves: readonly unknown[];
  /** Set when the game is over, by the rules or by the bot's forfeit. */
  readonly outcome: Outcome | null;
  /** Why the bot lost by forfeit (`optimal forfeits: timeout (…)`), or null. */
  readonly forfeit: string | null;
  /** Whether the bot has been asked for a move and has not answered yet. */
  readonly thinking: boolean;
}

/** What one game is played from. */
export interface GameSetup {
  readonly game: AnyGame;
  /** The start position (dealt by the caller). */
  readonly start: unknown;
  /** The seat the human plays; the bot plays the other. */
  readonly human: Seat;
  readonly opponent: Opponent;
  /** Seeds the bot's generator, so a game replays exactly. */
  readonly seed: number;
}

/** Who moves first in the dealt position: the human (`me`) or the bot. */
export type FirstMover = 'me' | 'bot';

/** What a person chooses to play (on the command line or in the menus). */
export interface PlayChoice {
  readonly game: AnyGame;
  readonly opponent: Opponent;
  readonly first: FirstMover;
}

/**
 * Game `round` of a run seeded `seed`: its position dealt from a seed derived from both (the same
 * run replays exactly), the human in the seat `first` asks for.
 */
export function dealGame(choice: PlayChoice, seed: number, round: number): GameSetup {
  const { game, opponent, first } = choice;
  const roundSeed = deriveSeed(seed, 'play', round);
  const start = game.deal(createRng(roundSeed));
  const mover = game.toMove(start);
  return { game, start, human: first === 'me' ? mover : otherSeat(mover), opponent, seed: roundSeed };
}

/** The bot's host as a session uses it: shared by the games of one opponent, started once. */
export interface HostedBot {
  readonly host: BotHost;
  /** Resolves to null once the host runs, or to why it could not start. */
  readonly started: Promise<string | null>;
}

/**
 * How long the session waits before asking the bot, so a screen can show "thinking" before a bot
 * that runs on this thread (isolation `none`, or a bot object given directly) holds it.
 */
const ASK_DELAY_MS = 15;

/**
 * A game against a bot. It asks the bot for a move whenever it is the bot's turn, checks the reply
 * against the legal moves with the referee a tournament uses, and makes a faulty bot (an illegal
 * move, a crash, no answer in time, a bot that cannot start) forfeit with the reason. The bot runs
 * wherever its host puts it (see PlayTable); the session closes its own game with the bot, never
 * the host. Open sessions with `PlayTable.open`.
 */
export class PlaySession {
  readonly game: AnyGame;
  readonly human: Seat;
  readonly opponent: Opponent;
  readonly #start: unknown;
  readonly #seed: number;
  readonly #bot: HostedBot;
  readonly #timePerMoveMs: number;
  readonly #onClose: () => void;
  readonly #listeners = new Set<() => void>();
  #history: readonly Ply[] = [];
  #forfeit: string | null = null;
  #thinking = false;
  #closed = false;
  /** The bot's side of this game, opened at its first turn; null again once told how the game ended. */
  #botGame: Promise<BotSession | string> | null = null;
  /** How many times the bot's side was opened (undo after the end opens it again, with a fresh seed). */
  #openings = 0;
  /** Counts the bot's turns, so a reply that arrives after close is dropped. */
  #turn = 0;
  #askTimer: ReturnType<typeof setTimeout> | null = null;
  #snapshot: PlayState;

  /** Use `PlayTable.open`, which owns the bot's host and closes it. */
  constructor(setup: GameSetup, bot: HostedBot, timePerMoveMs: number, onClose: () => void) {
    this.game = setup.game;
    this.human = setup.human;
    this.opponent = setup.opponent;
    this.#start = setup.start;
    this.#seed = setup.seed;
    this.#bot = bot;
    this.#timePerMoveMs = timePerMoveMs;
    this.#onClose = onClose;
    this.#snapshot = this.#build();
    this.#askIfBotToMove();
  }

  /** The game as it stands (the same object until something changes, as `useSyncExternalStore` wants). */
  readonly getSnapshot = (): PlayState => this.#snapshot;

  /** Calls `listener` after every change; returns the unsubscribe function. */
  readonly subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  };

  /** Whether `close` was called. */
  get closed(): boolean {
    return this.#closed;
  }

  /**
   * Plays the human's move: true when it was played, false (nothing changes) unless it is the
   * human's turn in a game still on and the move is one of the legal moves (compared as the
   * referee compares a bot's reply).
   */
  play(move: unknown): boolean {
    const s = this.#snapshot;
    if (this.#closed || s.outcome !== null || s.thinking || s.toMove !== this.human) return false;
    const i = findMove(this.game, s.moves, move);
    if (i < 0) return false;
    this.#push(s.moves[i], this.human, 0);
    return true;
  }

  /**
   * Takes back the human's last move and everything after it (the bot's reply, or its forfeit):
   * false when there is none or while the bot is thinking. Works after the end too, to play on.
   */
  undo(): boolean {
    if (this.#closed || this.#thinking) return false;
    const lastHuman = this.#history.map((p) => p.seat).lastIndexOf(this.human);
    if (lastHuman < 0) return false;
    this.#history = this.#history.slice(0, lastHuman);
    this.#forfeit = null;
    this.#changed();
    return true;
  }

  /** Ends the game: the bot's side is closed (its host stays with the table); later calls do nothing. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#turn++;
    if (this.#askTimer) clearTimeout(this.#askTimer);
    this.#endBotGame();
    this.#listeners.clear();
    this.#onClose();
  }

  #build(): PlayState {
    const history = this.#history;
    const last = history[history.length - 1];
    const state = last ? last.after : this.#start;
    const rules = this.game.outcome(state);
    return {
      state,
      prev: last?.before,
      history,
      toMove: this.game.toMove(state),
      moves: rules || this.#forfeit !== null ? [] : this.game.moves(state),
      outcome: this.#forfeit !== null ? { winner: this.human } : rules,
      forfeit: this.#forfeit,
      thinking: this.#thinking,
    };
  }

  #changed(): void {
    this.#snapshot = this.#build();
    for (const listener of [...this.#listeners]) listener();
  }

  /** Plays a legal move, tells the bot how the game ended if it did, and asks the bot if its turn came. */
  #push(move: unknown, seat: Seat, ms: number): void {
    const before = this.#snapshot.state;
    const after = this.game.play(before, move);
    this.#history = [...this.#history, { before, after, move, text: this.game.formatMove(move), seat, ms }];
    this.#changed();
    const outcome = this.#snapshot.outcome;
    if (outcome) this.#endBotGame({ winner: outcome.winner, termination: 'normal', reason: null, ...(outcome.scores ? { scores: outcome.scores } : {}) });
    else this.#askIfBotToMove();
  }

  #askIfBotToMove(): void {
    const s = this.#snapshot;
    if (this.#closed || s.outcome !== null || s.toMove === this.human || this.#thinking) return;
    this.#thinking = true;
    this.#changed();
    const turn = ++this.#turn;
    this.#askTimer = setTimeout(() => {
      this.#askTimer = null;
      void this.#ask(turn);
    }, ASK_DELAY_MS);
  }

  async #ask(turn: number): Promise<void> {
    const botGame = await this.#openBotGame();
    if (turn !== this.#turn) return;
    if (typeof botGame === 'string') {
      this.#forfeitWith('crash', `failed to start: ${botGame}`);
      return;
    }
    const { state, moves } = this.#snapshot;
    let reply: MoveReply;
    try {
      reply = await botGame.move(state, moves, this.#timePerMoveMs);
    } catch (err) {
      // Hosts turn whatever a bot does into a fault; a host that throws all the same loses the game for its bot.
      reply = { ok: false, kind: 'crash', reason: errorText(err), ms: 0 };
    }
    if (turn !== this.#turn) return;
    this.#thinking = false;
    const i = judgeReply(this.game, moves, reply);
    if (typeof i === 'number') this.#push(moves[i], otherSeat(this.human), reply.ms);
    else this.#forfeitWith(i.kind, i.reason);
  }

  #forfeitWith(kind: FaultKind, reason: string): void {
    this.#thinking = false;
    // The screen's one text from the bot (its error, its output): control characters made visible.
    this.#forfeit = visible(`${this.opponent.label} forfeits: ${kind} (${reason})`);
    this.#changed();
    this.#endBotGame({ winner: this.human, termination: kind, reason });
  }

  /** The bot's side of the game: opened once per stretch of play; a string says why it could not open. */
  #openBotGame(): Promise<BotSession | string> {
    this.#botGame ??= (async (): Promise<BotSession | string> => {
      const failure = await this.#bot.started;
      if (failure !== null) return failure;
      const n = this.#openings++;
      const { host } = this.#bot;
      try {
        return await host.open({
          key: `play-${this.#seed}${n > 0 ? `-${n}` : ''}`,
          variant: this.game.id,
          seat: otherSeat(this.human),
          rngSeed: n === 0 ? deriveSeed(this.#seed, 'play-bot') : deriveSeed(this.#seed, 'play-bot', n),
        });
      } catch (err) {
        return host.failure ?? (err instanceof Error ? err.message : String(err));
      }
    })();
    return this.#botGame;
  }

  /** Closes the bot's side, telling it how the game ended (nothing when it is abandoned). */
  #endBotGame(end?: SessionEnd): void {
    const botGame = this.#botGame;
    this.#botGame = null;
    // Never rejects: #openBotGame turns every failure into its reason.
    void botGame?.then((b) => {
      if (typeof b !== 'string') b.close(end);
    });
  }
}
