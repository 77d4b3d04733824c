/**
 * The referee: judges a bot's reply against the legal moves, the same way for a tournament match,
 * `arena play` and `arena bots check`. Hosts report what the bot did (a reply, or a fault: a
 * throw, a crash, no answer in time); the referee rules on the reply itself.
 */
import { show } from './errors.ts';
import { visible } from './text.ts';
import type { AnyGame } from './game.ts';

/** How a bot can forfeit a game (besides `normal` play and `interrupted` games). */
export type FaultKind = 'timeout' | 'crash' | 'illegal-move';

/** A bot host's answer to a move request: the bot's reply (still unchecked) or a fault. */
export type MoveReply =
  | {
      readonly ok: true;
      readonly move: unknown;
      /** The time the host measured around the bot (ms): its think time in-process, the round trip through a process, through a thread its think time plus its share of the transport (see `GameRecord.us`). */
      readonly ms: number;
      /** The bot said its clock cut the answer short. */
      readonly clock?: boolean;
      /** The wall time (ms) the host measured around the bot, from sessions that say so (`BotSession.wallTimed`). */
      readonly wall?: number;
      /**
       * The bot's own think time (ms), measured where it runs (its worker thread, or reported by its
       * process), when the move was asked with a clock (a time control): what its bank is charged.
       */
      readonly think?: number;
      /**
       * Set when the bot's process was replaced since it last answered in this game (another game's
       * fault ended the process it shared): whatever the bot kept for this game there is gone, so the
       * game may play on differently than it would have. Why the old process ended.
       */
      readonly restarted?: string;
    }
  | { readonly ok: false; readonly kind: FaultKind; readonly reason: string; readonly ms: number };

/** A fault reply (the `ok: false` side of `MoveReply`): what the bot forfeits with. */
export type FaultReply = Extract<MoveReply, { ok: false }>;

/**
 * The index of a move in the legal list, or -1. Moves are compared by identity, then by their
 * `formatMove` text (a bot in another thread or process, or a solver, returns an equal move, not
 * the same object); a value the game cannot format is no move at all. The caller then plays its
 * own copy of the move, never the bot's object.
 */
export function findMove(game: AnyGame, legal: readonly unknown[], move: unknown): number {
  const same = legal.indexOf(move);
  if (same >= 0) return same;
  let text: string;
  try {
    text = game.formatMove(move);
  } catch {
    return -1;
  }
  if (typeof text !== 'string') return -1;
  for (let i = 0; i < legal.length; i++) if (game.formatMove(legal[i]) === text) return i;
  return -1;
}

/** The legal moves as text for an illegal-move reason, shortened. */
function legalText(game: AnyGame, legal: readonly unknown[]): string {
  const shown = legal.slice(0, 12).map((m) => game.formatMove(m));
  return shown.join(', ') + (legal.length > 12 ? `, … (${legal.length} in all)` : '');
}

/**
 * Rules on a host's reply: the index in `legal` of the move it names, or the fault the bot
 * forfeits with: the host's own fault (late, crashed), or `illegal-move` for a reply that is not
 * one of the legal moves (malformed or simply illegal). A fault's reason has its control
 * characters made visible (core/text.ts). A number on the legal path, so a match
 * allocates nothing per move to be judged.
 */
export function judgeReply(game: AnyGame, legal: readonly unknown[], reply: MoveReply): number | FaultReply {
  if (!reply.ok) {
    // A host's fault text may quote the bot (its error, its output): shown with controls made visible.
    const reason = visible(reply.reason);
    return reason === reply.reason ? reply : { ...reply, reason };
  }
  const i = findMove(game, legal, reply.move);
  if (i >= 0) return i;
  let shown: string;
  try {
    shown = show(reply.move);
  } catch {
    shown = 'a value that cannot be shown';
  }
  return { ok: false, kind: 'illegal-move', reason: `returned ${shown}, not one of the legal moves: ${legalText(game, legal)}`, ms: reply.ms };
}
