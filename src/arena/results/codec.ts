/**
 * A game's line in `games.jsonl`, both ways: the encoder writes a record's JSON bytes straight into
 * a batch buffer (no string of the line is made), the decoder reads a line back into a record.
 */
import { ByteMemo, putAscii, putNumber, putText } from '../../core/bytes.ts';
import type { GameRecord } from '../match.ts';

/**
 * Decodes one log line (without its newline) into a record, or null when it is not a game line.
 * Reads the compact form (`moves` one string, `us` and, under a time control, `ovh` integer
 * microseconds) and the earlier one
 * (`moves` a list of `{ move, ms }`), so folders written before the compact record still resume.
 */
export function parseRecordLine(text: string): GameRecord | null {
  let raw: Record<string, unknown>;
  try {
    raw = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return null;
  }
  if (raw === null || typeof raw !== 'object' || typeof raw['key'] !== 'string' || typeof raw['termination'] !== 'string') return null;
  if (typeof raw['index'] !== 'number' || typeof raw['variant'] !== 'string') return null;
  delete raw['chk']; // the line's checksum (chain.ts) is not part of the game
  const moves = raw['moves'];
  if (typeof moves === 'string') {
    const us = raw['us'];
    const list = moves === '' ? [] : moves.split(' ');
    if (!Array.isArray(us) || us.length !== list.length) return null;
    for (const times of [raw['ovh'], raw['wus']]) if (times !== undefined && (!Array.isArray(times) || times.length !== list.length)) return null;
    raw['moves'] = list;
  } else if (Array.isArray(moves)) {
    const legacy = moves as { move?: unknown; ms?: unknown }[];
    if (!legacy.every((m) => m !== null && typeof m === 'object' && typeof m.move === 'string' && typeof m.ms === 'number')) return null;
    raw['moves'] = legacy.map((m) => m.move as string);
    raw['us'] = legacy.map((m) => Math.round((m.ms as number) * 1000));
  } else return null;
  return raw as unknown as GameRecord;
}

/**
 * A JSON string literal's bytes written at `at` (returns the end): the characters copied as they are
 * when none needs escaping (the usual case: labels, keys, notations), else `JSON.stringify`'s
 * text as UTF-8, so the bytes are always those of `JSON.stringify(s)`.
 */
function putString(buf: Buffer, at: number, s: string): number {
  buf[at] = 0x22;
  let i = at + 1;
  for (let k = 0; k < s.length; k++) {
    const c = s.charCodeAt(k);
    if (c < 0x20 || c === 0x22 || c === 0x5c || c >= 0x7f) return at + buf.write(JSON.stringify(s), at, 'utf8');
    buf[i++] = c;
  }
  buf[i] = 0x22;
  return i + 1;
}

/** A list of numbers as a JSON array. */
function putNumbers(buf: Buffer, at: number, list: readonly number[]): number {
  buf[at++] = 0x5b;
  for (let i = 0; i < list.length; i++) {
    if (i > 0) buf[at++] = 0x2c;
    at = putNumber(buf, at, list[i]!);
  }
  buf[at] = 0x5d;
  return at + 1;
}

/** The moves as one JSON string, space-separated (no notation has a space: the log could not store it). */
function putMoves(buf: Buffer, at: number, list: readonly string[]): number {
  buf[at] = 0x22;
  let i = at + 1;
  for (let m = 0; m < list.length; m++) {
    const s = list[m]!;
    if (m > 0) buf[i++] = 0x20;
    for (let k = 0; k < s.length; k++) {
      const c = s.charCodeAt(k);
      if (c === 0x20) throw new Error(`move notation ${JSON.stringify(s)} has a space: the log cannot store it`);
      if (c < 0x20 || c === 0x22 || c === 0x5c || c >= 0x7f) return at + buf.write(JSON.stringify(list.join(' ')), at, 'utf8');
      buf[i++] = c;
    }
  }
  buf[i] = 0x22;
  return i + 1;
}

/** A string, or `null`. */
function putStringOrNull(buf: Buffer, at: number, s: string | null): number {
  return s === null ? putAscii(buf, at, 'null') : putString(buf, at, s);
}

/** A start position's JSON text as bytes (see `startText`). */
export interface StartText {
  readonly bytes: Buffer;
  readonly length: number;
}

/** The one `StartText`, refilled for each line. */
const START: { bytes: Buffer; length: number } = { bytes: Buffer.allocUnsafe(1024), length: 0 };

/** `START.bytes` with room for `n` bytes after `at` (grown, its first `at` bytes kept). */
function startRoom(at: number, n: number): Buffer {
  if (at + n > START.bytes.length) {
    const bigger = Buffer.allocUnsafe(Math.max(2 * START.bytes.length, at + n));
    START.bytes.copy(bigger, 0, 0, at);
    START.bytes = bigger;
  }
  return START.bytes;
}

/** A position's keys as JSON writes them, with their colon. */
const KEY = new ByteMemo((k) => `${JSON.stringify(k)}:`);

/**
 * The JSON text of a position made of what positions usually are (a plain object of finite
 * numbers, booleans and lists of finite numbers: a pile, piles, counts), as `JSON.stringify` writes
 * it, into `START.bytes`; its length, or -1 for anything else.
 */
function positionJSON(p: unknown): number {
  if (p === null || typeof p !== 'object' || Object.getPrototypeOf(p) !== Object.prototype) return -1;
  let buf = startRoom(0, 2);
  let at = 0;
  buf[at++] = 0x7b; // {
  for (const k in p) {
    if (!Object.hasOwn(p, k)) return -1; // an enumerable property of Object.prototype: JSON leaves it out
    const v = (p as Record<string, unknown>)[k];
    buf = startRoom(at, 6 * k.length + 32);
    if (at > 1) buf[at++] = 0x2c;
    at = KEY.put(buf, at, k);
    if (typeof v === 'number') {
      if (v - v !== 0) return -1; // NaN and the infinities are `null` in JSON
      at = putNumber(buf, at, v);
    } else if (typeof v === 'boolean') at = putAscii(buf, at, v ? 'true' : 'false');
    else if (Array.isArray(v)) {
      buf[at++] = 0x5b; // [
      for (let i = 0; i < v.length; i++) {
        const x: unknown = v[i];
        if (typeof x !== 'number' || x - x !== 0) return -1;
        buf = startRoom(at, 26);
        if (i > 0) buf[at++] = 0x2c;
        at = putNumber(buf, at, x);
      }
      buf = startRoom(at, 2);
      buf[at++] = 0x5d; // ]
    } else return -1;
  }
  buf[at++] = 0x7d; // }
  return at;
}

/**
 * A start position's JSON text, the bytes of `JSON.stringify(start)`: written straight for the
 * usual positions (`positionJSON`), else from that string. The one object returned is refilled by
 * the next call: its bytes go into the line before then.
 */
export function startText(start: unknown): StartText {
  let length = positionJSON(start);
  if (length < 0) {
    const text = JSON.stringify(start);
    length = startRoom(0, 3 * text.length).write(text, 0, 'utf8');
  }
  START.length = length;
  return START;
}

/**
 * An upper bound of the bytes `encodeOpen` writes for a record whose start position's JSON text
 * has `startLength` bytes: every string character at most 6 bytes (a `\u00XX` escape), every number 24.
 */
export function encodedBound(r: GameRecord, startLength: number): number {
  let chars = r.key.length + r.variant.length + r.seats.first.length + r.seats.second.length + (r.winner?.length ?? 0) + (r.reason?.length ?? 0) + (r.worker?.length ?? 0);
  if (r.seatClocks) chars += 64; // two clocks of a few numbers each: at most 6 × 64 bytes
  const list = r.moves;
  for (let i = 0; i < list.length; i++) chars += list[i]!.length + 1;
  for (const x of r.restarts ?? []) chars += x.reason.length + 48;
  return 6 * chars + startLength + 24 * (list.length + (r.ovh?.length ?? 0) + (r.wus?.length ?? 0)) + 1024;
}

/**
 * The fields whose values recur from line to line (a variant, a bot's label, how games end), each
 * with the constant text around it, as bytes made once (see `ByteMemo`): the same bytes as
 * `putString` and `putAscii` would write.
 */
const json = (prefix: string, suffix: string) => (s: string) => `${prefix}${JSON.stringify(s)}${suffix}`;
const VARIANT = new ByteMemo(json(',"variant":', ',"deal":'));
const FIRST = new ByteMemo(json(',"seats":{"first":', ',"second":'));
const SECOND = new ByteMemo(json('', '},"botSeeds":{"first":'));
const OUTCOME = new ByteMemo(json(',"outcome":{"winner":', ''));
const WINNER = new ByteMemo(json('},"winner":', ',"termination":'));
const TERMINATION = new ByteMemo(json('', ',"faulty":'));

/**
 * Writes a game's line without its closing brace and newline into `buf` at `at` (room for
 * `encodedBound` bytes is the caller's) and returns the end. The bytes are those of
 * `JSON.stringify` of the record's fields in a fixed order (the compact record: moves one
 * space-separated string, times integer microseconds), written straight into the batch buffer:
 * no string of the line is made. The log seals it there (chain.ts `sealInto`) by adding its checksum
 * field and the brace.
 */
export function encodeOpen(buf: Buffer, at: number, r: GameRecord, start: StartText): number {
  at = putAscii(buf, at, '{"index":');
  at = putNumber(buf, at, r.index);
  at = putAscii(buf, at, ',"key":');
  at = putString(buf, at, r.key);
  at = VARIANT.put(buf, at, r.variant);
  at = putNumber(buf, at, r.deal);
  at = putAscii(buf, at, ',"dealSeed":');
  at = putNumber(buf, at, r.dealSeed);
  at = putAscii(buf, at, ',"seating":');
  at = putNumber(buf, at, r.seating);
  at = FIRST.put(buf, at, r.seats.first);
  at = SECOND.put(buf, at, r.seats.second);
  at = putNumber(buf, at, r.botSeeds.first);
  at = putAscii(buf, at, ',"second":');
  at = putNumber(buf, at, r.botSeeds.second);
  at = putAscii(buf, at, '},"start":');
  const { bytes, length } = start;
  if (length < 32) for (let i = 0; i < length; i++) buf[at++] = bytes[i]!;
  else at += bytes.copy(buf, at, 0, length);
  at = putAscii(buf, at, ',"moves":');
  at = putMoves(buf, at, r.moves);
  at = putAscii(buf, at, ',"us":');
  at = putNumbers(buf, at, r.us);
  // Time odds are rare: their small object is written as JSON text.
  if (r.seatClocks) {
    at = putAscii(buf, at, ',"seatClocks":');
    at = putText(buf, at, JSON.stringify(r.seatClocks));
  }
  if (r.ovh) {
    at = putAscii(buf, at, ',"ovh":');
    at = putNumbers(buf, at, r.ovh);
  }
  if (r.ovh && r.timeControl) {
    at = putAscii(buf, at, ',"timeControl":{"baseMs":');
    at = putNumber(buf, at, r.timeControl.baseMs);
    at = putAscii(buf, at, ',"incMs":');
    at = putNumber(buf, at, r.timeControl.incMs);
    buf[at++] = 0x7d;
  }
  if (r.wus) {
    at = putAscii(buf, at, ',"wus":');
    at = putNumbers(buf, at, r.wus);
  }
  const o = r.outcome;
  at = o.winner === null ? putAscii(buf, at, ',"outcome":{"winner":null') : OUTCOME.put(buf, at, o.winner);
  if (o.scores) {
    at = putAscii(buf, at, ',"scores":[');
    at = putNumber(buf, at, o.scores[0]);
    buf[at++] = 0x2c;
    at = putNumber(buf, at, o.scores[1]);
    buf[at++] = 0x5d;
  }
  at = r.winner === null ? putAscii(buf, at, '},"winner":null,"termination":') : WINNER.put(buf, at, r.winner);
  at = TERMINATION.put(buf, at, r.termination);
  at = putStringOrNull(buf, at, r.faulty);
  at = putAscii(buf, at, ',"reason":');
  at = putStringOrNull(buf, at, r.reason);
  if (r.adjudicated) {
    at = putAscii(buf, at, ',"adjudicated":{"value":');
    at = putNumber(buf, at, r.adjudicated.value);
    at = putAscii(buf, at, ',"ply":');
    at = putNumber(buf, at, r.adjudicated.ply);
    buf[at++] = 0x7d;
  }
  if (r.retries) {
    at = putAscii(buf, at, ',"retries":');
    at = putNumber(buf, at, r.retries);
  }
  if (r.worker !== undefined) {
    at = putAscii(buf, at, ',"worker":');
    at = putString(buf, at, r.worker);
  }
  if (r.clockStops) {
    at = putAscii(buf, at, ',"clockStops":{"first":');
    at = putNumber(buf, at, r.clockStops.first);
    at = putAscii(buf, at, ',"second":');
    at = putNumber(buf, at, r.clockStops.second);
    buf[at++] = 0x7d;
  }
  // Rare (a bot's process replaced mid-game): made by JSON.stringify, its fields in record order.
  if (r.restarts) {
    at = putAscii(buf, at, ',"restarts":');
    at = putText(buf, at, JSON.stringify(r.restarts.map(({ seat, ply, reason }) => ({ seat, ply, reason }))));
  }
  return at;
}

/**
 * One game as its compact log line: one self-describing JSON object (the bytes `JSON.stringify`
 * would write for its fields in this order), with the moves as one space-separated string (no
 * notation has a space) and the move times as integer microseconds.
 */
export function recordLine(r: GameRecord): string {
  const start = startText(r.start);
  const buf = Buffer.allocUnsafe(encodedBound(r, start.length) + 2);
  const end = encodeOpen(buf, 0, r, start);
  buf[end] = 0x7d;
  buf[end + 1] = 0x0a;
  return buf.toString('utf8', 0, end + 2);
}

