/**
 * External bots: a program in any language speaking the JSON-lines protocol (docs/PROTOCOL.md)
 * over its stdin and stdout, as chess engines speak UCI. The host keeps a pool of processes, one
 * per game being played, for the whole tournament. Faults are charged as for worker bots: no
 * answer by the deadline (plus grace) is a `timeout` and the process is killed; an exit is a
 * `crash`; a line that is not a move (`garbage`) or a move that is not legal is an `illegal-move`.
 * A process that timed out, exited or wrote garbage is replaced for the next game.
 */
import { prepareForeignStore, warnOnStderr, type StoreLocation } from '../platform/bot-store.ts';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { serialize } from 'node:v8';
import { show } from '../core/errors.ts';
import type { BotClock } from '../core/bot.ts';
import type { AnyGame } from '../core/game.ts';
import { parseVariant } from '../games/index.ts';
import { processTreeCpuMs, type ClockKind } from '../platform/cpu-clock.ts';
import { pidNamespacePlan, type SandboxPlan } from '../platform/sandbox.ts';
import { BotLog, DEFAULT_STDERR_LIMIT, DRAIN_FALLBACK_MS, exitReason, killGroup, OomWatch, trackChild } from './bot-child.ts';
import { WarmPool } from './pool.ts';
import { BotStartError, DEFAULT_GRACE_MS, errorText, prepareTimeout, overranReason, wallCapMs, wallCapReason, type BotHost, type BotSession, type FaultReply, type MoveReply, type SessionEnd, type SessionInfo } from './host.ts';
import { encodeMessage, gameOverMessage, parseHelloReply, parseMoveLine, PROTOCOL_VERSION, type ToBot } from './protocol.ts';

/** Settings of a process host. */
export interface ProcessHostOptions {
  /** The bot's name (sent in `hello`). */
  readonly name: string;
  /** The program and its arguments (run without a shell). */
  readonly command: readonly string[];
  /** The program's working folder (absolute). */
  readonly cwd: string;
  /** The file the program's stderr is appended to (its folder is created). */
  readonly stderrLog: string;
  /** Extra time after the deadline before a silent bot is out of time. */
  readonly graceMs?: number;
  /**
   * What a move is charged (default `wall`): under `cpu`, the CPU time of the program's whole
   * process tree (its threads and the processes it starts: `processTreeCpuMs`) from the request to
   * the answer, and a silent program is stopped at `wallCapMs` of wall time.
   */
  readonly clock?: ClockKind;
  /** Time for the program to start and answer `hello` (default 10 s). */
  readonly startTimeoutMs?: number;
  /** Time for the program to exit after `quit` before it is killed (default 500 ms). */
  readonly quitTimeoutMs?: number;
  /**
   * The bot's data folder: the program finds it in `TAKE_ARENA_STORE` (its cap in bytes in
   * `TAKE_ARENA_STORE_CAP`); an over-cap folder is emptied with a warning before the run.
   */
  readonly store?: StoreLocation;
  /** Where the warning of a store that had to be reset goes (default: stderr). */
  readonly warn?: (message: string) => void;
  /**
   * How to start the program instead of running `command` in `cwd` directly: the sandbox's
   * bwrap command line (platform/sandbox.ts), its environment and user.
   */
  readonly launch?: () => Promise<SandboxPlan>;
  /** Send each position and its legal moves as the runner's own values too (sandboxed module bots). */
  readonly native?: boolean;
  /**
   * The program is the sandbox runner of a module bot, which runs the bot's `prepare` once per
   * variant when asked: each process is asked before its first move in a variant, on a budget of
   * its own (this many ms, charged on the move clock), so a warm-up is never charged to a move.
   * A prepare that fails or runs past it forfeits that game and every later game of the variant.
   */
  readonly prepareTimeoutMs?: number;
  /**
   * Tell the bot the game's key, which names both bots, and the reason of its opponent's forfeits
   * (default: an opaque id, and no such reason).
   */
  readonly revealOpponents?: boolean;
  /**
   * Bytes of stderr the bot may write over the whole tournament (default 8 MiB): past it the
   * process is killed (its game forfeited as `crash`) and the rest of its output is not logged.
   */
  readonly stderrLimitBytes?: number;
}

/**
 * The key of `opaqueGameId`: random, made once per arena process and kept in its memory only, so no
 * bot can compute an id from a guess at its opponent's name (a plain hash of the key could be).
 */
const GAME_ID_KEY = randomBytes(32);

/**
 * The opaque id of a game for a bot that may not learn its opponent (the key names both bots):
 * unique within the run, different in every run. Nothing the arena records or replays depends on
 * it (the results log has the key), so it may differ; a bot's generator seed is reproducible, and
 * what a bot must seed from.
 */
export function opaqueGameId(key: string): string {
  return createHmac('sha256', GAME_ID_KEY).update(key).digest('hex').slice(0, 16);
}

/** A line longer than this without a newline is garbage (a bot dumping binary, say). */
const MAX_LINE = 1 << 20;

/** A process's answer to a move request: the move text (still unparsed), or a fault. */
type ProcessAnswer = { ok: true; move: string; ms: number; clock?: boolean; think?: number } | { ok: false; kind: 'timeout' | 'crash' | 'illegal-move'; reason: string; ms: number };

/** Where a request's time counts from: the wall clock, and the program's CPU time under the CPU clock (else NaN). */
interface RequestStart {
  readonly t0: number;
  readonly cpu0: number;
}

interface Pending {
  readonly id: number;
  readonly t0: number;
  /** The program's CPU time (ms) when it was asked, under the CPU clock (else NaN). */
  readonly cpu0: number;
  /** The limit and the grace (ms): under the CPU clock, an answer that cost this much is out of time however late it is read. */
  readonly allowed: number;
  /** What the request was asked for, in its timeout's reason. */
  readonly timeMs: number;
  timer: NodeJS.Timeout;
  /** Asked with a clock (a time control): the bot's reported think time is then taken into account. */
  readonly timed: boolean;
  readonly resolve: (r: ProcessAnswer) => void;
}

/** A move request as the session asks it: the protocol's fields, the runner's own values for a sandboxed module bot, and the clock. */
type MoveAsk = Omit<Extract<ToBot, { type: 'move-request' }>, 'id' | 'type' | 'timeLeftMs' | 'incrementMs' | 'opponentTimeLeftMs' | 'native'> & {
  readonly nativeOf?: () => string;
  readonly clock?: BotClock | undefined;
};

/** One running program; plays one game at a time. */
class BotProcess {
  readonly child: ChildProcessWithoutNullStreams;
  /** Why the process is unusable (never reused), or null while healthy. */
  dead: string | null = null;
  /** Whether the program was started through a launcher (the sandbox), which reports signals as exit codes. */
  readonly launched: boolean;
  /** Settles once the program answered `hello` (rejects with BotStartError otherwise). */
  readonly ready: Promise<void>;
  /** Variants whose `prepare` this process has run (see `ProcessHostOptions.prepareTimeoutMs`). */
  readonly prepared = new Set<string>();
  #buffer = '';
  #pending: Pending | null = null;
  #hello: ((line: string) => void) | null = null;
  #nextId = 1;
  #started = false;
  #exited: Promise<void>;

  readonly #opts: ProcessHostOptions & { readonly graceMs: number };
  readonly #log: BotLog;
  readonly #onDeath: (p: BotProcess) => void;
  /** Whether stderr said the process ran out of memory (its exit is then named so). */
  readonly #oom = new OomWatch();

  constructor(opts: ProcessHostOptions & { readonly graceMs: number }, log: BotLog, onDeath: (p: BotProcess) => void, launch: SandboxPlan | undefined) {
    this.#opts = opts;
    this.#log = log;
    this.#onDeath = onDeath;
    const program = opts.command[0]!;
    // Not sandboxed: the program's own PID namespace where bubblewrap can make one (it cannot
    // signal the arena), its environment and folder as they are.
    const env = opts.store ? { ...process.env, TAKE_ARENA_STORE: opts.store.dir, TAKE_ARENA_STORE_CAP: String(opts.store.capBytes) } : process.env;
    const plan = launch ?? pidNamespacePlan(opts.command, opts.cwd, env);
    this.launched = plan.file !== program;
    // Own process group (detached), so a kill reaches the whole tree (a shell script's children).
    // stderr passes through the arena, which counts it against the bot's cap.
    this.child = spawn(plan.file, plan.args, {
      cwd: opts.cwd,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
      env: plan.env,
      ...(plan.uid !== undefined ? { uid: plan.uid, gid: plan.gid! } : {}),
    }) as unknown as ChildProcessWithoutNullStreams;
    this.child.stderr.on('data', (chunk: Buffer) => this.#stderr(chunk));
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (chunk: string) => this.#data(chunk));
    // Writing to a program that has exited fails with EPIPE; the exit itself is what gets reported.
    this.child.stdin.on('error', () => {});
    this.#exited = new Promise<void>((resolve) => this.child.once('close', () => resolve()));
    trackChild(this.child);
    this.ready = new Promise<void>((resolve, reject) => {
      const fail = (reason: string): void => {
        clearTimeout(timer);
        this.#hello = null;
        this.#die(reason);
        reject(new BotStartError(reason));
      };
      const timer = setTimeout(() => fail(`did not answer hello within ${opts.startTimeoutMs ?? 10_000} ms`), opts.startTimeoutMs ?? 10_000);
      this.#hello = (line) => {
        clearTimeout(timer);
        this.#hello = null;
        const reply = parseHelloReply(line);
        if (!reply.ok) return fail(reply.reason);
        this.#started = true;
        resolve();
      };
      this.child.once('error', (err) => fail(`cannot run ${show(program)}: ${errorText(err)}`));
      // Judge the exit once stdout is drained ('close'), so a move written just before exiting
      // still counts; a grandchild holding stdout open must not keep the exit unnoticed, hence
      // the fallback after 'exit' (DRAIN_FALLBACK_MS).
      const exited = (code: number | null, signal: NodeJS.Signals | null): void => {
        const reason = exitReason(code, signal, this.launched, this.#oom.seen);
        if (this.#hello) fail(`${reason} before answering hello`);
        else this.#die(reason);
      };
      this.child.once('exit', (code, signal) => {
        setTimeout(() => exited(code, signal), DRAIN_FALLBACK_MS).unref();
      });
      this.child.once('close', exited);
    });
    // A start-up failure is reported to whoever waits for `ready` (the pool); this copy only keeps
    // the rejection from being unhandled while nobody waits yet.
    this.ready.catch(() => undefined);
    this.send({ type: 'hello', protocol: PROTOCOL_VERSION, arena: 'take-arena', bot: opts.name });
  }

  #stderr(chunk: Buffer): void {
    this.#oom.feed(chunk);
    if (this.#log.append(chunk)) this.kill(`wrote more than ${this.#log.limitBytes} bytes to stderr`);
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Writes one message line (ignored once the process is dead). */
  send(msg: ToBot): void {
    if (this.dead !== null) return;
    this.child.stdin.write(`${encodeMessage(msg)}\n`);
  }

  /** A note from the arena in the bot's stderr log. */
  log(text: string): void {
    this.#log.note(text, this.child.pid);
  }

  #data(chunk: string): void {
    this.#buffer += chunk;
    let nl: number;
    while ((nl = this.#buffer.indexOf('\n')) >= 0) {
      const line = this.#buffer.slice(0, nl).replace(/\r$/, '');
      this.#buffer = this.#buffer.slice(nl + 1);
      if (line.trim() !== '') this.#line(line);
    }
    if (this.#buffer.length > MAX_LINE) {
      this.#buffer = '';
      this.#garbage(`wrote more than ${MAX_LINE} bytes without a newline`);
    }
  }

  #line(line: string): void {
    if (this.#hello) return this.#hello(line);
    const p = this.#pending;
    if (!p) {
      this.log(`ignored a line written outside a move request: ${line.slice(0, 200)}`);
      return;
    }
    const parsed = parseMoveLine(line);
    if (!parsed.ok && parsed.error !== undefined && (parsed.id === null || parsed.id === p.id)) {
      // The bot says it cannot move (a module bot that threw): a crash, and the process goes on.
      this.#pending = null;
      clearTimeout(p.timer);
      p.resolve({ ok: false, kind: 'crash', reason: parsed.error, ms: this.#spent(p) });
      return;
    }
    if (!parsed.ok) return this.#garbage(parsed.reason);
    if (parsed.id !== null && parsed.id !== p.id) {
      this.log(`ignored an answer to request ${parsed.id} (waiting for ${p.id}): ${line.slice(0, 200)}`);
      return;
    }
    this.#pending = null;
    clearTimeout(p.timer);
    const ms = this.#spent(p);
    // Under the CPU clock an answer is judged by the CPU time it cost, whenever it is read: a runner
    // late on its own loop (a busy machine) may read it after its cut-off was due, and an answer in
    // the pipe is read first (see `request`), but it must not be taken when the program overran.
    // (Its CPU time no longer grows once it has answered and waits, so reading late adds nothing.)
    if (!Number.isNaN(p.cpu0) && ms >= p.allowed) {
      p.resolve({ ok: false, kind: 'timeout', reason: overranReason(p.timeMs, true), ms });
      return;
    }
    const answer: ProcessAnswer = parsed.clock ? { ok: true, move: parsed.move, ms, clock: true } : { ok: true, move: parsed.move, ms };
    if (p.timed && parsed.thinkMs !== undefined) {
      // A process reports its own think time, which the arena cannot check: it is believed only to
      // within the margin (grace), so a bot that under-reports gains at most that much per move.
      answer.think = Math.min(ms, Math.max(parsed.thinkMs, ms - this.#opts.graceMs));
    }
    p.resolve(answer);
  }

  /** Output that is not a move: the game is forfeited and the process, out of step, replaced. */
  #garbage(reason: string): void {
    this.log(reason);
    const p = this.#pending;
    this.#pending = null;
    if (p) {
      clearTimeout(p.timer);
      p.resolve({ ok: false, kind: 'illegal-move', reason, ms: this.#spent(p) });
    }
    this.kill(`replaced after garbage output`);
  }

  #die(reason: string): void {
    if (this.dead === null) {
      this.dead = reason;
      if (this.#started) {
        this.log(reason);
        this.#onDeath(this);
      }
    }
    const p = this.#pending;
    if (p) {
      this.#pending = null;
      clearTimeout(p.timer);
      p.resolve({ ok: false, kind: 'crash', reason: `${reason} (stderr: ${this.#opts.stderrLog})`, ms: this.#spent(p) });
    }
  }

  /** What the pending request has cost so far: the program's CPU time under the CPU clock (never more than the wall time), else the wall time. */
  #spent(p: Pending): number {
    const wall = performance.now() - p.t0;
    // A program already gone reads 0: its wall time stands.
    const cpu = Number.isNaN(p.cpu0) ? 0 : processTreeCpuMs(this.child.pid!);
    return cpu > 0 ? Math.min(wall, cpu - p.cpu0) : wall;
  }

  /** The clocks now (the wall clock, and the program's CPU time under the CPU clock, else NaN): where a request's time counts from. */
  mark(): RequestStart {
    return { t0: performance.now(), cpu0: this.#opts.clock === 'cpu' ? processTreeCpuMs(this.child.pid!) : NaN };
  }

  /**
   * Sends a move request and waits for the answer, the deadline or the process's end; its time
   * counts from `start` (by default, now: before the request is written).
   */
  request(msg: MoveAsk, start?: RequestStart): Promise<ProcessAnswer> {
    if (this.dead !== null) return Promise.resolve({ ok: false, kind: 'crash', reason: this.dead, ms: 0 });
    return new Promise((resolve) => {
      const id = this.#nextId++;
      const { t0, cpu0 } = start ?? this.mark();
      const allowed = msg.timeMs + this.#opts.graceMs;
      // The cut-off waits for one turn of the event loop (setImmediate runs after its I/O poll):
      // when the runner itself was late (its loop blocked past the cutoff), an answer already in
      // the pipe is read and taken first, never thrown away with the process. Under the CPU clock
      // it looks again until the program has used its time or the wall-clock cap has passed (CPU
      // time can outrun the wall clock only by the program's threads working at once).
      const look = (): void => {
        const p = this.#pending;
        if (p?.id !== id) return;
        let reason = overranReason(msg.timeMs, false);
        if (!Number.isNaN(cpu0)) {
          const wall = performance.now() - t0;
          const cpu = processTreeCpuMs(this.child.pid!) - cpu0;
          const cap = wallCapMs(msg.timeMs) + this.#opts.graceMs;
          if (cpu < allowed && wall < cap) {
            p.timer = setTimeout(() => setImmediate(look), Math.max(1, Math.min(allowed - cpu, cap - wall)));
            return;
          }
          reason = cpu >= allowed ? overranReason(msg.timeMs, true) : wallCapReason(msg.timeMs);
        }
        this.#pending = null;
        const ms = this.#spent(p);
        this.kill(`killed after ${reason}`);
        resolve({ ok: false, kind: 'timeout', reason, ms });
      };
      const timer = setTimeout(() => setImmediate(look), Math.max(0, t0 + allowed - performance.now()));
      const c = msg.clock;
      this.#pending = { id, t0, cpu0, allowed, timeMs: msg.timeMs, timer, timed: c !== undefined, resolve };
      const clock = c ? { timeLeftMs: c.remainingMs, incrementMs: c.incrementMs, opponentTimeLeftMs: c.opponentRemainingMs } : {};
      const ask = { type: 'move-request' as const, id, position: msg.position, moves: msg.moves, timeMs: msg.timeMs, ...clock, ...(msg.prepare ? { prepare: true as const } : {}) };
      this.send(msg.nativeOf ? { ...ask, native: msg.nativeOf() } : ask);
    });
  }

  /** Kills the process group at once. */
  kill(reason: string): void {
    this.#die(reason);
    killGroup(this.child);
  }

  /** Sends `quit`, closes stdin and waits for the exit; kills the group after `quitTimeoutMs`. */
  async quit(): Promise<void> {
    const healthy = this.dead === null;
    this.dead ??= 'closed';
    if (healthy && this.child.exitCode === null) {
      this.child.stdin.write(`${encodeMessage({ type: 'quit' })}\n`);
      this.child.stdin.end();
      const timer = setTimeout(() => this.kill('killed: did not exit after quit'), this.#opts.quitTimeoutMs ?? 500);
      await this.#exited;
      clearTimeout(timer);
    } else {
      this.kill('closed');
      // A process that never started may not emit `close` when spawn failed; do not wait on it.
      if (this.child.pid !== undefined) await this.#exited;
    }
  }
}

/**
 * Runs an external bot: processes started on demand (one per concurrent game) and kept for the
 * whole tournament; a process that timed out, crashed or wrote garbage is replaced in the
 * background. A program that cannot start or answer `hello` forfeits all its games.
 */
export class ProcessHost implements BotHost {
  readonly label: string;
  readonly #opts: ProcessHostOptions & { readonly graceMs: number };
  readonly #games = new Map<string, AnyGame>();
  readonly #pool: WarmPool<BotProcess>;
  readonly #log: BotLog;
  /** Variants whose `prepare` failed: every later game of the variant forfeits with that fault. */
  readonly #prepareFailed = new Map<string, FaultReply>();

  constructor(label: string, options: ProcessHostOptions) {
    this.label = label;
    const opts = { ...options, graceMs: options.graceMs ?? DEFAULT_GRACE_MS };
    if (opts.store) prepareForeignStore(opts.store, opts.warn ?? warnOnStderr);
    this.#opts = opts;
    const log = new BotLog(opts.stderrLog, options.stderrLimitBytes ?? DEFAULT_STDERR_LIMIT);
    this.#log = log;
    this.#pool = new WarmPool<BotProcess>({
      create: async (onDeath) => {
        const launch = opts.launch ? await opts.launch() : undefined;
        const proc = new BotProcess(opts, log, onDeath, launch);
        proc.log(`started ${opts.command.join(' ')} in ${opts.cwd}${opts.launch ? ' (sandbox)' : ''}`);
        return proc;
      },
      stop: (proc) => proc.quit(),
      // spawn throws synchronously for bad arguments (e.g. a NUL byte).
      failureText: (err, created) =>
        created ? `${err instanceof Error ? err.message : String(err)} (stderr: ${opts.stderrLog})` : `cannot start: ${errorText(err)}`,
    });
  }

  /** The stderr log file. */
  get stderrLog(): string {
    return this.#opts.stderrLog;
  }

  /** Why the bot could not be started, or null. */
  get failure(): string | null {
    return this.#pool.failure;
  }

  start(): Promise<void> {
    return this.#pool.start();
  }

  async open(info: SessionInfo): Promise<BotSession> {
    let game = this.#games.get(info.variant);
    if (!game) {
      game = parseVariant(info.variant);
      this.#games.set(info.variant, game);
    }
    const proc = await this.#pool.take();
    const id = this.#opts.revealOpponents ? info.key : opaqueGameId(info.key);
    // The runner starts a variant's `prepare` when `new-game` comes, so its time counts from before
    // that is written: on a busy machine this thread may be held up between the two for longer than
    // the budget, and the prepare's work meanwhile is the prepare's.
    const prepareFrom = this.#opts.prepareTimeoutMs !== undefined && !proc.prepared.has(game.id) ? proc.mark() : null;
    proc.send({
      type: 'new-game',
      game: id,
      family: game.family,
      variant: game.id,
      params: game.params,
      seat: info.seat,
      seed: info.rngSeed,
    });
    const fault = prepareFrom ? await this.#prepare(proc, game.id, this.#opts.prepareTimeoutMs!, prepareFrom) : null;
    return new ProcessSession(proc, game, { ...info, key: id }, (p) => this.#pool.release(p), this.#opts.native === true, this.#opts.revealOpponents === true, fault);
  }

  /**
   * Waits for the bot's `prepare` of `variant` on `proc` (a runner that had not prepared it, sent
   * `new-game` since `from`), on a budget of `limitMs`: null when ready, else the game's fault.
   */
  async #prepare(proc: BotProcess, variant: string, limitMs: number, from: RequestStart): Promise<FaultReply | null> {
    const failed = this.#prepareFailed.get(variant);
    if (failed) return failed;
    const answer = await proc.request({ position: null, moves: [], timeMs: limitMs, prepare: true }, from);
    if (answer.ok) {
      proc.prepared.add(variant);
      return null;
    }
    // A prepare past its budget, or one that threw (the runner says `prepare failed: …`), fails the
    // variant; a process that died meanwhile (killed for its store, say) loses this game only, with
    // what killed it, and the next game's process prepares again.
    if (answer.kind === 'timeout') this.#prepareFailed.set(variant, prepareTimeout(limitMs, answer.ms));
    else if (answer.reason.startsWith('prepare failed')) this.#prepareFailed.set(variant, answer);
    return this.#prepareFailed.get(variant) ?? answer;
  }

  /** Kills every process of the bot now: the games they play are lost as `crash` with `reason`. */
  killAll(reason: string): void {
    for (const proc of this.#pool.instances()) proc.kill(reason);
  }

  async close(): Promise<void> {
    await this.#pool.close();
    this.#log.close();
  }
}

class ProcessSession implements BotSession {
  #closed = false;

  readonly #proc: BotProcess;
  readonly #game: AnyGame;
  readonly #info: SessionInfo;
  readonly #release: (p: BotProcess) => void;
  readonly #native: boolean;
  readonly #revealOpponents: boolean;
  /** Why every move of this game forfeits at once (its variant's `prepare` failed), or null. */
  readonly #fault: FaultReply | null;

  constructor(
    proc: BotProcess,
    game: AnyGame,
    info: SessionInfo,
    release: (p: BotProcess) => void,
    native: boolean,
    revealOpponents: boolean,
    fault: FaultReply | null,
  ) {
    this.#proc = proc;
    this.#game = game;
    this.#info = info;
    this.#release = release;
    this.#native = native;
    this.#revealOpponents = revealOpponents;
    this.#fault = fault;
  }

  async move(state: unknown, moves: readonly unknown[], timeMs: number, clock?: BotClock): Promise<MoveReply> {
    if (this.#fault) return this.#fault;
    const game = this.#game;
    const answer = await this.#proc.request(
      this.#native
        ? // The runner rebuilds its own values; the text forms stay for the bot's log.
          { position: null, moves: [], timeMs, clock, nativeOf: () => serialize({ state, moves }).toString('base64') }
        : { position: game.toJSON(state), moves: moves.map((m) => game.formatMove(m)), timeMs, clock },
    );
    if (!answer.ok) return answer;
    try {
      // The host's own Game parses the text into one of the legal moves (MoveError otherwise).
      const move = game.parseMove(answer.move, state);
      const reply = answer.clock ? { ok: true as const, move, ms: answer.ms, clock: true } : { ok: true as const, move, ms: answer.ms };
      return answer.think !== undefined ? { ...reply, think: answer.think } : reply;
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      return { ok: false, kind: 'illegal-move', reason: `answered ${show(answer.move)}: ${why}`, ms: answer.ms };
    }
  }

  close(end?: SessionEnd): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#proc.send(gameOverMessage(this.#info.key, this.#info.seat, end, this.#revealOpponents));
    this.#release(this.#proc);
  }
}
