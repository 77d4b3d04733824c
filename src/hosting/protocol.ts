/**
 * The JSON-lines protocol spoken with external bots (docs/PROTOCOL.md): one JSON object per line
 * on the bot's stdin (arena → bot) and stdout (bot → arena). This module holds the message types,
 * their encoding and the validation of what a bot writes; `process-host.ts` does the I/O.
 */
import { z } from 'zod';
import { show } from '../core/errors.ts';
import type { Outcome, Seat } from '../core/game.ts';
import type { FaultKind } from './host.ts';

/** The protocol version the arena speaks; sent in `hello`, a bot may echo it. */
export const PROTOCOL_VERSION = 1;

/** How a game ended, as `game-over` tells it. */
export type GameOverTermination = 'normal' | FaultKind | 'adjudicated' | 'interrupted';

/** Arena → bot messages. */
export type ToBot =
  | { readonly type: 'hello'; readonly protocol: number; readonly arena: 'take-arena'; readonly bot: string }
  | {
      readonly type: 'new-game';
      /**
       * The game's id: opaque and unique within the run, and different in every run (it is keyed
       * with a secret of the arena's, so it cannot be hashed back to the opponent); the game's key
       * in the schedule, which names both bots, with `revealOpponents`.
       */
      readonly game: string;
      readonly family: string;
      readonly variant: string;
      /** The variant's validated parameters, defaults filled (big integers as decimal strings). */
      readonly params: Readonly<Record<string, unknown>>;
      readonly seat: Seat;
      /** Seed for the bot's own generator: a bot that seeds from it replays exactly. */
      readonly seed: number;
    }
  | {
      readonly type: 'move-request';
      readonly id: number;
      /** The position as the family's `toJSON` (docs/PROTOCOL.md lists each shape). */
      readonly position: unknown;
      /** The legal moves in GAMES.md notation; the answer must be one of them. */
      readonly moves: readonly string[];
      /** Milliseconds left for this move. */
      readonly timeMs: number;
      /** Under a time control only: the bot's bank as this move begins (ms; `timeMs` is never more). */
      readonly timeLeftMs?: number;
      /** Under a time control only: added to the bot's bank after each of its moves (ms). */
      readonly incrementMs?: number;
      /** Under a time control only: the opponent's bank (ms). */
      readonly opponentTimeLeftMs?: number;
      /** Sandboxed module bots only: the position and moves as v8-serialized values (base64). */
      readonly native?: string;
      /**
       * Sandboxed module bots only: no position; the runner runs the bot's `prepare` for the game
       * just opened and answers `{"move": ""}` once it is done (`timeMs` is the prepare's budget).
       */
      readonly prepare?: true;
    }
  | {
      readonly type: 'game-over';
      readonly game: string;
      /** This bot's result; null when the game was abandoned (a check, an interrupted tournament). */
      readonly result: 'win' | 'loss' | 'draw' | null;
      readonly winner: Seat | null;
      readonly termination: GameOverTermination;
      readonly reason: string | null;
      readonly scores?: readonly [number, number];
    }
  | { readonly type: 'quit' };

/** JSON.stringify that writes bigints (huge piles in parameters) as decimal strings. */
export function encodeMessage(msg: ToBot): string {
  try {
    return JSON.stringify(msg);
  } catch (err) {
    // Only parameters of huge piles carry bigints; the replacer is slower, so it is the fallback.
    if (err instanceof TypeError) return JSON.stringify(msg, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
    throw err;
  }
}

/**
 * The `game-over` message for a bot in `seat`, from how the game ended (undefined: abandoned). The
 * reason of the opponent's forfeit is told only when `revealOpponents`: it may name the opponent
 * (its log file, its own error text), which a bot may not learn otherwise (docs/SECURITY.md).
 */
export function gameOverMessage(
  game: string,
  seat: Seat,
  end: { readonly winner: Seat | null; readonly termination: GameOverTermination; readonly reason: string | null; readonly scores?: Outcome['scores'] } | undefined,
  revealOpponents = false,
): ToBot {
  if (!end) return { type: 'game-over', game, result: null, winner: null, termination: 'interrupted', reason: 'the arena ended the game early' };
  const result = end.termination === 'interrupted' ? null : end.winner === null ? 'draw' : end.winner === seat ? 'win' : 'loss';
  const opponentForfeited = result === 'win' && (end.termination === 'timeout' || end.termination === 'crash' || end.termination === 'illegal-move');
  return {
    type: 'game-over',
    game,
    result,
    winner: end.winner,
    termination: end.termination,
    reason: opponentForfeited && !revealOpponents ? null : end.reason,
    ...(end.scores ? { scores: [end.scores[0], end.scores[1]] as const } : {}),
  };
}

const helloReply = z.object({
  type: z.enum(['hello', 'ready']),
  protocol: z.number().int().optional(),
  name: z.string().optional(),
});

/** The bot's answer to `hello`, or why it is not one. */
export function parseHelloReply(line: string): { ok: true; name: string | null } | { ok: false; reason: string } {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { ok: false, reason: `answered hello with ${show(clip(line))}, expected {"type": "ready"} or {"type": "hello", "protocol": ${PROTOCOL_VERSION}}` };
  }
  const parsed = helloReply.safeParse(value);
  if (!parsed.success) {
    return { ok: false, reason: `answered hello with ${show(value)}, expected {"type": "ready"} or {"type": "hello", "protocol": ${PROTOCOL_VERSION}}` };
  }
  if (parsed.data.protocol !== undefined && parsed.data.protocol !== PROTOCOL_VERSION) {
    return { ok: false, reason: `speaks protocol ${parsed.data.protocol}, expected ${PROTOCOL_VERSION}` };
  }
  return { ok: true, name: parsed.data.name ?? null };
}

/** A line a bot wrote while a move was requested: a move text (with the id it answers, if any) or garbage. */
export type MoveLine =
  | {
      readonly ok: true;
      readonly move: string;
      readonly id: number | null;
      /** `"clock": true`: the deadline, not the bot's budget, ended its search */
      readonly clock: boolean;
      /** `"thinkMs"`: the bot's own think time for this move (ms), present when it reports one. */
      readonly thinkMs?: number;
    }
  | { readonly ok: false; readonly reason: string; readonly id?: number | null; readonly error?: string };

/** Parses a bot's answer to `move-request`: `{"move": "13-15"}`, optionally with `"id"` and `"type": "move"`. */
export function parseMoveLine(line: string): MoveLine {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { ok: false, reason: `answered ${show(clip(line))}, not a JSON object like {"move": "5"}` };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, reason: `answered ${show(value)}, not a JSON object like {"move": "5"}` };
  }
  const o = value as Record<string, unknown>;
  const move = o['move'];
  const id = o['id'];
  if (o['type'] === 'error') {
    // `{"type":"error","reason":"…"}`: the bot cannot move (it forfeits with `crash` and the reason).
    const why = typeof o['reason'] === 'string' ? clip(o['reason']) : 'no reason given';
    return { ok: false, reason: `reported an error: ${why}`, error: why, id: Number.isSafeInteger(id) ? (id as number) : null };
  }
  if (typeof move !== 'string') {
    // A number is a common slip for one-pile games; the notation is text, so say so.
    return { ok: false, reason: `answered ${show(value)}: expected \`move\` to be a string in GAMES.md notation, got ${show(move)}` };
  }
  if (id !== undefined && !Number.isSafeInteger(id)) return { ok: false, reason: `answered ${show(value)}: expected \`id\` to be an integer, got ${show(id)}` };
  const think = o['thinkMs'];
  // A think time that is not a finite number ≥ 0 is ignored (the round trip is charged), not a fault.
  const answer = { ok: true as const, move, id: (id as number | undefined) ?? null, clock: o['clock'] === true };
  return typeof think === 'number' && Number.isFinite(think) && think >= 0 ? { ...answer, thinkMs: think } : answer;
}

/** A long line shortened for a message (the full line is in the bot's log). */
function clip(line: string): string {
  return line.length > 120 ? `${line.slice(0, 117)}...` : line;
}
