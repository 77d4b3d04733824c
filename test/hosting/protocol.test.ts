import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { encodeMessage, gameOverMessage, opaqueGameId, parseHelloReply, parseMoveLine, PROTOCOL_VERSION, type ToBot } from '../../src/hosting/index.ts';
import { createRng } from '../../src/core/rng.ts';
import { FAMILIES, makeGame, parseVariant } from '../../src/games/index.ts';

describe('protocol messages', () => {
  it('every arena message is one line of JSON that parses back to itself', () => {
    const game = makeGame('coins', { scoring: 'points' });
    const s = game.deal(createRng(1));
    const messages: ToBot[] = [
      { type: 'hello', protocol: PROTOCOL_VERSION, arena: 'take-arena', bot: 'x' },
      { type: 'new-game', game: 'g1', family: game.family, variant: game.id, params: game.params, seat: 'second', seed: 42 },
      { type: 'move-request', id: 3, position: game.toJSON(s), moves: game.moves(s).map((m) => game.formatMove(m)), timeMs: 250 },
      gameOverMessage('g1', 'second', { winner: 'first', termination: 'normal', reason: null, scores: [12, 9] }),
      { type: 'quit' },
    ];
    for (const m of messages) {
      const line = encodeMessage(m);
      expect(line).not.toContain('\n');
      expect(JSON.parse(line)).toEqual(m);
    }
  });

  it('writes big piles in parameters as decimal strings', () => {
    const game = parseVariant('subtraction{moves=1,2;n=9223372036854775807}');
    const line = encodeMessage({ type: 'new-game', game: 'g', family: game.family, variant: game.id, params: game.params, seat: 'first', seed: 1 });
    expect(JSON.parse(line).params.n).toEqual({ min: '9223372036854775807', max: '9223372036854775807' });
    expect(JSON.parse(encodeMessage({ type: 'move-request', id: 1, position: game.toJSON(game.deal(createRng(1))), moves: ['1', '2'], timeMs: 5 })).position).toEqual({
      pile: '9223372036854775807',
    });
  });

  it('every family position is plain JSON (what external bots receive)', () => {
    for (const family of FAMILIES) {
      const game = makeGame(family.id, {});
      const s = game.deal(createRng(7));
      expect(JSON.parse(JSON.stringify(game.toJSON(s))), family.id).toEqual(game.toJSON(s));
    }
  });

  it('game-over tells each seat its own result', () => {
    const end = { winner: 'first' as const, termination: 'timeout' as const, reason: 'no move within 5 ms' };
    expect(gameOverMessage('k', 'first', end)).toMatchObject({ result: 'win', winner: 'first', termination: 'timeout' });
    expect(gameOverMessage('k', 'second', end)).toMatchObject({ result: 'loss' });
    expect(gameOverMessage('k', 'second', { winner: null, termination: 'normal', reason: null })).toMatchObject({ result: 'draw' });
    expect(gameOverMessage('k', 'second', undefined)).toMatchObject({ result: null, termination: 'interrupted' });
  });

  it("game-over tells a bot the reason of its own forfeit, its opponent's only when opponents are revealed (it may name them)", () => {
    const end = { winner: 'first' as const, termination: 'crash' as const, reason: 'exited with code 3 (stderr: results/bots/other.stderr.log)' };
    expect(gameOverMessage('k', 'second', end)).toMatchObject({ result: 'loss', reason: end.reason });
    expect(gameOverMessage('k', 'first', end)).toMatchObject({ result: 'win', termination: 'crash', reason: null });
    expect(gameOverMessage('k', 'first', end, true)).toMatchObject({ result: 'win', reason: end.reason });
    const judged = { winner: 'first' as const, termination: 'adjudicated' as const, reason: 'solver: won for first to move (value 1) at ply 4' };
    expect(gameOverMessage('k', 'first', judged)).toMatchObject({ reason: judged.reason });
  });

  it('opaque game ids are unique per key and keyed with a secret, not a hash of the key a bot could recompute', () => {
    const keys = ['v|0|a|b|0', 'v|0|a|b|1', 'v|0|b|a|0', 'v|1|a|b|0'];
    const ids = keys.map(opaqueGameId);
    expect(new Set(ids).size).toBe(keys.length);
    expect(opaqueGameId(keys[0]!)).toBe(ids[0]);
    for (const [i, key] of keys.entries()) {
      expect(ids[i]).toMatch(/^[0-9a-f]{16}$/);
      expect(createHash('sha256').update(key).digest('hex')).not.toContain(ids[i]);
    }
  });
});

describe('parsing what a bot writes', () => {
  it('accepts {"move": text} with or without an id', () => {
    expect(parseMoveLine('{"move":"13-15"}')).toEqual({ ok: true, move: '13-15', id: null, clock: false });
    expect(parseMoveLine(' {"type": "move", "move": "L", "id": 7} ')).toEqual({ ok: true, move: 'L', id: 7, clock: false });
    // A bot whose deadline cut its search short says so; the game record counts it (clockStops).
    expect(parseMoveLine('{"move":"5","id":2,"clock":true}')).toEqual({ ok: true, move: '5', id: 2, clock: true });
  });

  it('rejects garbage with a reason that shows what came', () => {
    const cases: [string, RegExp][] = [
      ['hello there', /answered "hello there", not a JSON object/],
      ['[1,2]', /answered \[1, 2\], not a JSON object/],
      ['{"move":5}', /expected `move` to be a string in GAMES.md notation, got 5/],
      ['{"mvoe":"5"}', /expected `move` to be a string/],
      ['{"move":"5","id":"x"}', /expected `id` to be an integer, got "x"/],
    ];
    for (const [line, reason] of cases) {
      const r = parseMoveLine(line);
      expect(r.ok, line).toBe(false);
      if (!r.ok) expect(r.reason).toMatch(reason);
    }
  });

  it('accepts ready or hello answers of this protocol version only', () => {
    expect(parseHelloReply('{"type":"ready"}')).toEqual({ ok: true, name: null });
    expect(parseHelloReply('{"type":"hello","protocol":1,"name":"b"}')).toEqual({ ok: true, name: 'b' });
    expect(parseHelloReply('{"type":"hello","protocol":2}')).toEqual({ ok: false, reason: 'speaks protocol 2, expected 1' });
    expect(parseHelloReply('ok')).toMatchObject({ ok: false, reason: expect.stringMatching(/answered hello with "ok"/) });
    expect(parseHelloReply('{"move":"1"}')).toMatchObject({ ok: false });
  });
});
