import { Box, Text } from 'ink';
import { etaMs, gamesPerSecond, workersText, type DashboardModel } from './dashboard-store.ts';
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
  const pct = model.total > 0 ? `${((100 * model.done) / model.total).toFixed(model.done === model.total ? 0 : 1)}%` : '';
  const counts = `${fmtInt(model.done)}/${fmtInt(model.total)} ${pct}`;
  const barW = Math.max(5, Math.min(40, width - counts.length - 2));
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
      <Text>
        <ProgressBar done={model.done} total={model.total} width={barW} />
        {` ${counts}`}
      </Text>
      <Text {...theme.muted} wrap="truncate-end">
        {`elapsed ${fmtDuration(model.now - model.startedAt)} · ETA ${model.finished ? '–' : eta === null ? '…' : fmtDuration(eta)} · ${rate === null ? '…' : rate >= 100 ? fmtInt(Math.round(rate)) : rate.toFixed(1)} games/s`}
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
