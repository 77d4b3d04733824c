/**
 * The coordinator's check of a game played on a remote worker (DESIGN.md "Trust": the coordinator
 * replays every remote result through the referee from the deal before it counts). A worker's
 * record is data from another machine, so it is read as `unknown`: every field the log keeps is
 * checked for its type and compared with what the coordinator itself knows of the game (its place
 * in the schedule, the bots, the seeds, the clocks); the start position is dealt again from the
 * deal's seed; every move is replayed and must be one of the legal moves in its position, in its
 * canonical notation; and the ending must be the one the rules give (the outcome and winner of a
 * finished game, the seat to move for a forfeit, the solver's value for an adjudication, a bank
 * that covered every charged move). What passes is rebuilt field by field, so nothing a worker
 * adds beyond the record's fields reaches the log.
 *
 * What it cannot know: whether a forfeit really happened (a bot's crash or lateness on the worker),
 * the times themselves, or whether the moves were the bots' own. Those are vouched for by the
 * worker that signed the result with the tournament's key (auth.ts).
 */
import type { AnyGame, Seat } from '../../core/game.ts';
import { otherSeat } from '../../core/game.ts';
import { findMove } from '../../core/referee.ts';
import { createRng } from '../../core/rng.ts';
import type { GameRecord, GameRestart, MoveObserver, Termination } from '../match.ts';
import type { GameJob } from '../schedule.ts';

/** What a check needs besides the game and its job: the run's settings that shape a record. */
export interface RecordRules {
  /** The `--adjudicate` judge of the variant (`exactJudge`), when the run adjudicates. */
  readonly judge?: ((state: unknown) => number | null) | undefined;
  /** The time margin (ms) a bank may be overdrawn by before the move loses on time. */
  readonly marginMs: number;
}

/** A refused record: why, in a few words naming the field. */
export class RecordRefusal {
  constructor(readonly reason: string) {}
}

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);
const SEATS: readonly Seat[] = ['first', 'second'];
const FORFEITS: readonly Termination[] = ['timeout', 'crash', 'illegal-move'];

function refuse(reason: string): never {
  throw new RecordRefusal(reason);
}

/** A list of `n` non-negative integers (move times in µs), or a refusal naming `field`. */
function times(rec: Obj, field: string, n: number): number[] {
  const v = rec[field];
  if (!Array.isArray(v) || v.length !== n || !v.every(isCount)) refuse(`\`${field}\` is not ${n} whole microsecond counts`);
  return v as number[];
}

/**
 * Checks one record of a remote worker against the game it was to play (`job`) and returns the
 * record as the log will keep it, or throws a `RecordRefusal` saying what is wrong. `observer`
 * (the standings' move judge) hears the replayed positions, as it would hear a game played here.
 */
export function verifyRecord(job: GameJob, game: AnyGame, value: unknown, rules: RecordRules, observer?: MoveObserver): GameRecord {
  if (!isObj(value)) refuse(`a record is ${value === null ? 'null' : typeof value}, not an object`);
  const rec = value;
  for (const field of ['index', 'key', 'variant', 'deal', 'dealSeed', 'seating', 'botSeeds'] as const) {
    if (!same(rec[field], job[field])) refuse(`its \`${field}\` is ${JSON.stringify(rec[field]) ?? 'missing'}, the schedule says ${JSON.stringify(job[field])}`);
  }
  const seats = { first: job.seats.first.label, second: job.seats.second.label };
  if (!same(rec['seats'], seats)) refuse(`its \`seats\` are ${JSON.stringify(rec['seats']) ?? 'missing'}, the schedule says ${JSON.stringify(seats)}`);
  // The clocks the job gave (a worker of another version leaves them out or spells them otherwise).
  const clocks = job.seatClocks ?? { first: job, second: job };
  const banked = clocks.first.timeControl !== undefined;
  if (!same(rec['seatClocks'], job.seatClocks)) refuse('its `seatClocks` differ from the job\'s');
  const timeControl = banked && !job.seatClocks ? job.timeControl : undefined;
  if (!same(rec['timeControl'], timeControl)) refuse(`its \`timeControl\` is ${JSON.stringify(rec['timeControl']) ?? 'missing'}, the job's is ${JSON.stringify(timeControl) ?? 'none'}`);

  let state = game.deal(createRng(job.dealSeed));
  const start = game.toJSON(state);
  if (!same(rec['start'], start)) refuse('its start position is not the deal of its seed');
  const moves = rec['moves'];
  if (!Array.isArray(moves) || !moves.every((m) => typeof m === 'string')) refuse('`moves` is not a list of move notations');
  const us = times(rec, 'us', moves.length);
  const ovh = banked ? times(rec, 'ovh', moves.length) : rec['ovh'] === undefined ? undefined : refuse('`ovh` without a time control');
  const wus = rec['wus'] === undefined ? undefined : times(rec, 'wus', moves.length);

  // The replay: each move legal in its position, the bank covering each charged move.
  observer?.dealt(state);
  const left = banked ? { first: clocks.first.timeControl!.baseMs * 1000, second: clocks.second.timeControl!.baseMs * 1000 } : null;
  const moved = { first: false, second: false };
  for (let i = 0; i < moves.length; i++) {
    const text = moves[i] as string;
    if (game.outcome(state)) refuse(`move ${i + 1} (${text}) comes after the game was over`);
    const legal = game.moves(state);
    let parsed: unknown;
    try {
      parsed = game.parseMove(text, state);
    } catch {
      refuse(`move ${i + 1} (${text}) is not a move of ${game.id}`);
    }
    const k = findMove(game, legal, parsed);
    if (k < 0 || game.formatMove(legal[k]) !== text) refuse(`move ${i + 1} (${text}) is not legal in its position`);
    const seat = game.toMove(state);
    if (left) {
      if (us[i]! > left[seat] + rules.marginMs * 1000) refuse(`move ${i + 1} was charged ${us[i]} µs with ${left[seat]} µs left in the bank: it lost on time`);
      left[seat] = Math.max(0, left[seat] - us[i]!) + clocks[seat].timeControl!.incMs * 1000;
    }
    state = game.play(state, legal[k]);
    moved[seat] = true;
    observer?.moved(seat, state);
    // Adjudicated as soon as both have moved and the solver knows: no move may follow that point.
    if (rules.judge && moved.first && moved.second && i < moves.length - 1 && !game.outcome(state) && rules.judge(state) !== null) {
      refuse(`the game goes on after move ${i + 1}, where the run adjudicates it`);
    }
  }

  // The ending.
  const termination = rec['termination'] as Termination;
  const outcome = rec['outcome'];
  if (!isObj(outcome) || !(outcome['winner'] === null || SEATS.includes(outcome['winner'] as Seat))) refuse('`outcome` is not a winner seat or null');
  const over = game.outcome(state);
  const mover = over ? null : game.toMove(state);
  const reason = rec['reason'];
  const faulty = rec['faulty'];
  let winner: Seat | null;
  let scores: [number, number] | undefined;
  let adjudicated: GameRecord['adjudicated'];
  if (termination === 'normal') {
    if (!over) refuse('it ended `normal` in a position that is not over');
    if (faulty !== null || reason !== null) refuse('a `normal` ending names a faulty seat or a reason');
    winner = over.winner;
    if (over.scores) scores = [over.scores[0], over.scores[1]];
    if (!same(outcome['scores'], scores)) refuse(`its scores are ${JSON.stringify(outcome['scores']) ?? 'missing'}, the rules give ${JSON.stringify(scores) ?? 'none'}`);
  } else if (FORFEITS.includes(termination)) {
    if (over) refuse(`a forfeit (\`${termination}\`) in a position that is over`);
    // A bot forfeits on its own move; only a bot that cannot start forfeits before the first move either way.
    const either = termination === 'crash' && moves.length === 0;
    if (!SEATS.includes(faulty as Seat) || (!either && faulty !== mover)) refuse(`the faulty seat is ${JSON.stringify(faulty) ?? 'missing'}, the seat to move is ${mover}`);
    if (typeof reason !== 'string' || reason === '') refuse('a forfeit without a reason');
    if (rules.judge && moved.first && moved.second && rules.judge(state) !== null) refuse('a forfeit after the position the run adjudicates');
    winner = otherSeat(faulty as Seat);
  } else if (termination === 'adjudicated') {
    const value = rules.judge?.(state) ?? null;
    if (over || value === null || !moved.first || !moved.second) refuse('adjudicated where the run does not adjudicate');
    if (!same(rec['adjudicated'], { value, ply: moves.length })) refuse(`its adjudication is ${JSON.stringify(rec['adjudicated'])}, the solver gives value ${value} at ply ${moves.length}`);
    if (faulty !== null || typeof reason !== 'string') refuse('an adjudication names a faulty seat or no reason');
    adjudicated = { value, ply: moves.length };
    winner = value > 0 ? mover : value < 0 ? otherSeat(mover!) : null;
  } else refuse(`its termination ${JSON.stringify(termination) ?? 'is missing'} is not one a finished game has`);
  if (outcome['winner'] !== winner) refuse(`the winner seat is ${JSON.stringify(outcome['winner'])}, the game gives ${JSON.stringify(winner)}`);
  const label = winner === null ? null : seats[winner];
  if (rec['winner'] !== label) refuse(`the winner is ${JSON.stringify(rec['winner']) ?? 'missing'}, the game gives ${JSON.stringify(label)}`);
  if (termination !== 'adjudicated' && rec['adjudicated'] !== undefined) refuse('`adjudicated` on a game that was not');

  const out: { -readonly [K in keyof GameRecord]: GameRecord[K] } = {
    index: job.index,
    key: job.key,
    variant: job.variant,
    deal: job.deal,
    dealSeed: job.dealSeed,
    seating: job.seating,
    seats,
    botSeeds: job.botSeeds,
    start,
    moves: moves as string[],
    us,
    outcome: scores ? { winner, scores } : { winner },
    winner: label,
    termination,
    faulty: (faulty as Seat | null) ?? null,
    reason: (reason as string | null) ?? null,
  };
  if (job.seatClocks) out.seatClocks = job.seatClocks;
  if (ovh) out.ovh = ovh;
  if (timeControl) out.timeControl = timeControl;
  if (wus) out.wus = wus;
  if (adjudicated) out.adjudicated = adjudicated;
  const stops = rec['clockStops'];
  if (stops !== undefined) {
    if (!isObj(stops) || !isCount(stops['first']) || !isCount(stops['second'])) refuse('`clockStops` is not two counts');
    out.clockStops = { first: stops['first'], second: stops['second'] };
  }
  const restarts = rec['restarts'];
  if (restarts !== undefined) {
    const ok = (r: unknown): r is GameRestart => isObj(r) && SEATS.includes(r['seat'] as Seat) && isCount(r['ply']) && (r['ply'] as number) <= moves.length && typeof r['reason'] === 'string';
    if (!Array.isArray(restarts) || restarts.length === 0 || !restarts.every(ok)) refuse('`restarts` is not a list of restarts');
    out.restarts = restarts.map(({ seat, ply, reason }) => ({ seat, ply, reason }));
  }
  return out;
}
