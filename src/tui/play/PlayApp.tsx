import { useApp, useStdout } from 'ink';
import { useMemo, useState } from 'react';
import { otherSeat, type AnyFamily, type AnyGame } from '../../core/game.ts';
import { createRng, deriveSeed } from '../../core/rng.ts';
import { PlayGame } from './PlayGame.tsx';
import { PlaySetup, type FirstMover, type PlayChoice } from './PlaySetup.tsx';
import { useWidth } from '../ui/use-width.ts';
import type { Opponent } from './use-play.ts';

type Props = {
  readonly families: readonly AnyFamily[];
  /** Every bot the player may choose, with default options. */
  readonly opponents: readonly Opponent[];
  readonly game?: AnyGame;
  readonly opponent?: Opponent;
  readonly first?: FirstMover;
  /** Seeds the deals and the bot; game k of the session uses a seed derived from it and k. */
  readonly seed: number;
  readonly timePerMoveMs: number;
  /** Called when the player quits. */
  readonly onQuit?: () => void;
};

/** `arena play`: the setup menus for whatever the command line left open, then games until the player quits. */
export function PlayApp({ families, opponents, game, opponent, first, seed, timePerMoveMs, onQuit }: Props) {
  const { exit } = useApp();
  const width = useWidth();
  const { stdout } = useStdout();
  const ready = game && opponent && first ? { game, opponent, first } : null;
  const [choice, setChoice] = useState<PlayChoice | null>(ready);
  const [round, setRound] = useState(0);

  const roundSeed = deriveSeed(seed, 'play', round);
  // Dealt once per round: a fresh state object on every render would restart the bot's turn.
  const start = useMemo(() => choice?.game.deal(createRng(roundSeed)), [choice, roundSeed]);

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
  const mover = choice.game.toMove(start);
  const human = choice.first === 'me' ? mover : otherSeat(mover);
  return (
    <PlayGame
      key={round}
      game={choice.game}
      start={start}
      human={human}
      opponent={choice.opponent}
      seed={roundSeed}
      timePerMoveMs={timePerMoveMs}
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
