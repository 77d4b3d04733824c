import { render, type Instance } from 'ink';
import { createElement } from 'react';
import type { EventSink } from '../arena/events.ts';
import { Dashboard, type DashboardControls } from './Dashboard.tsx';
import { DashboardStore } from './dashboard-store.ts';

/** Options of the dashboard sink (tests pass streams; the CLI passes nothing). */
export interface DashboardSinkOptions {
  /** Defaults: `q` sends this process SIGINT, which `arena tournament` turns into a clean stop. */
  readonly controls?: Partial<DashboardControls>;
  /** Minimum time between two renders (ms). */
  readonly intervalMs?: number;
  /**
   * Share of the time renders may take (default 2 %); renders are spaced out to stay within it.
   * With the few microseconds a game costs the dashboard otherwise, this keeps its whole cost to a
   * tournament under 5 % (`npm run bench -- dashboard`).
   */
  readonly renderBudget?: number;
  readonly stdout?: NodeJS.WriteStream;
  readonly stdin?: NodeJS.ReadStream;
}

/**
 * The Ink dashboard as an event sink. It asks for live games (`detail: 'live'`) and reads their
 * positions only when it draws; it folds events into a store at once and renders at most every
 * `intervalMs` (further apart when renders are costly, to keep them within `renderBudget` of the
 * time); it unmounts after the `finished` event, leaving the final standings and (when stopped)
 * the resume command on screen.
 */
export function dashboardSink(options: DashboardSinkOptions = {}): EventSink {
  const store = new DashboardStore(options.intervalMs ?? 100, Date.now, options.renderBudget ?? 0.02);
  const controls: DashboardControls = {
    quit: options.controls?.quit ?? (() => void process.kill(process.pid, 'SIGINT')),
    ...(options.controls?.pause ? { pause: options.controls.pause } : {}),
    ...(options.controls?.resume ? { resume: options.controls.resume } : {}),
    ...(options.controls?.resumeCommand ? { resumeCommand: options.controls.resumeCommand } : {}),
  };
  let app: Instance | null = null;
  const mount = (): void => {
    app ??= render(createElement(Dashboard, { store, controls }), {
      exitOnCtrlC: false, // ctrl-c is `q`: a clean stop with the resume command, not a torn terminal
      patchConsole: false,
      ...(options.stdout ? { stdout: options.stdout } : {}),
      ...(options.stdin ? { stdin: options.stdin } : {}),
    });
  };
  return {
    detail: 'live',
    emit(event) {
      try {
        mount();
        store.push(event);
        if (event.type === 'finished') {
          const done = app;
          // Let React commit the final frame, then give the terminal back.
          setTimeout(() => done?.unmount(), 50);
        }
      } catch (err) {
        // A sink must not throw into the engine; a broken screen is reported once, on stderr.
        process.stderr.write(`arena: dashboard error: ${err instanceof Error ? err.message : String(err)}\n`);
      }
    },
  };
}

