import { Box, Text } from 'ink';
import { etaMs, gamesPerSecond, workersText, type DashboardModel } from './dashboard-store.ts';
import { notPlayedWhy } from './plain.ts';
import { fmtDuration, fmtInt } from '../text/layout.ts';
import { ProgressBar } from './ProgressBar.tsx';
import { useTheme } from '../text/theme.ts';

type Props = {
  readonly model: DashboardModel;
  readonly width: number;
  readonly paused: boolean;
};

/** Tournament name and seed, a progress bar, elapsed time, ETA and games per second. */
export function DashboardHeader({ model, width, paused }: Props) {
  const theme = useTheme();
  const rate = gamesPerSecond(model);
  const eta = etaMs(model);
  // A run that ended complete has played all it needed: games its tests made needless are not owed.
  const complete = model.finished !== null && !model.finished.interrupted && model.finished.summary.complete;
  const total = complete ? model.done : model.total;
  const skipped = model.total - total;
  const pct = total > 0 ? `${((100 * model.done) / total).toFixed(model.done === total ? 0 : 1)}%` : '';
  const counts = `${fmtInt(model.done)}/${fmtInt(total)} ${pct}${skipped > 0 ? ` · ${fmtInt(skipped)} not played: ${notPlayedWhy(model.finished!.summary)}` : ''}`;
  const barW = Math.max(5, Math.min(40, width - counts.length - 2));
  const inFlight = model.inFlight !== null && !model.finished && !model.queue ? ` · ${fmtInt(model.inFlight)} in flight` : '';
  const state = model.finished ? (model.finished.interrupted ? 'interrupted' : 'finished') : paused ? 'paused' : 'running';
  return (
    <Box flexDirection="column">
      <Text wrap="truncate-end">
        <Text bold {...theme.accent}>
          {model.name || 'tournament'}
        </Text>
        <Text {...theme.muted}>{`  seed ${model.seed ?? '–'} · ${model.bots.length} bot${model.bots.length === 1 ? '' : 's'} · ${model.variants.length} variant${model.variants.length === 1 ? '' : 's'} · `}</Text>
        <Text {...(state === 'running' ? theme.good : theme.warn)}>{state}</Text>
      </Text>
      <Text wrap="truncate-end">
        <ProgressBar done={model.done} total={total} width={barW} />
        {` ${counts}`}
      </Text>
      <Text {...theme.muted} wrap="truncate-end">
        {`elapsed ${fmtDuration(model.now - model.startedAt)} · ETA ${model.finished ? '–' : eta === null ? '…' : fmtDuration(eta)} · ${rate === null ? '…' : rate >= 100 ? fmtInt(Math.round(rate)) : rate.toFixed(1)} games/s${inFlight}`}
        {model.resumed > 0 ? ` · ${fmtInt(model.resumed)} resumed` : ''}
      </Text>
      {model.queue ? (
        <Text wrap="truncate-end">
          <Text {...(model.queue.link === 'connected' ? theme.good : theme.warn)}>{`Redis ${model.queue.link}`}</Text>
          <Text {...theme.muted}>{` · ${workersText(model.queue)}`}</Text>
        </Text>
      ) : null}
    </Box>
  );
}
