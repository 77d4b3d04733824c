import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, readSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import type { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { deserialize } from 'node:v8';
import type { BotClock } from '../core/bot.ts';
import type { Seat } from '../core/game.ts';
import { runSnapshot, warnOnStderr, type StoreLocation } from '../platform/bot-store.ts';
import { findProgram, mainThreadCpuReader, processTreeCpuMs, type ClockKind } from '../platform/cpu-clock.ts';
import { openPipe, valueFrame } from '../platform/frames.ts';
import { pidNamespacePlan } from '../platform/sandbox.ts';
import { servePipeBridge, type StoreBackend } from '../platform/store-bridge.ts';
import { BotLog, DEFAULT_STDERR_LIMIT, DRAIN_FALLBACK_MS, exitReason, killGroup, OomWatch, tempStderrLogPath, trackChild } from './bot-child.ts';
import {
  BotStartError,
  DEFAULT_GRACE_MS,
  DEFAULT_PREPARE_TIMEOUT_MS,
  errorText,
  overranReason,
  prepareTimeout,
  wallCapMs,
  wallCapReason,
  type BotHost,
  type BotSession,
  type FaultReply,
  type MoveReply,
  type SessionInfo,
} from './host.ts';
import { workerScript } from './worker-bundle.ts';
import { HOLD_MS, Kind, MAX_RECORD, newBatch, pushMove, pushPrepare, readRecord, type OpenGame, type ReplyRecord, type WorkerInit } from './worker-protocol.ts';

/** Settings of a worker host. */
export interface WorkerHostOptions {
  /** The bot module's file (absolute path). */
  readonly file: string;
  /** The bot's `name` in that module. */
  readonly name: string;
  /** Validated options (the bot's process validates them again). */
  readonly options: Readonly<Record<string, unknown>>;
  /** Heap limit of each of the bot's processes (`--max-old-space-size`, MB). */
  readonly memoryMb: number;
  /** Extra time after the deadline before the bot's process is ended. */
  readonly graceMs?: number;
  /** Budget of the bot's `prepare` per variant (ms). */
  readonly prepareTimeoutMs?: number;
  /** The script the bot's processes run (from `workerScript`, shared by all bots of a tournament); default: this bot's own. */
  readonly script?: Promise<URL>;
  /** The bot's data folder (none: a store in memory per process). */
  readonly store?: StoreLocation;
  /** Where the warning of a store that had to be reset goes (default: stderr). */
  readonly warn?: (message: string) => void;
  /** The store's live copy, when it is held elsewhere (a queued run's Redis): each process's writes go there. */
  readonly storeBackend?: StoreBackend;
  /** How many games the bot may play at once (default 1): its processes (at most one per game and per CPU core) share them. */
  readonly concurrency?: number;
  /** The file the bot's stdout and stderr are appended to (default: a temporary file, `tempStderrLogPath`). */
  readonly stderrLog?: string;
  /** Bytes of stdout and stderr the bot may write over the run (default 8 MiB): past it, its process is ended (`crash`). */
  readonly stderrLimitBytes?: number;
  /** Which clock the bot's moves are charged on (default `wall`; `cpu` where `usableClock` says so). */
  readonly clock?: ClockKind;
}

/** A game of the bot, on whichever process plays it now. */
interface GameSlot {
  readonly variant: string;
  readonly seat: Seat;
  readonly seed: number;
  /** Where the bot's generator had got to after its last answered move (null: from the seed). */
  rng: readonly number[] | null;
  /** The process playing it and its slot there. */
  proc: BotProc | null;
  slot: number;
  /** Whether the process has the game open (it answered a request of the game in this slot). */
  told: boolean;
  /** A request of the game not yet answered. */
  asking: Ask | null;
  closed: boolean;
  /** Why the game is lost: its process was ended for what the bot did there as a whole (its output, the protocol). */
  fault: string | null;
  /** Why the process that had the game open ended, until the game's next answer says so (`MoveReply.restarted`). */
  restarted: string | null;
}

/** One request to a process: a move of a game, or a variant's `prepare`; answered with `reply` or through `resolve`. */
interface Ask {
  id: number;
  readonly game: GameSlot | null;
  /** The variant of a `prepare` (null for a move). */
  readonly prepare: string | null;
  readonly state: unknown;
  readonly moves: readonly unknown[];
  readonly clock: BotClock | undefined;
  readonly limitMs: number;
  reply: MoveReply | null;
  resolve: ((reply: MoveReply) => void) | null;
  /** Answered (by the bot, or with a fault). */
  done: boolean;
  /** Asked again after a fault that could not be pinned on one request: its batch holds no answers. */
  strict: boolean;
  /** The process may keep its answer until later in its batch (worker-protocol.ts, "When it writes them"). */
  mayHold: boolean;
}

/** A reply record that answers a request. */
type Answer = Extract<ReplyRecord, { id: number }>;

/** An answer as the match sees it, with `ms` and `think` as the host measured them. */
function replyOf(r: Answer, ms: number, think: number): MoveReply {
  switch (r.kind) {
    case Kind.Prepared:
      return { ok: true, move: undefined, ms };
    case Kind.Error:
      return { ok: false, kind: 'crash', reason: r.value as string, ms };
    case Kind.Garbage:
      return { ok: false, kind: 'illegal-move', reason: r.value as string, ms };
    default:
      return r.clock ? { ok: true, move: r.value, ms, clock: true, think } : { ok: true, move: r.value, ms, think };
  }
}

/** What `scanRecords`' reader returns when the process has been ended and nothing more is to be read. */
const STOP: unique symbol = Symbol('stop');
/** A record answers the next request waiting for its answer. */
const FITS: unique symbol = Symbol('fits');
/** A record of the held pipe answers a later request (its turn comes after a record on fd 4). */
const WAIT: unique symbol = Symbol('wait');

/** One buffer to read every process's held pipe into: it is read and its records taken out at once, never kept. */
const HELD_CHUNK = Buffer.allocUnsafe(64 << 10);

/**
 * Reads the whole records at the start of `buf`, each checked by `readRecord`, and gives each to
 * `take`, until one is wrong (or `take` says what is wrong with it, or STOP): how far it read, and
 * what was wrong, or null.
 */
function scanRecords(buf: Buffer, take: (rec: ReplyRecord) => string | typeof STOP | null): { off: number; broken: string | typeof STOP | null } {
  let off = 0;
  while (buf.length - off >= 4) {
    const len = buf.readUInt32LE(off);
    if (len > MAX_RECORD) return { off, broken: `a reply of ${len} bytes (at most ${MAX_RECORD})` };
    if (buf.length - off - 4 < len) break;
    const rec = readRecord(buf, off + 4, len, deserialize);
    off += 4 + len;
    const broken = typeof rec === 'string' ? rec : take(rec);
    if (broken !== null) return { off, broken };
  }
  return { off, broken: null };
}

/**
 * A batch of fewer requests waits one more turn of the event loop before it goes: answers another
 * process is about to give may move games that ask this bot next (a game just begun, say, asks
 * while the others are still at the other bot), and they then go out together.
 */
const FEW = 8;

/** How long a process may be busy without an answer, a game waiting, before the bot gets another process (ms). */
const LAG_MS = 2;

/** How many answers the share of a process's time spent thinking is averaged over (roughly): a warm-up or a pause is not a slow bot. */
const THINKING_WEIGHT = 8;

/** The answer to a request whose process died of another request's fault: asked again elsewhere, never charged. */
const ORPHANED: MoveReply = Object.freeze({ ok: false, kind: 'crash', reason: 'orphaned', ms: 0 });

/** The request whose promise is being made: `awaitReply` is one function for all requests, not a closure per move. */
let replyFor: Ask | null = null;
function awaitReply(resolve: (reply: MoveReply) => void): void {
  replyFor!.resolve = resolve;
}

function ask(game: GameSlot | null, prepare: string | null, state: unknown, moves: readonly unknown[], clock: BotClock | undefined, limitMs: number, strict = false): Ask {
  return { id: 0, game, prepare, state, moves, clock, limitMs, reply: null, resolve: null, done: false, strict, mayHold: false };
}

/** Whether a batch may keep its answers: moves alone, with one limit and no clock, none asked again after a fault. */
function mayHold(batch: readonly Ask[]): boolean {
  if (batch.length < 2) return false;
  const limitMs = batch[0]!.limitMs;
  for (const a of batch) if (a.prepare !== null || a.strict || a.clock !== undefined || a.limitMs !== limitMs) return false;
  return true;
}

/**
 * One process running the bot. It plays many games at once, each in its own slot. Requests go out
 * in batches: those made in one turn of the runner's event loop, or, while the process is busy,
 * all those made until it has answered what it was sent. The process runs a batch in order and
 * writes its answers as worker-protocol.ts says: each before the next request begins, or, in a
 * batch of moves with one limit, kept and written together (one write, one wake-up of the host).
 *
 * The host reads what comes on the process's socket as it comes and its held pipe when it wants
 * (worker-protocol.ts), but gives the answers to their requests together, once the process has
 * answered every request it was sent (it then has nothing left to run), or when the watchdog
 * looks: so a fast bot's many games move on together and their next requests go out in one batch.
 *
 * The host believes nothing the process writes that it has not checked: every answer is a record
 * of a known kind answering the next request in order, or the process has broken the protocol and
 * is ended (its running request lost as `crash`). Times are the host's own (`#progress`): a request
 * can begin no later than when the host sent it to an idle process or took the answer before it,
 * so that is where its limit counts from. The time from there to when answers are taken is what
 * they cost: the bot's own think times only split it among them (they can never add up to more),
 * and an answer is charged all but the margin (`graceMs`) of its share however little it claims.
 * So a bot that lies about its times can at most move time between its own moves.
 *
 * When the request it is running overruns its limit, the process is ended; the requests of the
 * other games are handed back (`onDeath`) to be asked again elsewhere. When the process ends while
 * it may have kept the answer of the first unanswered request (a request before the last of a
 * batch that keeps its answers), which request was running is not known: none is charged, and all
 * are handed back to be asked again in batches that keep nothing, where a fault that comes again
 * is charged to its own request. The watchdog gives such a request `HOLD_MS` past its cutoff: an
 * answer is kept no longer, so a later request that may be running is past its own cutoff by then.
 */
class BotProc {
  readonly child: ChildProcess;
  /** Why the process is gone (it is then never reused), or null while it is healthy. */
  dead: string | null = null;
  /** Whether the bot has a `prepare` (told by the process when it is ready). */
  prepares = false;
  /** Variants this process's bot has prepared, and those being prepared. */
  readonly prepared = new Set<string>();
  readonly preparing = new Map<string, Promise<FaultReply | null | typeof ORPHANED>>();
  /** Games in play on the process. */
  games = 0;
  readonly ready: Promise<void>;
  readonly #requests: Writable;
  readonly #graceMs: number;
  readonly #memoryMb: number;
  readonly #log: BotLog;
  readonly #oom = new OomWatch();
  readonly #launched: boolean;
  readonly #onDeath: (proc: BotProc, orphans: readonly Ask[]) => void;
  readonly #exited: Promise<void>;
  #startFailed: ((reason: string) => void) | null = null;
  #started: (() => void) | null = null;
  /** Free slots, and the next never used. */
  readonly #free: number[] = [];
  #slots = 0;
  /** The games on the process. */
  readonly #on = new Set<GameSlot>();
  /** Requests made this turn, not yet sent. */
  #queue: Ask[] = [];
  #flushing = false;
  /** Whether the queue, being small, has waited one more turn of the event loop (see `FEW`). */
  #waited = false;
  /** Requests sent and not answered, in the order the process runs them (from `#head`). */
  #sent: Ask[] = [];
  #head = 0;
  /** The host's time from which the request at `#head` counts: when it was sent to an idle process, or where the answers taken before it end (see `#take`). */
  #progress = 0;
  /** Under the CPU clock, the process's CPU time (ms) read by the host, and where the head request's CPU time counts from (as `#progress`). */
  readonly #cpuClock: boolean;
  #cpu: (() => number) | null = null;
  #cpuClose: (() => void) | null = null;
  #progressCpu = 0;
  /** Why the head request is being ended on time (set by `#check`). */
  #lateReason = '';
  #nextId = 1;
  /** The share of the process's time its bot spent thinking, averaged over its last answers (see `lagging`). */
  #thinking = 0;
  /** Whether the process said it is ready (its requests count from then). */
  #ready = false;
  /** Set when a request overran its limit and the process is being ended. */
  #timingOut = false;
  /**
   * One watchdog timer per process rather than one per request: moves take microseconds, so arming
   * and clearing a timer for each would be a large share of a move's cost. When it fires it ends
   * the process if the request at its head is past its cutoff, else re-arms.
   */
  #watchdog: NodeJS.Timeout | null = null;
  /** When the armed watchdog looks (the host's clock). */
  #watchdogAt = 0;
  /** The start of a record on fd 4 whose rest has not come yet. */
  #partial: Buffer | null = null;
  /** Answers read and checked, for the requests from `#head` on, not yet given to them. */
  #taken: Answer[] = [];
  /** The read end of the process's held pipe (worker-protocol.ts), or null (none, or closed). */
  #held: number | null;
  /** Records read from the held pipe, checked, waiting for the requests before them to be answered (from `#heldHead`). */
  #heldRecords: Answer[] = [];
  #heldHead = 0;
  /** The start of a record in the held pipe whose rest has not come yet. */
  #heldPartial: Buffer | null = null;

  constructor(
    script: string,
    init: WorkerInit,
    held: { readonly read: number; readonly write: number } | null,
    o: { readonly memoryMb: number; readonly graceMs: number; readonly clock: ClockKind },
    log: BotLog,
    onDeath: (proc: BotProc, orphans: readonly Ask[]) => void,
    storeBackend: StoreBackend | undefined,
  ) {
    this.#graceMs = o.graceMs;
    this.#memoryMb = o.memoryMb;
    this.#cpuClock = o.clock === 'cpu';
    this.#log = log;
    this.#onDeath = onDeath;
    // Its own process (a heap past its limit ends it alone), in its own PID namespace where
    // bubblewrap can make one (it cannot signal the arena), with the arena's files and environment.
    const plan = pidNamespacePlan([process.execPath, `--max-old-space-size=${o.memoryMb}`, script], process.cwd(), process.env);
    this.#launched = plan.file !== process.execPath;
    const bridge = storeBackend !== undefined;
    try {
      this.child = spawn(plan.file, plan.args, {
        cwd: process.cwd(),
        env: plan.env,
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe', 'pipe', 'pipe', held ? held.write : 'ignore', ...(bridge ? (['pipe', 'pipe'] as const) : [])],
      });
    } finally {
      // The process has its own copy of the write end: the pipe ends when the process does.
      if (held) closeSync(held.write);
    }
    this.#held = held && held.read;
    trackChild(this.child);
    const [, stdout, stderr, requests, replies, , calls, answers] = this.child.stdio as unknown as [null, Readable, Readable, Writable, Readable, null, Readable?, Writable?];
    this.#requests = requests;
    // Writing to a process that has ended fails with EPIPE; its end itself is what gets reported.
    requests.on('error', () => undefined);
    answers?.on('error', () => undefined);
    requests.write(valueFrame(held ? { ...init, held: true } : init));
    replies.on('data', (chunk: Buffer) => this.#data(chunk));
    stdout.on('data', (chunk: Buffer) => this.#output(chunk));
    stderr.on('data', (chunk: Buffer) => {
      this.#oom.feed(chunk);
      this.#output(chunk);
      // Node prints its stacks before it aborts, which can take longer than a move's limit: the
      // message is enough (a bot that prints it itself only ends its own process).
      if (this.#oom.node) this.#die(`ran out of memory (limit ${this.#memoryMb} MB)`);
    });
    if (bridge) servePipeBridge(storeBackend, calls!, answers!, 2 * (init.store.location?.capBytes ?? 4 << 20) + (1 << 20), (why) => this.#die(why, true));
    this.#exited = new Promise<void>((resolve) => this.child.once('close', () => resolve()));
    this.ready = new Promise<void>((resolve, reject) => {
      this.#started = resolve;
      this.#startFailed = (reason) => reject(new BotStartError(reason));
    });
    // Start-up failures are reported through `ready` to whoever starts the process; this copy only
    // keeps the rejection from being unhandled meanwhile.
    this.ready.catch(() => undefined);
    this.child.once('error', (err) => this.#die(`cannot start: ${errorText(err)}`));
    // Judged once its output is drained ('close'), so what it wrote last is read and logged; a
    // grandchild holding a pipe open must not keep the end unnoticed, hence the fallback (DRAIN_FALLBACK_MS).
    const ended = (code: number | null, signal: NodeJS.Signals | null): void =>
      this.#die(this.#oom.seen ? `ran out of memory (limit ${this.#memoryMb} MB)` : exitReason(code, signal, this.#launched, false));
    this.child.once('exit', (code, signal) => void setTimeout(() => ended(code, signal), DRAIN_FALLBACK_MS).unref());
    this.child.once('close', ended);
  }

  /**
   * The CPU clock of the bot's process, read by the host: its JavaScript thread's CPU time (the
   * program under bubblewrap's wrappers), or, if that cannot be found, its whole process tree's.
   */
  #openCpu(): void {
    const root = this.child.pid!;
    const program = findProgram(root, process.execPath);
    let reader: ReturnType<typeof mainThreadCpuReader> | null = null;
    try {
      if (program !== null) reader = mainThreadCpuReader(program);
    } catch {
      // it ended between the two reads: the tree below reads 0, and its end is reported anyway
    }
    this.#cpu = reader ? reader.read : () => processTreeCpuMs(root);
    this.#cpuClose = reader && reader.close;
  }

  /** The process's CPU time (ms) by the host's reading, NaN once it is gone (or without the CPU clock). */
  #cpuNow(): number {
    return this.#cpu === null ? NaN : this.#cpu();
  }

  /** Gives a game a slot on this process. */
  attach(g: GameSlot): void {
    g.proc = this;
    g.slot = this.#free.pop() ?? this.#slots++;
    g.told = false;
    this.games++;
    this.#on.add(g);
  }

  /** Takes a game off the process; its slot is free once no request of it is outstanding. */
  detach(g: GameSlot): void {
    this.games--;
    this.#on.delete(g);
    if (!g.asking) this.#free.push(g.slot);
  }

  /** The share of the process's time its bot spent thinking, averaged over its last answers. */
  get thinking(): number {
    return this.#thinking;
  }

  /** Whether the process has requests to run. */
  get busy(): boolean {
    return this.#head < this.#sent.length;
  }

  /**
   * Whether games wait behind the bot's own thinking, so that the bot could use another process:
   * the process has been busy without an answer for more than `LAG_MS`, and the bot's think time
   * has been most of the process's time lately. A fast bot's batch of many games can take as long,
   * but its time goes to the transport: another process would only split its batches.
   */
  lagging(): boolean {
    return this.#thinking > 0.5 && this.busy && performance.now() - this.#progress > LAG_MS;
  }

  /**
   * Asks the process (the caller made sure it is alive). The request goes out with the others made
   * this turn, or, while the process is busy, with all those made until it has answered what it
   * was sent: it would run them only after those anyway, and they go out in one frame.
   */
  ask(a: Ask): Promise<MoveReply> {
    if (a.game) a.game.asking = a;
    this.#queue.push(a);
    if (!this.busy) this.#flushSoon();
    replyFor = a;
    return new Promise<MoveReply>(awaitReply);
  }

  /** Sends the queue once this turn's other requests have joined it (and, when they are few, the next turn's). */
  #flushSoon(): void {
    if (this.#flushing) return;
    this.#flushing = true;
    queueMicrotask(this.#flush);
  }

  /**
   * Sends the queued requests in one frame (a few wait one more turn first, see `FEW`). A failure
   * to serialize is the runner's own state failing: a bug in the game, not the bot's fault, so it
   * is thrown.
   */
  readonly #flush = (): void => {
    if (this.#queue.length < FEW && !this.#waited) {
      this.#waited = true;
      setImmediate(this.#flush);
      return;
    }
    this.#waited = false;
    this.#flushing = false;
    if (this.dead !== null || this.#queue.length === 0) return;
    const batch = this.#queue;
    this.#queue = [];
    const hold = this.#held !== null && mayHold(batch);
    if (!this.busy) {
      this.#progress = performance.now();
      if (this.#cpu) this.#progressCpu = this.#cpuNow();
      this.#arm(batch[0]!.limitMs + this.#graceMs + (hold ? HOLD_MS : 0));
    }
    const out = newBatch(hold);
    for (let i = 0; i < batch.length; i++) {
      const a = batch[i]!;
      a.id = this.#nextId++;
      a.mayHold = hold && i < batch.length - 1;
      const g = a.game;
      if (a.prepare !== null || g === null) pushPrepare(out, a.id, a.prepare!, a.limitMs);
      else {
        const open: OpenGame | null = g.told ? null : g.rng ? { variant: g.variant, seat: g.seat, seed: g.seed, rng: g.rng } : { variant: g.variant, seat: g.seat, seed: g.seed };
        pushMove(out, a.id, g.slot, a.state, a.moves, a.limitMs, open, a.clock);
      }
      this.#sent.push(a);
    }
    this.#requests.write(valueFrame(out));
  };

  /** The bot's stdout and stderr: into its log, up to the cap (past it, the process is ended). */
  #output(chunk: Buffer): void {
    if (this.#log.append(chunk)) this.#die(`wrote more than ${this.#log.limitBytes} bytes to stdout and stderr`, true);
  }

  /**
   * Reads the records in a chunk of the process's fd 4 and checks each; answers the requests once
   * every request sent has its answer. The records of the held pipe written before a record on fd
   * 4 are read when that record does not answer the next request itself.
   */
  #data(chunk: Buffer): void {
    if (this.dead !== null) return;
    const buf = this.#partial ? Buffer.concat([this.#partial, chunk]) : chunk;
    const { off, broken } = scanRecords(buf, this.#onReply);
    if (broken === STOP) return;
    this.#partial = off === buf.length ? null : Buffer.from(buf.subarray(off));
    const late = broken ?? this.#matchHeld();
    if (late !== null) this.#die(`broke the worker protocol: it wrote ${late}`, true);
    else if (this.#head + this.#taken.length === this.#sent.length) this.#take(performance.now());
  }

  /** A record read on fd 4: the start record, or an answer, which must be the next in order once the held pipe is read. */
  readonly #onReply = (rec: ReplyRecord): string | typeof STOP | null => {
    if (rec.kind === Kind.Ready || rec.kind === Kind.Fatal) {
      if (this.#ready || this.#started === null) return 'a second start record';
      if (rec.kind === Kind.Fatal) {
        this.#die(rec.reason);
        return STOP;
      }
      this.prepares = rec.prepares;
      if (this.#cpuClock) this.#openCpu();
      this.#ready = true;
      this.#started();
      return null;
    }
    const wrong = this.#matchHeld();
    if (wrong !== null) return wrong;
    if (this.#next(rec) === WAIT) {
      const missing = this.#readHeld() ?? this.#matchHeld();
      if (missing !== null) return missing;
    }
    const next = this.#next(rec);
    if (next !== FITS) return next === WAIT ? this.#unexpected(rec) : next;
    this.#taken.push(rec);
    return null;
  };

  /** A record read from the held pipe: kept until its turn. */
  readonly #onHeld = (rec: ReplyRecord): string | null => {
    if (rec.kind === Kind.Ready || rec.kind === Kind.Fatal) return 'a start record on its held pipe';
    this.#heldRecords.push(rec);
    return null;
  };

  /**
   * Whether a record answers the next request waiting for its answer (FITS), may answer a later one
   * (WAIT: a record of the held pipe whose turn comes after a record on fd 4), or what is wrong with it.
   */
  #next(rec: Answer): typeof FITS | typeof WAIT | string {
    const expected = this.#sent[this.#head + this.#taken.length];
    if (!this.#ready || expected === undefined || rec.id < expected.id) return this.#unexpected(rec);
    if (rec.id !== expected.id) return rec.id <= this.#sent[this.#sent.length - 1]!.id ? WAIT : this.#unexpected(rec);
    if ((rec.kind === Kind.Prepared) !== (expected.prepare !== null) && rec.kind !== Kind.Error) {
      return `a ${rec.kind === Kind.Prepared ? 'prepared record' : 'move'} in answer to a ${expected.prepare !== null ? 'prepare' : 'move request'}`;
    }
    return FITS;
  }

  /** A record that answers no request waiting for it, in words. */
  #unexpected(rec: Answer): string {
    const expected = this.#ready ? this.#sent[this.#head + this.#taken.length] : undefined;
    return `an answer to request ${rec.id} ${expected ? `when request ${expected.id} was next` : 'that was never asked'}`;
  }

  /** Takes the held records that answer the next requests, in order; what is wrong with the first that cannot, or null. */
  #matchHeld(): string | null {
    const records = this.#heldRecords;
    let i = this.#heldHead;
    let wrong: string | null = null;
    for (; i < records.length; i++) {
      const next = this.#next(records[i]!);
      if (next === WAIT) break;
      if (next !== FITS) {
        wrong = next;
        break;
      }
      this.#taken.push(records[i]!);
    }
    if (i === records.length) {
      this.#heldRecords = [];
      this.#heldHead = 0;
    } else this.#heldHead = i;
    return wrong;
  }

  /** Reads what the held pipe has and checks each record; what is wrong with it, or null. */
  #readHeld(): string | null {
    const fd = this.#held;
    if (fd === null) return null;
    for (;;) {
      let n: number;
      try {
        n = readSync(fd, HELD_CHUNK, 0, HELD_CHUNK.length, null);
      } catch (err) {
        // EAGAIN: the pipe is empty for now.
        if ((err as NodeJS.ErrnoException).code === 'EAGAIN') return null;
        throw err;
      }
      if (n === 0) return null;
      const chunk = HELD_CHUNK.subarray(0, n);
      const buf = this.#heldPartial ? Buffer.concat([this.#heldPartial, chunk]) : chunk;
      const { off, broken } = scanRecords(buf, this.#onHeld);
      if (typeof broken === 'string') return broken;
      this.#heldPartial = off === buf.length ? null : Buffer.from(buf.subarray(off));
      if (n < HELD_CHUNK.length) return null;
    }
  }

  /** Closes this end of the held pipe (once the process is gone, or being ended). */
  #closeHeld(): void {
    if (this.#held === null) return;
    closeSync(this.#held);
    this.#held = null;
  }

  /**
   * Gives the answers taken so far to their requests, at `now`. Their time is the host's, from
   * `#progress` to `now` (under the CPU clock, the process's CPU time from `#progressCpu` to now,
   * as the host reads it), split among them by the bot's own think times (scaled down if they
   * claim more than there was). When they are all the process had (it is idle), they share the
   * rest too and the next request counts from now; otherwise the rest is the running request's,
   * which counts from where theirs ends. Each is charged its time less at most the margin.
   */
  #take(now: number): void {
    const records = this.#taken;
    const n = records.length;
    if (n === 0) return;
    this.#taken = [];
    const idle = this.#head + n === this.#sent.length;
    const wall = Math.max(0, now - this.#progress);
    let claimed = 0;
    for (const r of records) claimed += r.think;
    // A process already gone has no CPU time to read: its answers' own claims stand, within the wall time.
    const cpuNow = this.#cpuNow();
    const total = this.#cpu === null ? wall : Number.isNaN(cpuNow) ? Math.min(claimed, wall) : Math.max(0, cpuNow - this.#progressCpu);
    const scale = claimed > total ? total / claimed : 1;
    const share = idle ? (total - claimed * scale) / n : 0;
    if (this.#cpu !== null) {
      // The wall clock (for the CPU clock's cap) moves on by the same share of its time.
      this.#progressCpu = idle ? cpuNow : this.#progressCpu + claimed * scale;
      this.#progress = idle ? now : this.#progress + (total > 0 ? (wall * claimed * scale) / total : 0);
    } else this.#progress = idle ? now : this.#progress + claimed * scale;
    // Taken while still busy, the process is on a request that has run long already: all thinking.
    this.#thinking += ((idle && total > 0 ? (claimed * scale) / total : 1) - this.#thinking) / THINKING_WEIGHT;
    const sent = this.#sent;
    for (let i = 0; i < n; i++) {
      const r = records[i]!;
      const a = sent[this.#head + i]!;
      const think = r.think * scale;
      const ms = think + share;
      if (a.game && r.rng) a.game.rng = r.rng;
      this.#answer(a, r.kind !== Kind.Error && r.kind !== Kind.Garbage && think >= a.limitMs + this.#graceMs ? this.#overran(a, think) : replyOf(r, ms, Math.max(think, ms - this.#graceMs)));
    }
    this.#head += n;
    if (idle) {
      // The watchdog stays armed: it finds the process idle, or another batch whose cutoff it re-arms for.
      this.#sent = [];
      this.#head = 0;
      if (this.#queue.length > 0) this.#flushSoon();
      return;
    }
    // A process kept busy for long: drop the answered requests from the front now and then.
    if (this.#head > 1024) {
      this.#sent = sent.slice(this.#head);
      this.#head = 0;
    }
    // A watchdog already armed fires no later than the next cutoff, and re-arms then (`#check`).
    if (this.#watchdog === null) this.#arm(this.#sent[this.#head]!.limitMs + this.#graceMs);
  }

  /**
   * The fault of an answer whose think time (timed where the bot runs) overran the limit: the
   * watchdog would have ended the process had the runner looked in time, but a runner late on its
   * own loop (a busy machine) reads the answers in the pipe first (`#fire`), and must not take one
   * that was out of time.
   */
  #overran(a: Ask, think: number): MoveReply {
    if (a.prepare !== null) return prepareTimeout(a.limitMs, think);
    return { ok: false, kind: 'timeout', reason: overranReason(a.limitMs, this.#cpu !== null), ms: think };
  }

  #answer(a: Ask, reply: MoveReply): void {
    const g = a.game;
    if (g && reply.ok && g.restarted !== null) {
      reply = { ...reply, restarted: g.restarted };
      g.restarted = null;
    }
    a.done = true;
    a.reply = reply;
    if (g) {
      if (reply.ok) g.told = true;
      g.asking = null;
      if (g.closed && g.proc === this) this.#free.push(g.slot); // an abandoned game's slot
    }
    a.resolve?.(reply);
  }

  /**
   * Makes sure the watchdog looks within `inMs`. One armed to look sooner is kept: it re-arms then
   * (`#check`), so a process answering batch after batch within its limits arms about one timer
   * per limit, not one per batch.
   */
  #arm(inMs: number): void {
    const at = performance.now() + inMs;
    if (this.#watchdog !== null) {
      if (this.#watchdogAt <= at) return;
      clearTimeout(this.#watchdog);
    }
    this.#watchdogAt = at;
    // Unref'd: the process itself keeps the arena alive while a request is pending.
    this.#watchdog = setTimeout(this.#fire, Math.max(1, Math.ceil(inMs))).unref();
  }

  /**
   * The watchdog fired. The check waits for one turn of the event loop (setImmediate runs after its
   * I/O poll): when the runner itself was late, an answer already in the pipe is read first, never
   * thrown away with the process.
   */
  readonly #fire = (): void => {
    this.#watchdog = null;
    setImmediate(this.#check);
  };

  #disarm(): void {
    if (this.#watchdog) clearTimeout(this.#watchdog);
    this.#watchdog = null;
  }

  /**
   * Takes the answers read so far, then ends the process if the request at its head is past its
   * cutoff (by the host's clock), else re-arms.
   */
  readonly #check = (): void => {
    if (this.dead !== null || !this.busy || this.#watchdog !== null) return;
    const wrong = this.#readHeld() ?? this.#matchHeld();
    if (wrong !== null) return this.#die(`broke the worker protocol: it wrote ${wrong}`, true);
    this.#take(performance.now());
    if (!this.busy) return;
    const head = this.#sent[this.#head]!;
    // An answer the process may keep waits in it for `HOLD_MS` at most: a later request's cutoff is no later than that past this one's.
    const allowed = head.limitMs + this.#graceMs + (head.mayHold ? HOLD_MS : 0);
    const now = performance.now();
    const wall = now - this.#progress;
    const what = head.prepare !== null ? 'its prepare ran past' : 'no move within';
    if (this.#cpu !== null) {
      // CPU time cannot outrun the wall clock on one thread: the next look is when either could reach its limit.
      const cpu = this.#cpuNow() - this.#progressCpu;
      const cap = wallCapMs(head.limitMs) + allowed - head.limitMs;
      if (!(cpu >= allowed) && wall < cap) return this.#arm(Math.max(1, Math.min(allowed - (cpu || 0), cap - wall)));
      this.#lateReason = cpu >= allowed ? `${what} ${head.limitMs} ms of CPU time` : head.prepare !== null ? `${what} ${head.limitMs} ms (wall-clock cap ${wallCapMs(head.limitMs)} ms)` : wallCapReason(head.limitMs);
    } else {
      if (wall < allowed) return this.#arm(allowed - wall);
      this.#lateReason = `${what} ${head.limitMs} ms`;
    }
    this.#timingOut = true;
    this.#die(this.#lateReason);
  };

  /**
   * The process is gone, or being ended for `reason`: the request it was running (the head) is
   * lost (a timeout when it overran, else a crash with the reason), the others are handed back to
   * go on elsewhere. When the bot is ended for what it did in the process as a whole (`all`: its
   * output past its cap, a breach of the protocol), every game on it is lost with the reason, as an
   * external program's games are when its process is ended.
   */
  #die(reason: string, all = false): void {
    if (this.dead !== null) return;
    // The answers given before the end still count (up to a held record that breaks the protocol, if any).
    if (!all && this.#ready && this.#readHeld() === null) this.#matchHeld();
    this.#closeHeld();
    this.#take(performance.now());
    if (all) for (const g of this.#on) g.fault ??= reason;
    this.dead = reason;
    this.#disarm();
    killGroup(this.child);
    const orphans: Ask[] = [];
    if (this.busy && !all && this.#sent[this.#head]!.mayHold) {
      // Its answer may have been kept in the process with those after it, one of which was running:
      // which one is not known, so none is charged. They are asked again, in batches that keep no
      // answer, where a fault that comes again is pinned on its own request.
      this.#log.note(`${reason} (the request it was running is not known: its batch's unanswered requests are asked again)`, this.child.pid);
      for (let i = this.#head; i < this.#sent.length; i++) {
        const a = this.#sent[i]!;
        a.strict = true;
        orphans.push(a);
      }
    } else if (this.busy) {
      this.#log.note(reason, this.child.pid);
      const running = this.#sent[this.#head++]!;
      const cpu = this.#cpuNow() - this.#progressCpu;
      const ms = Number.isNaN(cpu) ? performance.now() - this.#progress : cpu;
      const fault: MoveReply = this.#timingOut
        ? running.prepare !== null
          ? prepareTimeout(running.limitMs, ms)
          : { ok: false, kind: 'timeout', reason: this.#lateReason, ms }
        : { ok: false, kind: 'crash', reason: running.prepare !== null ? `prepare failed: ${reason}` : reason, ms };
      this.#answer(running, fault);
      for (let i = this.#head; i < this.#sent.length; i++) if (!this.#sent[i]!.done) orphans.push(this.#sent[i]!);
    } else this.#log.note(reason, this.child.pid);
    this.#sent = [];
    this.#head = 0;
    orphans.push(...this.#queue);
    this.#queue = [];
    for (const a of orphans) if (a.game) a.game.asking = null;
    this.#cpuClose?.();
    this.#cpu = null;
    // One that never started is a start-up failure instead.
    if (this.#ready) this.#onDeath(this, orphans);
    else this.#startFailed?.(reason);
    this.#started = null;
  }

  /** Ends the process on purpose (no replacement); settles once it is gone. */
  terminate(): Promise<void> {
    this.dead ??= 'closed';
    this.#disarm();
    this.#closeHeld();
    this.#cpuClose?.();
    this.#cpu = null;
    killGroup(this.child);
    return this.child.pid === undefined ? Promise.resolve() : this.#exited;
  }
}

/**
 * Isolation `worker`: the bot runs in processes of its own with a heap limit, kept for the whole
 * tournament: one at first, another (up to one per game it plays at once and per CPU core) while
 * its own thinking keeps games waiting, and otherwise many games on each process, their requests
 * going out in batches (worker-protocol.ts). Processes rather than threads: a thread's heap limit
 * cannot promise that the bot alone pays for passing it (some allocations past it abort the whole
 * arena, see docs/SECURITY.md), a process's can. A process whose request overruns its limit is
 * ended, that game is lost on time, and the process's other games go on on another process from
 * where they stood (the bot's generator included), so they play exactly as they would have. A
 * process that crashes, runs out of memory, writes past its output cap or breaks the protocol is
 * dropped the same way. (When which request was running is not known, all are asked again: see
 * `BotProc`.) A bot that cannot start forfeits all its games.
 */
export class WorkerHost implements BotHost {
  readonly label: string;
  /** Why the bot could not be started, or null. */
  failure: string | null = null;
  readonly #prepareTimeoutMs: number;
  /** Variants whose `prepare` failed: every later game of the variant forfeits with that fault. */
  readonly #prepareFailed = new Map<string, FaultReply>();
  readonly #spawnProc: () => Promise<BotProc>;
  readonly #log: BotLog;
  /** Live processes, at most `#maxProcs`, and one being started. */
  readonly #procs: BotProc[] = [];
  readonly #maxProcs: number;
  #starting: Promise<BotProc> | null = null;
  #closed = false;

  constructor(label: string, options: WorkerHostOptions) {
    this.label = label;
    // The store is read once, here, and every process of the run gets the same snapshot.
    const location = options.store ?? null;
    const snapshot = location ? runSnapshot(location, options.warn ?? warnOnStderr) : new Map<string, Uint8Array>();
    const clock = options.clock ?? 'wall';
    const init: WorkerInit = {
      file: options.file,
      name: options.name,
      options: options.options,
      store: { location, snapshot },
      ...(options.storeBackend ? { storeBridge: true } : {}),
      ...(clock === 'cpu' ? { clock } : {}),
    };
    const concurrency = Math.max(1, options.concurrency ?? 1);
    this.#maxProcs = Math.min(concurrency, availableParallelism());
    const settings = { memoryMb: options.memoryMb, graceMs: options.graceMs ?? DEFAULT_GRACE_MS, clock };
    this.#prepareTimeoutMs = options.prepareTimeoutMs ?? DEFAULT_PREPARE_TIMEOUT_MS;
    this.#log = new BotLog(options.stderrLog ?? tempStderrLogPath(options.name), options.stderrLimitBytes ?? DEFAULT_STDERR_LIMIT);
    const script = (options.script ?? workerScript([options.file])).then((url) => fileURLToPath(url));
    this.#spawnProc = async () => new BotProc(await script, init, await openPipe(), settings, this.#log, (p, orphans) => this.#lost(p, orphans), options.storeBackend);
  }

  /** The file the bot's output goes to. */
  get stderrLog(): string {
    return this.#log.path;
  }

  /** Starts one more process; once one cannot start, `failure` says why and every later game forfeits. */
  #spawn(): Promise<BotProc> {
    if (this.failure !== null) return Promise.reject(new BotStartError(this.failure));
    this.#starting ??= (async () => {
      let proc: BotProc;
      try {
        proc = await this.#spawnProc();
        await proc.ready;
      } catch (err) {
        this.failure = err instanceof Error ? err.message : String(err);
        throw new BotStartError(this.failure);
      }
      if (this.#closed) void proc.terminate();
      else this.#procs.push(proc);
      return proc;
    })().finally(() => (this.#starting = null));
    return this.#starting;
  }

  /** The process for a new game: the one with fewest games (the first process, when none is running). */
  #pick(): BotProc | Promise<BotProc> {
    let best: BotProc | null = null;
    for (const p of this.#procs) if (p.dead === null && (!best || p.games < best.games)) best = p;
    return best ?? this.#spawn();
  }

  /** A process died: it is dropped, and the requests it had of other games are asked again elsewhere. */
  #lost(proc: BotProc, orphans: readonly Ask[]): void {
    const i = this.#procs.indexOf(proc);
    if (i >= 0) this.#procs.splice(i, 1);
    for (const a of orphans) {
      // A prepare is asked again by whoever waits for it; a move of an abandoned game is not asked again.
      if (a.game === null || a.game.closed) a.resolve?.(ORPHANED);
      else void this.#ask(a.game, a.state, a.moves, a.limitMs, a.clock, a.strict).then((reply) => a.resolve?.(reply));
    }
  }

  /**
   * Puts a game whose process died on another (its generator where it had got to). A game otherwise
   * stays on its process for good: a bot's own caches of a game (minimax keeps its table per game)
   * must see all of its moves for the game to replay move for move. A game the old process had
   * open loses those caches, and its next answer says so (`restarted`), for its record.
   */
  async #place(g: GameSlot): Promise<BotProc> {
    const old = g.proc!;
    if (old.dead === null) return old;
    const p = await this.#pick();
    if (g.told) g.restarted = old.dead;
    old.detach(g);
    p.attach(g);
    return p;
  }

  /**
   * A game is waiting behind the others' requests on a busy process (a slow bot): start another
   * process, up to one per game and per core, for the games that open from now on.
   */
  #grow(): void {
    if (this.#procs.length >= this.#maxProcs || this.#starting !== null || this.failure !== null || this.#closed) return;
    // A failure to start is kept in `failure`: the next game that needs a process forfeits with it.
    this.#spawn().catch(() => undefined);
  }

  /** Runs the bot's `prepare` for a variant on a process, once: null when ready, the fault, or ORPHANED to try again. */
  #prepare(p: BotProc, variant: string): Promise<FaultReply | null | typeof ORPHANED> {
    const failed = this.#prepareFailed.get(variant);
    if (failed) return Promise.resolve(failed);
    let pending = p.preparing.get(variant);
    if (!pending) {
      pending = p.ask(ask(null, variant, null, [], undefined, this.#prepareTimeoutMs)).then((reply) => {
        if (reply === ORPHANED) {
          p.preparing.delete(variant);
          return ORPHANED;
        }
        if (reply.ok) {
          p.prepared.add(variant);
          return null;
        }
        this.#prepareFailed.set(variant, reply);
        return reply;
      });
      p.preparing.set(variant, pending);
    }
    return pending;
  }

  /** A move of a game whose process is not ready for it (gone, or its variant not prepared there). */
  async #ask(g: GameSlot, state: unknown, moves: readonly unknown[], limitMs: number, clock: BotClock | undefined, strict = false): Promise<MoveReply> {
    for (;;) {
      if (g.fault !== null) return { ok: false, kind: 'crash', reason: g.fault, ms: 0 };
      let p: BotProc;
      try {
        p = await this.#place(g);
      } catch (err) {
        return { ok: false, kind: 'crash', reason: err instanceof Error ? err.message : String(err), ms: 0 };
      }
      if (p.prepares && !p.prepared.has(g.variant)) {
        const fault = await this.#prepare(p, g.variant);
        if (fault === ORPHANED) continue;
        if (fault) return fault;
      }
      if (p.dead !== null) continue;
      return p.ask(ask(g, null, state, moves, clock, limitMs, strict));
    }
  }

  start(): Promise<void> {
    return this.#spawn().then(() => undefined);
  }

  /** The share of its busiest process's time the bot spent thinking lately (`BotHost.thinking`). */
  get thinking(): number {
    let most = 0;
    for (const p of this.#procs) if (p.dead === null) most = Math.max(most, p.thinking);
    return most;
  }

  /** How many processes the bot has running. */
  get threads(): number {
    return this.#procs.length;
  }

  open(info: SessionInfo): BotSession | Promise<BotSession> {
    const g: GameSlot = { variant: info.variant, seat: info.seat, seed: info.rngSeed, rng: null, proc: null, slot: 0, told: false, asking: null, closed: false, fault: null, restarted: null };
    const picked = this.#pick();
    if (picked instanceof Promise) return picked.then((p) => this.#session(g, p));
    return this.#session(g, picked);
  }

  #session(g: GameSlot, p: BotProc): BotSession {
    p.attach(g);
    return {
      move: (state, moves, timeMs, clock) => {
        const proc = g.proc!;
        if (proc.dead === null && (!proc.prepares || proc.prepared.has(g.variant))) {
          if (proc.lagging()) this.#grow();
          return proc.ask(ask(g, null, state, moves, clock, timeMs));
        }
        // The match changes its clock object once this move is answered: keep a copy across the warm-up.
        return this.#ask(g, state, moves, timeMs, clock && { ...clock });
      },
      close: () => {
        g.closed = true;
        g.proc?.detach(g);
      },
    };
  }

  async close(): Promise<void> {
    this.#closed = true;
    // A process still starting is ended as it comes up (see `#spawn`); its failure needs no report now.
    await this.#starting?.catch(() => undefined);
    const all = this.#procs.splice(0);
    await Promise.all(all.map((p) => p.terminate()));
    this.#log.close();
  }
}
