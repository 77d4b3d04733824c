import { Box, Text, useApp } from 'ink';
import { useState } from 'react';
import type { GameRecord } from '../../arena/match.ts';
import { footer, KEYS } from '../text/keys.ts';
import { resultText } from '../text/result-text.ts';
import { ReplayGame } from './ReplayGame.tsx';
import { Menu } from '../ui/Menu.tsx';
import { useKeys } from '../ui/use-keys.ts';

type Props = {
  readonly records: readonly GameRecord[];
  /** Open this game (index into `records`) at once. */
  readonly initial?: number;
};

/** `arena replay`: pick a logged game, then step through it with the arrow keys, each move judged by the solver. */
export function ReplayApp({ records, initial }: Props) {
  const { exit } = useApp();
  const [picked, setPicked] = useState<number | null>(initial ?? null);
  useKeys((input, key) => {
    if (picked === null && KEYS.quit.match(input, key)) exit();
  });
  if (picked === null) {
    return (
      <Box flexDirection="column">
        <Text bold>{`Which game? (${records.length} in the log)`}</Text>
        <Menu
          limit={15}
          items={records.map((r, i) => ({
            key: String(i),
            label: `#${r.index + 1} ${r.seats.first} vs ${r.seats.second} ${resultText(r)} · ${r.variant}${r.faulty !== null ? ` · forfeit: ${r.termination}` : r.termination === 'adjudicated' ? ' · adjudicated' : ''}`,
            value: i,
          }))}
          onSelect={(value) => setPicked(value)}
        />
        <Text dimColor>{footer([KEYS.up, 'and ↓ choose'], [KEYS.choose, 'open'], [KEYS.quit, 'quit'])}</Text>
      </Box>
    );
  }
  return <ReplayGame key={picked} record={records[picked]!} onBack={() => setPicked(null)} onQuit={exit} />;
}

