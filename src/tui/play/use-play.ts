import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { AnyBot } from '../../core/bot.ts';
import { otherSeat, type AnyGame, type Outcome, type Seat } from '../../core/game.ts';
import { deriveSeed } from '../../core/rng.ts';
import { findMove, judgeReply } from '../../core/referee.ts';
import { createHost, type BotEntry, type BotSession } from '../../hosting/index.ts';
import { DEFAULT_STORE_CAP_BYTES, defaultBotDataRoot } from '../../platform/bot-store.ts';

/** Bots keep their stores in the user's cache in play too: a learning bot learns from your games. */
const PLAY_BOT_DATA = { root: defaultBotDataRoot(), capBytes: DEFAULT_STORE_CAP_BYTES };

/** The bot a human plays against, run in-process through the arena's bot host. */
export interface Opponent {
  /** Canonical label (`minimax:depth=6`). */
  readonly label: string;
  readonly name: string;
  readonly bot: AnyBot;
  /** Validated options, defaults filled. */
  readonly options: Readonly<Record<string, unknown>>;
  /** The registry entry, when the bot was discovered: picks its transport (an external program runs in its own process). */
  readonly entry?: BotEntry;
}

/** One move of a game being played: the position before it, the move, who made it and how long it took. */
export interface Ply {
  readonly before: unknown;
  readonly after: unknown;
  readonly move: unknown;
  readonly text: string;
  readonly seat: Seat;
  readonly ms: number;
}

/** A game against a bot as the play screen sees it. */
export interface PlayModel {
  readonly state: unknown;
  /** The position before the last move (for the board's "just taken" marks). */
  readonly prev: unknown;
  readonly history: readonly Ply[];
  readonly toMove: Seat;
  readonly moves: readonly unknown[];
  /** Set when the game is over, by the rules or by the bot's forfeit. */
  readonly outcome: Outcome | null;
  /** Why the bot lost by forfeit (timeout, crash, illegal move), or null. */
  readonly forfeit: string | null;
  readonly thinking: boolean;
  /** Plays the human's move (ignored unless it is the human's turn and the move is legal). */
  play(move: unknown): void;
  /** Takes back the human's last move and the bot's reply to it; false when there is none. */
  undo(): boolean;
}

/** What a game against a bot is played with. */
export type PlayOptions = {
  readonly game: AnyGame;
  readonly start: unknown;
  readonly human: Seat;
  readonly opponent: Opponent;
  /** Seeds the bot's generator, so a game replays exactly. */
  readonly seed: number;
  readonly timePerMoveMs: number;
};

/**
 * The play loop: keeps the move history (the state is always the last ply's `after`), asks the bot
 * for its move whenever it is the bot's turn, checks the reply against the legal moves, and makes a
 * faulty bot forfeit the game with the reason, as a tournament would.
 */
export function usePlay({ game, start, human, opponent, seed, timePerMoveMs }: PlayOptions): PlayModel {
  const [history, setHistory] = useState<readonly Ply[]>([]);
  const [forfeit, setForfeit] = useState<string | null>(null);
  const [thinking, setThinking] = useState(false);
  // Opening may be asynchronous (an external bot's process starts first); a failed start is its reason.
  const session = useRef<Promise<BotSession | string> | null>(null);
  const botSeat = otherSeat(human);

  useEffect(() => {
    const spec = { label: opponent.label, name: opponent.name, options: opponent.options };
    // A discovered bot keeps its store in the user's cache; a bot given directly (a test's) has none.
    const host = opponent.entry
      ? createHost(opponent.entry, spec, { isolation: 'none', memoryMb: 512, botData: PLAY_BOT_DATA })
      : createHost({ transport: 'inline', bot: opponent.bot }, spec, { isolation: 'none', memoryMb: 512 });
    const opened = (async (): Promise<BotSession | string> => {
      try {
        await host.start();
        return await host.open({ key: `play-${seed}`, variant: game.id, seat: botSeat, rngSeed: deriveSeed(seed, 'play-bot') });
      } catch (err) {
        return host.failure ?? (err instanceof Error ? err.message : String(err));
      }
    })();
    session.current = opened;
    return () => {
      session.current = null;
      void opened.then((s) => (typeof s === 'string' ? undefined : s.close()));
      void host.close();
    };
  }, [game, opponent, seed, botSeat]);

  const last = history[history.length - 1];
  const state = last ? last.after : start;
  const rulesOutcome = game.outcome(state);
  const toMove = game.toMove(state);
  const moves = useMemo(() => (rulesOutcome ? [] : game.moves(state)), [game, state, rulesOutcome]);
  const outcome: Outcome | null = forfeit !== null ? { winner: human } : rulesOutcome;

  useEffect(() => {
    if (outcome || toMove === human) return;
    let cancelled = false;
    setThinking(true);
    const ask = async (opened: Promise<BotSession | string>): Promise<void> => {
      const s = await opened;
      if (cancelled) return;
      if (typeof s === 'string') {
        setThinking(false);
        setForfeit(`${opponent.label} forfeits: crash (failed to start: ${s})`);
        return;
      }
      const reply = await s.move(state, moves, timePerMoveMs);
      if (cancelled) return;
      setThinking(false);
      // The tournament's referee: the play screen rules exactly as a match does.
      const i = judgeReply(game, moves, reply);
      if (typeof i !== 'number') {
        setForfeit(`${opponent.label} forfeits: ${i.kind} (${i.reason})`);
        return;
      }
      const legal = moves[i];
      const after = game.play(state, legal);
      setHistory((h) => [...h, { before: state, after, move: legal, text: game.formatMove(legal), seat: botSeat, ms: reply.ms }]);
    };
    // Yield a frame first, so "thinking…" is on screen before a synchronous bot blocks the loop.
    const timer = setTimeout(() => {
      const opened = session.current;
      if (opened) void ask(opened);
    }, 15);
    return () => {
      cancelled = true;
      clearTimeout(timer);
      setThinking(false);
    };
    // `moves` and `outcome` follow from `state`; re-running on them would ask the bot twice.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [state, toMove, human, forfeit]);

  const play = useCallback(
    (move: unknown) => {
      if (forfeit !== null) return;
      // Judged against the history as it is now, not as this render saw it: a keypress can arrive
      // through a handler from the frame before the bot's reply.
      setHistory((h) => {
        const cur = h.length > 0 ? h[h.length - 1]!.after : start;
        if (game.outcome(cur) || game.toMove(cur) !== human) return h;
        const list = game.moves(cur);
        const i = findMove(game, list, move);
        if (i < 0) return h;
        const legal = list[i];
        return [...h, { before: cur, after: game.play(cur, legal), move: legal, text: game.formatMove(legal), seat: human, ms: 0 }];
      });
    },
    [forfeit, game, start, human],
  );

  const undo = useCallback((): boolean => {
    if (thinking) return false;
    const lastHuman = history.map((p) => p.seat).lastIndexOf(human);
    if (lastHuman < 0) return false;
    setForfeit(null);
    setHistory(history.slice(0, lastHuman));
    return true;
  }, [thinking, history, human]);

  return { state, prev: last?.before, history, toMove, moves, outcome, forfeit, thinking, play, undo };
}
