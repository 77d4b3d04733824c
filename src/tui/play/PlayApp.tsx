import { useApp, useStdout } from 'ink';
import { useMemo, useState } from 'react';
import { dealGame, type PlayChoice, type PlayTable } from '../../play/index.ts';
import { PlayGame } from './PlayGame.tsx';
import { PlaySetup, type SetupChoices } from './PlaySetup.tsx';
import { useWidth } from '../ui/use-width.ts';
import { usePlaySession } from './use-play.ts';

type Props = SetupChoices & {
  /** Where the games are played: it hosts the bots (the caller closes it when the app has exited). */
  readonly table: PlayTable;
  /** Seeds the deals and the bot; game k uses a seed derived from it and k. */
  readonly seed: number;
  /** Called when the player quits. */
  readonly onQuit?: () => void;
};

/** `arena play`: the setup menus for whatever the command line left open, then games until the player quits. */
export function PlayApp({ families, opponents, table, game, opponent, first, seed, onQuit }: Props) {
  const { exit } = useApp();
  const width = useWidth();
  const { stdout } = useStdout();
  const ready = game && opponent && first ? { game, opponent, first } : null;
  const [choice, setChoice] = useState<PlayChoice | null>(ready);
  const [round, setRound] = useState(0);

  // Dealt once per round: a new setup opens a new game with the bot.
  const setup = useMemo(() => (choice ? dealGame(choice, seed, round) : null), [choice, seed, round]);
  const session = usePlaySession(table, setup);

  if (!choice) {
    return (
      <PlaySetup
        families={families}
        opponents={opponents}
        {...(game ? { game } : {})}
        {...(opponent ? { opponent } : {})}
        {...(first ? { first } : {})}
        onDone={setChoice}
      />
    );
  }
  if (!session) return null;
  return (
    <PlayGame
      key={round}
      session={session}
      width={width}
      height={stdout.rows || 24}
      onEnd={(end) => {
        if (end === 'again') setRound(round + 1);
        else {
          onQuit?.();
          exit();
        }
      }}
    />
  );
}
