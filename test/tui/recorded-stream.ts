/**
 * A recorded tournament (`fixtures/tournament-events.json`: optimal, random and greedy on three
 * variants, recorded from `arena tournament`) replayed the way the runner feeds a sink: events
 * pushed, and each recorded move applied to its game's live view (moves are not events; the
 * dashboard reads the views when it draws).
 */
import { readFileSync } from 'node:fs';
import type { ArenaEvent, FinishedEvent, LiveGame, LiveMove, LivePosition, LiveSnapshot } from '../../src/arena/events.ts';

/** A recorded move: what a game's live view showed after it. */
export interface RecordedMove extends LiveMove {
  readonly type: 'move';
  readonly key: string;
  readonly ply: number;
  /** The position after the move. */
  readonly position: LivePosition;
}

/** One step of the recording: an event the sink receives, or a move its game's live view takes. */
export type Step = ArenaEvent | RecordedMove;

/** A live view driven by the recording instead of a match. */
class RecordedLive implements LiveGame {
  ply = 0;
  over = false;
  #position: LivePosition;
  #prevState: unknown = null;
  #last: LiveMove | null = null;

  constructor(start: LivePosition) {
    this.#position = start;
  }

  advance(m: RecordedMove): void {
    this.#prevState = this.#position.state;
    this.#position = m.position;
    this.ply = m.ply;
    this.over = m.position.toMove === null;
    this.#last = { seat: m.seat, bot: m.bot, move: m.move, ms: m.ms };
  }

  snapshot(): LiveSnapshot {
    return { ply: this.ply, position: this.#position, prevState: this.#prevState, last: this.#last };
  }
}

type RecordedStart = Omit<Extract<ArenaEvent, { type: 'game-started' }>, 'live'> & { readonly position: LivePosition };
type Raw = Exclude<ArenaEvent, { type: 'game-started' }> | RecordedStart | RecordedMove;

const RAW = JSON.parse(readFileSync(new URL('./fixtures/tournament-events.json', import.meta.url), 'utf8')) as Raw[];

/** A fresh replay of the recording (new live views each time). */
export function recording(): { readonly steps: readonly Step[]; readonly finished: FinishedEvent; play(step: Step, push: (e: ArenaEvent) => void): void } {
  const views = new Map<string, RecordedLive>();
  const steps: Step[] = RAW.map((r) => {
    if (r.type !== 'game-started') return r;
    const { position, ...rest } = r;
    const live = new RecordedLive(position);
    views.set(r.key, live);
    return { ...rest, live };
  });
  return {
    steps,
    finished: steps[steps.length - 1] as FinishedEvent,
    play(step, push) {
      if (step.type === 'move') views.get(step.key)!.advance(step);
      else push(step);
    },
  };
}

/** The recording's events alone (no live views needed: game-ended, standings, finished…). */
export function recordedEvents(): ArenaEvent[] {
  return recording().steps.filter((s): s is ArenaEvent => s.type !== 'move');
}
