import { useApp } from 'ink';
import { useState } from 'react';
import type { GameRecord } from '../../arena/match.ts';
import { ReplayGame } from './ReplayGame.tsx';
import { ReplayPicker } from './ReplayPicker.tsx';

type Props = {
  readonly records: readonly GameRecord[];
  /** Open this game (index into `records`) at once. */
  readonly initial?: number;
};

/**
 * `arena replay`: pick a logged game, then step through it with the arrow keys, each move judged by
 * the solver. Back in the list (`l`), the cursor and the filter are where they were.
 */
export function ReplayApp({ records, initial }: Props) {
  const { exit } = useApp();
  const [picked, setPicked] = useState<number | null>(initial ?? null);
  const [cursor, setCursor] = useState(initial ?? 0);
  const [filter, setFilter] = useState('');
  if (picked === null) {
    return <ReplayPicker records={records} cursor={cursor} onCursor={setCursor} filter={filter} onFilter={setFilter} onOpen={(i) => (setCursor(i), setPicked(i))} onQuit={exit} />;
  }
  return <ReplayGame key={picked} record={records[picked]!} onBack={() => setPicked(null)} onQuit={exit} />;
}
