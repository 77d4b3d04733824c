/**
 * The bots a person can play: each discovered bot with its options, as the opponent menu lists
 * them, and whether one plays a variant. What the TUI knows of a bot it reads here, never from
 * the hosts.
 */
import type { AnyBot } from '../core/bot.ts';
import type { AnyGame } from '../core/game.ts';
import { botOptions, supportedBy, type BotChoice, type BotEntry, type BotRegistry } from '../hosting/index.ts';
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
