/**
 * Group commit as the runner uses it: each finished game is appended to the log at once, and
 * reported only once its batch is durable (DESIGN.md "Faults"). A crash loses at most games that
 * were never reported, and resume replays exactly those.
 */
import type { GameJudgement } from './fold/accuracy.ts';
import type { GameRecord } from './match.ts';
import type { ResultsLog } from './results/index.ts';

/**
 * Games appended but not yet durable beyond which an executor waits for the disk: a slow fsync
 * holds the runner back only past this many (docs/PERFORMANCE.md "Runner and results log").
 */
const MAX_PENDING = 16_384;

/** Appends games to a log and reports each once its line is durable, in append order. */
export class GroupCommit {
  readonly #log: ResultsLog;
  readonly #report: (record: GameRecord, judgement: GameJudgement | undefined) => void;
  readonly #failed: () => void;
  /** Games appended but not yet durable; `#drained` settles when the count returns to zero. */
  #pending = 0;
  #drained: (() => void) | null = null;
  /**
   * The games of the batch being filled (the log settles one promise per batch), with what their
   * judges found: kept only until their batch is durable and reported.
   */
  #records: GameRecord[] = [];
  #judgements: (GameJudgement | undefined)[] = [];
  #durable: Promise<void> | null = null;
  /** The first write or fsync that failed: nothing is reported after it. */
  failure: unknown = null;

  /** `report` hears each game once it is durable; `failed`, once, the first write or fsync that failed. */
  constructor(log: ResultsLog, report: (record: GameRecord, judgement: GameJudgement | undefined) => void, failed: () => void) {
    this.#log = log;
    this.#report = report;
    this.#failed = failed;
  }

  /**
   * Appends a game. Returns a promise when games outrun a slow disk (past a few batches in flight):
   * the executor awaits it before handing over more, so the records waiting for their fsync stay a
   * bounded number.
   */
  add(record: GameRecord, judgement: GameJudgement | undefined): Promise<void> | undefined {
    this.#pending++;
    const durable = this.#log.append(record);
    if (durable !== this.#durable) this.#newBatch(durable);
    this.#records.push(record);
    this.#judgements.push(judgement);
    // A failed batch is `failure`: the waiting executor only needs to know it settled.
    return this.#pending >= MAX_PENDING ? durable.then(settled, settled) : undefined;
  }

  /** A new batch: one callback reports all its games once they are on disk, in append order. */
  #newBatch(durable: Promise<void>): void {
    this.#durable = durable;
    const records = (this.#records = []);
    const judgements = (this.#judgements = []);
    durable.then(
      () => {
        for (let i = 0; i < records.length; i++) this.#report(records[i]!, judgements[i]);
        this.#settle(records.length);
      },
      (err: unknown) => {
        this.#fail(err);
        this.#settle(records.length);
      },
    );
  }

  #fail(err: unknown): void {
    if (this.failure !== null) return;
    this.failure = err;
    this.#failed();
  }

  #settle(games: number): void {
    if ((this.#pending -= games) === 0) this.#drained?.();
  }

  /** Settles once every game appended so far is durable; rejects when its batch failed. */
  committed(): Promise<void> {
    return this.#durable?.then(settled) ?? Promise.resolve();
  }

  /** Flushes the log and waits until every game appended is reported (or failed). */
  async drain(): Promise<void> {
    try {
      await this.#log.flush();
    } catch (err) {
      this.#fail(err);
    }
    if (this.#pending > 0) await new Promise<void>((resolve) => (this.#drained = resolve));
  }
}

/** A settled batch, whichever way: its failure is kept apart (`GroupCommit.failure`). */
function settled(): void {}
