import { Text } from 'ink';
import type { AnyGame, Seat } from '../../core/game.ts';
import type { Ply } from '../../play/index.ts';
import { plyText } from '../boards/board-view.ts';
import { useTheme } from '../text/theme.ts';

type Props = {
  readonly game: AnyGame;
  readonly plies: readonly Ply[];
  /** What to call each seat (`you` and the bot's label). */
  readonly names: Readonly<Record<Seat, string>>;
  /** Columns available: the oldest moves give way to `…` when the line is full. */
  readonly width: number;
};

const HEAD = 'Moves: ';
const SEP = ' · ';
const CUT = '… ';

/**
 * The moves of the game so far, both sides', numbered and named, on one line:
 * `Moves: 1. you 2 · 2. optimal 1`. The newest moves that fit are shown whole; older ones give way
 * to `…` (only the shown moves are formatted, so a long End Game costs no more than a short one).
 */
export function MoveHistory({ game, plies, names, width }: Props) {
  const theme = useTheme();
  if (plies.length === 0) return null;
  const item = (i: number): string => `${i + 1}. ${names[plies[i]!.seat]} ${plyText(game, plies[i]!)}`;
  const shown = [item(plies.length - 1)];
  let used = HEAD.length + CUT.length + shown[0]!.length;
  for (let i = plies.length - 2; i >= 0; i--) {
    const next = item(i);
    if (used + SEP.length + next.length > width) break;
    used += SEP.length + next.length;
    shown.unshift(next);
  }
  return (
    <Text>
      <Text bold>{HEAD}</Text>
      <Text {...theme.muted}>{shown.length < plies.length ? CUT : ''}</Text>
      {shown.join(SEP)}
    </Text>
  );
}
