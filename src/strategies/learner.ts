/**
 * Learning across games and runs (seed 003's "dynamic improvement": memo tables built while
 * playing, stored in files and reloaded). A budgeted proof search decides positions it can; the
 * positions of its games that it proves (won or lost for the player to move) go into the bot's
 * store, and later runs read them back as solved leaves, so the same budget proves positions
 * further from the end. Knowledge flows backwards from the ends of games, one run at a time.
 *
 * Only win/loss games (no draws): a proof of "the player to move cannot win" is then a proof of
 * a loss. The search is bounded by a node count, not the clock (the clock is only a safety net),
 * and reads only the store's snapshot from the start of the run, so the learner's games are the
 * same for the same spec, seed and starting store.
 */
import type { BotStore } from '../core/bot.ts';
import type { Game } from '../core/game.ts';

/** What is known of positions: key → true when won for the player to move, false when lost. */
export type Knowledge = ReadonlyMap<string, boolean>;

/** The store key of a variant's table: `solved-` and a hash of the variant id (store keys are short). */
export function knowledgeKey(variantId: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < variantId.length; i++) h = Math.imul(h ^ variantId.charCodeAt(i), 0x01000193) >>> 0;
  return `solved-${h.toString(16).padStart(8, '0')}`;
}

/** Serialises knowledge as text lines `W <key>` / `L <key>`, sorted (so equal tables give equal blobs). */
export function encodeKnowledge(known: Knowledge): Uint8Array {
  const lines = [...known].map(([k, win]) => `${win ? 'W' : 'L'} ${k}`).sort();
  return new TextEncoder().encode(lines.join('\n'));
}

/** Parses `encodeKnowledge`'s text; lines that do not fit the format are skipped. */
export function decodeKnowledge(bytes: Uint8Array | undefined): Map<string, boolean> {
  const known = new Map<string, boolean>();
  if (!bytes || bytes.length === 0) return known;
  for (const line of new TextDecoder().decode(bytes).split('\n')) {
    if (line.length > 2 && line[1] === ' ' && (line[0] === 'W' || line[0] === 'L')) known.set(line.slice(2), line[0] === 'W');
  }
  return known;
}

/** The result of a budgeted search from one position. */
export interface LearnerSearch<M> {
  /** True: won for the player to move; false: lost; undefined: not proved within the budget. */
  readonly win: boolean | undefined;
  /** A winning move when won; else undefined. */
  readonly move: M | undefined;
  /** Each move's proved result for the opponent after it (undefined: not proved). */
  readonly children: readonly (boolean | undefined)[];
  /** Positions proved by this search (root and interior), to remember. */
  readonly proved: ReadonlyMap<string, boolean>;
  /** Nodes expanded. */
  readonly nodes: number;
  /** True when `stopAt` (the clock) cut the search before its budget: the move may then differ from run to run. */
  readonly clockStopped: boolean;
}

/**
 * Proves the position won or lost with at most `budget` expanded nodes, reading `known` (the
 * stored table) as solved leaves. Depth-first, moves tried in the order given; a memo of this
 * search's own proofs. Stops early (with undefined results) at `stopAt` (epoch ms) if it comes first.
 */
export function learnerSearch<S, M>(
  game: Game<S, M>,
  state: S,
  known: Knowledge,
  budget: number,
  stopAt = Infinity,
): LearnerSearch<M> {
  const proved = new Map<string, boolean>();
  let nodes = 0;
  let clockStopped = false;
  const solve = (s: S): boolean | undefined => {
    const over = game.outcome(s);
    if (over) return over.winner === game.toMove(s);
    const key = String(game.key(s));
    const hit = known.get(key) ?? proved.get(key);
    if (hit !== undefined) return hit;
    if (nodes >= budget) return undefined;
    if ((nodes & 255) === 0 && Date.now() > stopAt) {
      clockStopped = true;
      return undefined;
    }
    nodes++;
    let open = false;
    for (const m of game.moves(s)) {
      const r = solve(game.play(s, m));
      if (r === false) {
        proved.set(key, true);
        return true;
      }
      if (r === undefined) open = true;
    }
    if (open) return undefined;
    proved.set(key, false);
    return false;
  };
  const moves = game.moves(state);
  const children: (boolean | undefined)[] = [];
  let move: M | undefined;
  for (const m of moves) {
    const r = solve(game.play(state, m));
    children.push(r);
    if (r === false) {
      move = m;
      break;
    }
  }
  const win = move !== undefined ? true : children.length === moves.length && children.every((c) => c === true) ? false : undefined;
  if (win !== undefined) proved.set(String(game.key(state)), win);
  return { win, move, children, proved, nodes, clockStopped };
}

/**
 * Adds `learned` to a variant's table in the store, merged with what other games of this run
 * wrote meanwhile (a locked read–modify–write), keeping the table within `maxBytes`: entries past
 * it are not added (the table keeps what it learned first, which later runs build on).
 */
export function rememberKnowledge(store: BotStore, variantId: string, learned: Knowledge, maxBytes: number): void {
  if (learned.size === 0) return;
  store.updateBlob(knowledgeKey(variantId), (current) => {
    const table = decodeKnowledge(current);
    let bytes = current?.length ?? 0;
    for (const [k, win] of learned) {
      if (table.has(k)) continue;
      const cost = k.length + 3;
      if (bytes + cost > maxBytes) break;
      table.set(k, win);
      bytes += cost;
    }
    return encodeKnowledge(table);
  });
}
