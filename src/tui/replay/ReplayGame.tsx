import { Box, Text } from 'ink';
import { useMemo, useState } from 'react';
import type { GameRecord } from '../../arena/match.ts';
import { visible } from '../../core/text.ts';
import { Board } from '../boards/Board.tsx';
import { footer, KEYS } from '../text/keys.ts';
import { KeyHelp } from '../ui/KeyHelp.tsx';
import { fmtDuration, windowAround } from '../text/layout.ts';
import { replayRecord } from './replay-data.ts';
import { resultText } from '../text/result-text.ts';
import { useTheme } from '../text/theme.ts';
import { useWidth } from '../ui/use-width.ts';
import { judgeMoves, verdictText } from '../review/verdicts.ts';
import { Explain } from '../review/Explain.tsx';
import { useKeys } from '../ui/use-keys.ts';

type Props = {
  readonly record: GameRecord;
  /** Back to the list of games (`l`, esc). */
  readonly onBack: () => void;
  /** `q`; without it `q` goes back too (a game opened from the dashboard's results). */
  readonly onQuit?: () => void;
  /** What `l` goes back to, as the keys say it (default: the list of games). */
  readonly backTo?: string;
};

/** One logged game stepped through with the arrow keys; each move is marked by the solver's verdict. */
export function ReplayGame({ record, onBack, onQuit = onBack, backTo = 'the list of games' }: Props) {
  const theme = useTheme();
  const width = useWidth();
  const replay = useMemo(() => replayRecord(record), [record]);
  const solver = useMemo(() => replay.game.solver?.(), [replay.game]);
  const verdicts = useMemo(() => judgeMoves(replay.game, solver, replay.plies), [replay, solver]);
  const [at, setAt] = useState(0); // plies shown: 0 is the start position
  const [explain, setExplain] = useState(false);
  const n = replay.plies.length;

  const [help, setHelp] = useState(false);
  const keys = [
    [KEYS.back, 'previous move'],
    [KEYS.forward, 'next move'],
    [KEYS.start, 'start position (also g)'],
    [KEYS.end, 'final position (also G)'],
    [KEYS.explain, 'why the position shown is won or lost'],
    [KEYS.list, `back to ${backTo} (also esc)`],
    [KEYS.help, 'show or hide this help'],
    [KEYS.quit, onQuit === onBack ? `back to ${backTo}` : 'quit'],
  ] as const;
  useKeys((input, key) => {
    if (KEYS.help.match(input, key)) setHelp((h) => !h);
    else if (KEYS.quit.match(input, key)) onQuit();
    else if (KEYS.list.match(input, key)) onBack();
    else if (KEYS.forward.match(input, key)) setAt((a) => Math.min(n, a + 1));
    else if (KEYS.back.match(input, key)) setAt((a) => Math.max(0, a - 1));
    else if (KEYS.start.match(input, key)) setAt(0);
    else if (KEYS.end.match(input, key)) setAt(n);
    else if (KEYS.explain.match(input, key)) setExplain((e) => !e);
  });

  const ply = at > 0 ? replay.plies[at - 1]! : null;
  const state = ply ? ply.after : replay.start;
  const verdict = at > 0 ? (verdicts[at - 1] ?? null) : null;
  const [from, to] = windowAround(n, Math.max(0, at - 1), Math.max(4, Math.floor((width - 4) / 14)));
  return (
    <Box flexDirection="column">
      <Text wrap="truncate-end">
        <Text bold>{`#${record.index + 1} `}</Text>
        <Text {...theme.you}>{record.seats.first}</Text>
        <Text {...theme.muted}> vs </Text>
        <Text {...theme.them}>{record.seats.second}</Text>
        {` ${resultText(record)}`}
        <Text {...theme.muted}>{` · ${record.variant}`}</Text>
      </Text>
      <Box marginY={1} paddingX={1} {...(theme.plain ? {} : { borderStyle: 'round' as const })} flexDirection="column">
        <Board game={replay.game} state={state} prev={ply?.before} width={width - 4} names={record.seats} />
      </Box>
      <Text>
        {`ply ${at}/${n}`}
        {ply ? `: ${record.seats[ply.seat]} played ${ply.text} in ${fmtDuration(ply.ms)} ` : ' (start position) '}
        {verdict ? (
          <Text {...(verdict.optimal ? theme.good : theme.bad)}>{`${verdict.optimal ? theme.glyph.ok : theme.glyph.mistake} ${verdictText(verdict, solver?.scored ?? false)}`}</Text>
        ) : ply && !solver ? (
          <Text {...theme.muted}>no solver for this variant</Text>
        ) : null}
      </Text>
      <Text wrap="truncate-end">
        {from > 0 ? <Text {...theme.muted}>… </Text> : null}
        {replay.plies.slice(from, to).map((p, i) => {
          const k = from + i;
          const v = verdicts[k];
          const mark = v ? (v.optimal ? theme.glyph.ok : theme.glyph.mistake) : '';
          return (
            <Text key={k} inverse={k === at - 1} {...(v ? (v.optimal ? theme.good : theme.bad) : theme.muted)}>
              {/* The mark a word apart: `--plain` writes it as a word (`1.R ok`, not `1.Rok`). */}
              {`${k + 1}.${p.text}${mark === '' ? '' : ` ${mark}`} `}
            </Text>
          );
        })}
        {to < n ? <Text {...theme.muted}>…</Text> : null}
      </Text>
      {at === n ? (
        <Text bold>
          {/* The reason may quote a bot, in a log written anywhere: control characters made visible. */}
          {visible(
            record.faulty === null
              ? `End: ${record.winner === null ? 'draw' : `${record.winner} won`}${record.termination === 'adjudicated' ? ` (adjudicated: ${record.reason ?? ''})` : ''}`
              : `End: ${record.faulty ? record.seats[record.faulty] : '?'} forfeits: ${record.termination}${record.reason ? ` (${record.reason})` : ''}`,
          )}
        </Text>
      ) : null}
      {explain && at < n ? (
        <Explain game={replay.game} state={state} title={`ply ${at}`} mover={record.seats[replay.game.toMove(state)]} />
      ) : null}
      {replay.problem ? <Text {...theme.bad}>{replay.problem}</Text> : null}
      {help ? <KeyHelp keys={keys} /> : null}
      <Text {...theme.muted}>
        {footer([KEYS.back, 'back'], [KEYS.forward, 'forward'], [KEYS.start, 'start'], [KEYS.end, 'end'], [KEYS.explain, explain ? 'hide why' : 'why'], [KEYS.list, onQuit === onBack ? 'back' : 'games'], [KEYS.help, 'keys'], ...(onQuit === onBack ? [] : [[KEYS.quit, 'quit'] as const]))}
      </Text>
    </Box>
  );
}
