/**
 * The bots a person can play: each discovered bot with its options, as the opponent menu lists
 * them, and whether one plays a variant. What the TUI knows of a bot it reads here, never from
 * the hosts.
 */
import type { AnyBot } from '../core/bot.ts';
import type { AnyGame } from '../core/game.ts';
import { dirname } from 'node:path';
import { botOptions, BUILTIN_BOTS_DIR, supportedBy, type BotChoice, type BotEntry, type BotRegistry } from '../hosting/index.ts';
import { STRENGTH_LEVELS, type StrengthLevel } from '../strategies/index.ts';

/** A bot a human plays against: which bot, with which options, and how it runs. */
export interface Opponent {
  /** Canonical label (`minimax:depth=6`). */
  readonly label: string;
  readonly name: string;
  /**
   * The bot's descriptor (name, description, options, `supports`). For a discovered bot it only
   * describes: the bot itself runs where the play table's isolation puts it.
   */
  readonly bot: AnyBot;
  /** Validated options, defaults filled. */
  readonly options: Readonly<Record<string, unknown>>;
  /**
   * The registry entry of a discovered bot: a module (run at the table's isolation) or an external
   * program (always its own process). Without one, `bot` is a bot object given directly (a test's,
   * or a program embedding the arena), which can only run in this process.
   */
  readonly entry?: BotEntry;
}

/** The opponent a `--bot` choice names. */
export function opponentOf(choice: BotChoice): Opponent {
  return { label: choice.label, name: choice.entry.name, bot: choice.entry.bot, options: choice.options, entry: choice.entry };
}

/**
 * Every discovered bot with its default options, as the opponent menu lists them; a bot with a
 * `strength` option (optimal) also at the easy and medium levels, after its perfect self.
 */
export function opponentsOf(registry: BotRegistry): Opponent[] {
  return registry.bots.flatMap((b) => {
    const plain: Opponent = { label: b.name, name: b.name, bot: b.bot, options: botOptions(b.bot, {}), entry: b };
    if (!b.bot.options || !('strength' in b.bot.options)) return [plain];
    const levels = (Object.keys(STRENGTH_LEVELS) as StrengthLevel[]).filter((l) => STRENGTH_LEVELS[l] < 1);
    return [
      plain,
      ...levels.map((level) => ({ label: `${b.name}:strength=${level}`, name: b.name, bot: b.bot, options: botOptions(b.bot, { strength: level }), entry: b })),
    ];
  });
}

/** Whether the opponent plays this variant (its `supports`, as discovery read it). */
export function plays(opponent: Opponent, game: AnyGame): boolean {
  return supportedBy(opponent.bot, game);
}

/** The arena's own bots (bots/ of the package) in plain words, for the opponent menus; any other bot shows its own description. */
const PLAIN_WORDS: Readonly<Record<string, string>> = {
  random: 'picks any legal move at random: the easiest opponent',
  greedy: 'grabs the biggest gain right now (the largest take, the larger end, the most coins); never looks ahead',
  minimax: 'looks ahead as far as its budget allows and takes the best move it sees; perfect on small games',
  mcts: 'plays many random games from each move and picks the move that won most often',
  optimal: 'perfect play: wins every position that can be won, and makes a lost one last longest',
  hybrid: 'plays like greedy while the game is large, perfectly once it gets small',
  learner: 'searches for a win within a budget and remembers the positions it solved in earlier games',
  parity: 'End Game: collects all the numbers at odd places or all at even places, whichever sum more',
  priority: 'coins on points: takes the line sizes the scoring rewards most',
};

/** An opponent's strength level by name (`easy`, `medium`), or null for a bot without one (or at full strength). */
function levelOf(o: Opponent): string | null {
  const p = o.options['strength'];
  if (typeof p !== 'number' || p >= 1) return null;
  return (Object.keys(STRENGTH_LEVELS) as StrengthLevel[]).find((l) => STRENGTH_LEVELS[l] === p) ?? `strength ${p}`;
}

/**
 * An opponent as the menus name it: `optimal (easy)` for `optimal:strength=easy`, as the README's
 * easy / medium / perfect levels; `optimal (perfect)` for the bot at full strength; else its label.
 */
export function opponentName(o: Opponent): string {
  const level = levelOf(o);
  if (level !== null) return `${o.name} (${level})`;
  return o.bot.options && 'strength' in o.bot.options ? `${o.name} (perfect)` : o.label;
}

/** What an opponent does, in plain words: its level's odds, a built-in bot's sentence, or the bot's own description. */
export function opponentWords(o: Opponent): string {
  const p = o.options['strength'];
  if (levelOf(o) !== null && typeof p === 'number') return `the best move ${Math.round(p * 100)}% of the time, else a random legal one`;
  const builtIn = o.entry !== undefined && o.entry.transport !== 'process' && dirname(o.entry.file) === BUILTIN_BOTS_DIR;
  return (builtIn ? PLAIN_WORDS[o.name] : undefined) ?? o.bot.description;
}
