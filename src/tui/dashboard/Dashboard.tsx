import { Box, Static, Text, useInput } from 'ink';
import { useMemo, useState, useSyncExternalStore } from 'react';
import { ArenaError } from '../../core/errors.ts';
import type { AnyGame } from '../../core/game.ts';
import { parseVariant } from '../../games/index.ts';
import { Crosstable } from './Crosstable.tsx';
import { DashboardHeader } from './DashboardHeader.tsx';
import { DashboardHelp } from './DashboardHelp.tsx';
import { FormatPanel } from './FormatPanel.tsx';
import type { DashboardModel, DashboardStore, LogEntry } from './dashboard-store.ts';
import { footer, KEYS } from '../text/keys.ts';
import { LiveGames } from './LiveGames.tsx';
import { RecentResults, resultsOrder, selectedPlace } from './RecentResults.tsx';
import type { GameRecord } from '../../arena/match.ts';
import { ReplayGame } from '../replay/ReplayGame.tsx';
import { moveCursor } from '../ui/list-cursor.ts';
import { commandText } from '../text/command.ts';
import { RatingsChart } from './RatingsChart.tsx';
import { SprtBar } from './SprtBar.tsx';
import { StandingsTable } from './StandingsTable.tsx';
import { useTheme } from '../text/theme.ts';
import { tooSmall, useTerminalSize } from '../ui/Screen.tsx';
import { timeLine } from './plain.ts';

/** What the dashboard's keys can do to the run. */
export interface DashboardControls {
  /** Stops the tournament (results so far are saved; the resume command is printed at the end). */
  quit(): void;
  /** After the last game: closes the dashboard (its `q`); without it the dashboard closes by itself. */
  close?(): void;
  /** Pause and resume the tournament itself; without them `p` freezes only the display. */
  pause?(): void;
  resume?(): void;
  /** The command line that continues a stopped run, shown at the end (the CLI's words). */
  resumeCommand?(dir: string): string;
  /** A command line in the CLI's words (`arena replay DIR --game 3`), for the hints; default `arena` and the words. */
  command?(words: readonly string[]): string;
}

/** The four views, in tab order (keys 1–4). */
export const VIEWS = ['live', 'standings', 'crosstable', 'results'] as const;
/** One of the dashboard's views. */
export type View = (typeof VIEWS)[number];

type Props = {
  readonly store: DashboardStore;
  readonly controls: DashboardControls;
  /** Terminal size; defaults to the output stream's. */
  readonly width?: number;
  readonly height?: number;
};

/** Terminal width from which the standings view draws the ratings chart beside the table. */
export const CHART_MIN_WIDTH = 110;

/** The ratings chart's share of a wide terminal: the table keeps about 75 columns. */
function chartWidth(width: number): number {
  return Math.min(60, width - 77);
}

/**
 * The live tournament dashboard: finished games scroll by above it (`<Static>`, printed once);
 * below, the header and one of four views — live boards, standings, crosstable, recent results.
 */
export function Dashboard({ store, controls, width: w, height: h }: Props) {
  const theme = useTheme();
  // Followed on resize, so a finished run's screen (nothing else redraws it) answers a resize at once.
  const terminal = useTerminalSize();
  const width = Math.max(30, (w ?? terminal.columns) - 1);
  const height = Math.max(12, h ?? terminal.rows);
  const live = useSyncExternalStore(store.subscribe, store.getSnapshot);
  const [frozen, setFrozen] = useState<DashboardModel | null>(null);
  const [view, setView] = useState<View>('live');
  const [help, setHelp] = useState(false);
  const [quitting, setQuitting] = useState(false);
  // The results view's highlighted game (its schedule index; null follows the newest), and the game opened from it.
  const [selected, setSelected] = useState<number | null>(null);
  const [opened, setOpened] = useState<GameRecord | null>(null);
  const command = (words: readonly string[]): string => controls.command?.(words) ?? commandText(words);
  const pauseWorks = controls.pause !== undefined && controls.resume !== undefined;
  // With pause controls `p` holds the run itself and the display stays live (games in flight
  // finish on screen); without them it can only freeze the display.
  const paused = pauseWorks ? live.paused : frozen !== null;
  const model = live.finished ? live : (frozen ?? live);

  const games = useMemo(() => new Map<string, AnyGame | undefined>(), []);
  const gameOf = (variant: string): AnyGame | undefined => {
    if (!games.has(variant)) {
      try {
        games.set(variant, parseVariant(variant));
      } catch (err) {
        // A variant this process cannot build (a family only the queue's workers know): its live
        // games are drawn as their position's text instead of a board.
        if (!(err instanceof ArenaError)) throw err;
        games.set(variant, undefined);
      }
    }
    return games.get(variant);
  };

  // At most a few test bars: a gauntlet against many bots keeps its undecided tests in view first.
  const bars = [...model.sprt].sort((x, y) => Number(x.decision !== null) - Number(y.decision !== null)).slice(0, 6);
  // Header (3), tabs, footer, a spare line; at the end, the results folder and the commands that read it.
  const body = height - 8 - model.failedBots.length - bars.length - (model.time ? 1 : 0) - (live.finished && !live.finished.interrupted ? 3 : 0);
  useInput((input, key) => {
    if (opened) return; // the game opened from the results takes the keys until it goes back
    if (shownViewOf(view) === 'results' && !help) {
      const shown = resultsOrder(model.recent);
      const moved = moveCursor(selectedPlace(shown, selected), shown.length, Math.max(1, body - 4), input, key);
      if (moved !== null) {
        setSelected(moved === 0 ? null : shown[moved]!.index);
        return;
      }
      if (key.return && shown.length > 0) {
        const pick = shown[selectedPlace(shown, selected)]!;
        if (gameOf(pick.variant)) setOpened(pick);
        return;
      }
    }
    if (KEYS.quit.match(input, key)) {
      if (live.finished) controls.close?.();
      else if (!quitting) {
        setQuitting(true);
        controls.quit();
      }
    } else if (KEYS.nextView.match(input, key)) setView((v) => VIEWS[(VIEWS.indexOf(v) + 1) % VIEWS.length]!);
    else if (KEYS.prevView.match(input, key)) setView((v) => VIEWS[(VIEWS.indexOf(v) + VIEWS.length - 1) % VIEWS.length]!);
    else if (KEYS.view.match(input, key)) setView(VIEWS[Number(input) - 1]!);
    else if (KEYS.help.match(input, key)) setHelp((h) => !h);
    else if (KEYS.pause.match(input, key) && !live.finished) {
      if (pauseWorks) {
        // The store's current snapshot, not this render's: two quick presses must toggle twice.
        const now = store.getSnapshot().paused;
        if (now) controls.resume!();
        else controls.pause!();
        store.setPaused(!now);
      } else setFrozen(frozen ? null : live);
    }
  });

  /** The view drawn for the one chosen: a finished run has no live games. */
  function shownViewOf(v: View): View {
    return live.finished && v === 'live' ? 'standings' : v;
  }
  // A terminal too small for the layout gets one line saying so; the keys still work.
  const small = tooSmall(w ?? terminal.columns, h ?? terminal.rows);
  // Printed once above everything; kept mounted (a remount would print the log again).
  const log = (
    <Static items={model.log as LogEntry[]}>
      {(entry, i) => (
        <Text key={i} {...(entry.warn ? theme.warn : theme.muted)}>
          {entry.text}
        </Text>
      )}
    </Static>
  );
  if (small) {
    return (
      <>
        {log}
        <Text>{`${small}; ${live.done}/${live.total} games${live.finished ? ', finished (q closes)' : ' (q stops)'}`}</Text>
      </>
    );
  }
  if (opened) {
    return (
      <>
        {log}
        <ReplayGame record={opened} onBack={() => setOpened(null)} backTo="the results" />
      </>
    );
  }
  const shownView = shownViewOf(view);
  const table = model.standings?.pooled;
  return (
    <>
      {log}
      <Box flexDirection="column" width={width}>
        <DashboardHeader model={model} width={width} paused={paused} />
        {bars.map((r) => (
          <SprtBar key={`${r.a}\t${r.b}`} result={r} width={width} />
        ))}
        {model.time ? (
          <Text {...theme.muted} wrap="truncate-end">
            {timeLine(model.time)}
          </Text>
        ) : null}
        <Text>
          {VIEWS.map((v, i) => (
            <Text key={v} {...(v === shownView ? theme.accent : theme.muted)} bold={v === shownView} inverse={v === shownView && !theme.color}>
              {` ${i + 1} ${v} `}
            </Text>
          ))}
        </Text>
        {model.failedBots.map((f) => (
          <Text key={f.bot} {...theme.bad} wrap="truncate-end">{`${f.bot} could not start and forfeits every game: ${f.reason}`}</Text>
        ))}
        {help ? <DashboardHelp pauseWorks={pauseWorks} finished={live.finished !== null} /> : null}
        {!help && shownView === 'live' ? (
          <LiveGames games={model.live} gameOf={gameOf} width={width} height={body} />
        ) : null}
        {!help && shownView === 'standings' && model.format ? (
          // A Swiss or a knockout: its own table or bracket is the standings.
          <FormatPanel format={model.format} width={width} maxRows={Math.max(4, body - 1)} />
        ) : null}
        {!help && shownView === 'standings' && !model.format ? (
          table ? (
            width >= CHART_MIN_WIDTH ? (
              // Wide enough: the ratings' intervals drawn beside the table, a row per bot.
              <Box>
                <StandingsTable table={table} width={width - chartWidth(width) - 2} maxRows={Math.max(3, body - 3)} />
                <Box marginLeft={2}>
                  <RatingsChart table={table} width={chartWidth(width)} maxRows={Math.max(3, body - 3)} />
                </Box>
              </Box>
            ) : (
              <StandingsTable table={table} width={width} maxRows={Math.max(3, body - 3)} />
            )
          ) : (
            <Text {...theme.muted}>standings after the first games…</Text>
          )
        ) : null}
        {!help && shownView === 'crosstable' ? (
          table ? <Crosstable table={table} width={width} {...(model.format?.format === 'swiss' ? { order: model.format.lines.map((l) => l.bot) } : {})} /> : <Text {...theme.muted}>crosstable after the first games…</Text>
        ) : null}
        {!help && shownView === 'results' ? <RecentResults results={model.recent} max={Math.max(3, body)} width={width} selected={selected} dir={model.dir} command={command} /> : null}
        {live.finished ? (
          <Box flexDirection="column" marginTop={1}>
            <Text bold {...(live.finished.interrupted ? theme.warn : theme.good)}>
              {live.finished.interrupted ? `Stopped after ${live.done} of ${live.total} games; results saved in ${live.finished.dir}` : `Finished: results in ${live.finished.dir}`}
            </Text>
            {/* A stopped run's last word is its resume command, printed below the torn-down dashboard. */}
            {live.finished.interrupted ? null : (
              <>
                <Text {...theme.muted} wrap="truncate-middle">{`its HTML report: ${command(['report', live.finished.dir])}`}</Text>
                <Text {...theme.muted} wrap="truncate-middle">{`its games one by one: ${command(['replay', live.finished.dir])}`}</Text>
              </>
            )}
            {live.finished.interrupted ? null : controls.close ? (
              <Text {...theme.muted} wrap="truncate-end">
                {footer([KEYS.nextView, 'views'], [KEYS.view, 'a view'], [KEYS.help, 'help'], [KEYS.quit, 'close'])}
              </Text>
            ) : null}
          </Box>
        ) : (
          <Text {...theme.muted} wrap="truncate-end">
            {quitting
              ? 'stopping: finishing the games’ log…'
              : footer([KEYS.nextView, 'views'], [KEYS.pause, paused ? 'resume' : 'pause'], [KEYS.quit, 'quit'], [KEYS.help, 'help'])}
            {paused ? (pauseWorks ? ' · paused: games in flight finish, no new game starts' : ' · display frozen, games go on') : ''}
          </Text>
        )}
      </Box>
    </>
  );
}
