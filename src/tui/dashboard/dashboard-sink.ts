import { render, type Instance } from 'ink';
import { createElement, Fragment } from 'react';
import type { EventSink } from '../../arena/events.ts';
import { Dashboard, type DashboardControls } from './Dashboard.tsx';
import { DashboardStore } from './dashboard-store.ts';
import { keyStdin } from '../ui/key-stdin.ts';
import { makeTheme, ThemeContext, type ThemeChoice } from '../text/theme.ts';

/** Options of the dashboard sink (tests pass streams; the CLI passes nothing). */
export interface DashboardSinkOptions {
  /** Defaults: `q` sends this process SIGINT, which `arena tournament` turns into a clean stop. */
  readonly controls?: Partial<DashboardControls>;
  /** Minimum time between two renders (ms). */
  readonly intervalMs?: number;
  /**
   * Share of the time renders may take (default 2 %); renders are spaced out to stay within it.
   * Between renders an event costs the dashboard O(1) (see DashboardStore); what the whole costs a
   * tournament is measured by `npm run bench -- dashboard` (docs/PERFORMANCE.md).
   */
  readonly renderBudget?: number;
  readonly stdout?: NodeJS.WriteStream;
  readonly stdin?: NodeJS.ReadStream;
  /**
   * After a tournament that ran to its end, keep the dashboard open on the final standings (every
   * view browsable) until `q`. Off, it closes at once (`arena tournament --exit`, for scripts).
   */
  readonly stayOpen?: boolean;
  /** `--theme` as given on the command line. */
  readonly theme?: ThemeChoice;
}

/** The dashboard sink, with the moment it has given the terminal back. */
export interface DashboardSink extends EventSink {
  /**
   * Resolves once the dashboard is torn down after the `finished` event (at once, or at `q` when it
   * stays open) and, for a stopped run, the resume command has been printed whole below it.
   */
  readonly closed: Promise<void>;
  /** Erases the screen and gives the terminal back when the run failed before its `finished` event (its error is then said alone). */
  abandon(): Promise<void>;
}

/** A broken screen, in one line on stderr. */
function reportError(err: unknown): void {
  process.stderr.write(`arena: dashboard error: ${err instanceof Error ? err.message : String(err)}\n`);
}

/**
 * The Ink dashboard as an event sink. It asks for live games (`detail: 'live'`) and reads their
 * positions only when it draws; it folds events into a store at once and renders at most every
 * `intervalMs` (further apart when renders are costly, to keep them within `renderBudget` of the
 * time). After the `finished` event it stays open on the final standings until `q` (`stayOpen`),
 * or unmounts at once; a stopped run's resume command is printed below the torn-down dashboard.
 */
export function dashboardSink(options: DashboardSinkOptions = {}): DashboardSink {
  const store = new DashboardStore(options.intervalMs ?? 100, Date.now, options.renderBudget ?? 0.02);
  const stdout = options.stdout ?? process.stdout;
  let close = (): void => {};
  const controls: DashboardControls = {
    quit: options.controls?.quit ?? (() => void process.kill(process.pid, 'SIGINT')),
    ...(options.controls?.pause ? { pause: options.controls.pause } : {}),
    ...(options.controls?.resume ? { resume: options.controls.resume } : {}),
    ...(options.controls?.resumeCommand ? { resumeCommand: options.controls.resumeCommand } : {}),
    ...(options.controls?.command ? { command: options.controls.command } : {}),
    ...(options.stayOpen ? { close: () => close() } : {}),
  };
  let settle: () => void = () => {};
  const closed = new Promise<void>((resolve) => (settle = resolve));
  // The first frame now, while the run's modules load and its bots start: a person sees at once
  // that the tournament is under way. The terminal a key at a time (key-stdin.ts), unless the
  // caller gives its own input.
  const stdin = options.stdin ?? (keyStdin() as unknown as NodeJS.ReadStream | undefined);
  let app: Instance | null = render(createElement(ThemeContext.Provider, { value: makeTheme(process.env, options.theme ?? {}) }, createElement(Dashboard, { store, controls })), {
    exitOnCtrlC: false, // ctrl-c is `q`: a clean stop with the resume command, not a torn terminal
    patchConsole: false,
    stdout,
    ...(stdin ? { stdin } : {}),
  });
  /** Gives the terminal back, then prints the resume command whole (never cut by the frame's layout). */
  const teardown = (resume: string | null): void => {
    const done = app;
    const finish = (): void => {
      if (resume) stdout.write(`Resume with: ${resume}\n`);
      settle();
    };
    // Let React commit the final frame first.
    setTimeout(() => {
      done?.unmount();
      void (done?.waitUntilExit() ?? Promise.resolve()).then(finish, (err: unknown) => {
        // The screen ended with an error: say so, and still give the terminal back with the resume command.
        reportError(err);
        finish();
      });
    }, 50);
  };
  return {
    detail: 'live',
    closed,
    abandon() {
      if (app === null) return Promise.resolve();
      const done = app;
      app = null;
      // Nothing of it had happened yet: the frame goes (an empty tree is the last frame Ink
      // writes, whatever render was pending), and the error stands alone.
      done.rerender(createElement(Fragment));
      done.unmount();
      return done.waitUntilExit().then(
        () => undefined,
        (err: unknown) => reportError(err),
      );
    },
    emit(event) {
      try {
        store.push(event);
        if (event.type === 'finished') {
          if (options.stayOpen && !event.interrupted) close = () => teardown(null);
          else teardown(event.interrupted && options.controls?.resumeCommand ? options.controls.resumeCommand(event.dir) : null);
        }
      } catch (err) {
        // A sink must not throw into the engine; a broken screen is reported on stderr.
        reportError(err);
      }
    },
  };
}
