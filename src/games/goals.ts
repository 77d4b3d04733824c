/**
 * How each family is won, in words (GAMES.md): the goal a variant carries (`Game.goal`) for the
 * play screen, its help and its game-over line, and the glossary of the terms the screens and the
 * explanations use (P-position, class L, nim-sum, …). Rules only: the TUI renders these texts.
 */
import { otherSeat, type GameGoal, type Seat } from '../core/game.ts';

/** A set of takes as text: `{1,2,3}`. */
export const setText = (takes: readonly number[]): string => `{${takes.join(',')}}`;

/** What the end rule of a game decided by who can still move is called, in either play convention. */
function endRule(misere: boolean): string {
  return misere ? 'under misère who makes the last move loses' : 'who cannot move loses';
}

/**
 * The goal of a game won by moving last (normal play) or by not moving last (misère): the one-pile
 * families and piles. `moves` says in a sentence who may take what; `stone` names what is taken;
 * `why` adds to the game-over line why the player to move could not move (no-repeat's forbidden take).
 */
export function lastMoveGoal<S>(opts: {
  readonly misere: boolean;
  readonly moves: string;
  readonly stone: string;
  readonly toMove: (s: S) => Seat;
  readonly why?: (s: S) => string;
}): GameGoal<S> {
  const { misere, moves, stone, toMove, why } = opts;
  const short = misere
    ? `Goal: make your opponent take the last ${stone}. Misère: who makes the last move loses.`
    : `Goal: take the last ${stone}, leaving your opponent no move. Who cannot move loses.`;
  return {
    short,
    full: [
      moves,
      misere
        ? `Misère play: the player who makes the last move loses, so you want your opponent to be the one who takes the last ${stone}.`
        : `Normal play: the player who cannot move on their turn loses, so who takes the last ${stone} (or leaves no legal take) wins.`,
    ],
    ending(s, names) {
      const mover = toMove(s);
      const detail = why ? why(s) : '';
      return misere
        ? `${names[otherSeat(mover)]} made the last move: ${endRule(true)}`
        : `${names[mover]} cannot move${detail}: ${endRule(false)}`;
    },
  };
}

/** Terms the screens and explanations use, each with its meaning in a few words (GAMES.md's vocabulary). */
export const GLOSSARY: readonly (readonly [term: string, meaning: string])[] = [
  ['P-position', 'the player to move loses against perfect play (a cold position)'],
  ['N-position', 'the player to move wins with perfect play (a hot position)'],
  ['class L', 'Left wins whoever moves first'],
  ['class R', 'Right wins whoever moves first'],
  ['class N', 'whoever moves next wins'],
  ['class P', 'whoever moves next loses'],
  ['nim-sum', 'the XOR of the piles’ nim-values (for Nim, of the pile sizes); 0 means a P-position'],
  ['nim-value', 'the Grundy number of a pile: the smallest value none of its moves leads to'],
  ['normal play', 'who cannot move loses'],
  ['misère', 'who makes the last move loses'],
];

/** The glossary lines (`term: meaning`) of the terms `text` uses, each once, in glossary order. */
export function glossaryFor(text: string): string[] {
  const lower = text.toLowerCase();
  return GLOSSARY.filter(([term]) => lower.includes(term.toLowerCase())).map(([term, meaning]) => `${term}: ${meaning}`);
}

/** What a game without a goal of its own (a user's game that gives none) says it is won by. */
const GENERIC_GOAL: GameGoal = {
  short: 'Goal: win by this game’s own rules (it gives no goal text); the game says who won when it ends.',
  full: ['This game gives no description of how it is won: its rules decide the winner when no move is left.'],
};

/**
 * The variant's goal; without one, its family's rules in a sentence (`summary`, for a built-in
 * family that gives no goal of its own), else a generic one (a user's game that gives none).
 */
export function goalOf<S>(game: { readonly goal?: GameGoal<S> }, summary?: string): GameGoal<S> {
  if (game.goal) return game.goal;
  return summary ? { short: summary, full: [summary] } : (GENERIC_GOAL as GameGoal<S>);
}

/** The rule that decided a finished game as a sentence (`You took the last coin: who takes the last coin loses.`), or null without one. */
export function endingSentence<S>(game: { readonly goal?: GameGoal<S> }, final: S, names: Readonly<Record<Seat, string>>): string | null {
  const text = game.goal?.ending?.(final, names);
  return text ? `${text[0]!.toUpperCase()}${text.slice(1)}.` : null;
}
