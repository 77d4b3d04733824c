// The report's game replay: pick a game, step through its moves with the arrow keys. Boards are
// drawn from the same picture data as the terminal's boards, with the terminal's glyphs. Plain
// browser JavaScript, inlined into the page (no network, no build step at view time).
(async () => {
  'use strict';
  const el = (id) => document.getElementById(id);
  const status = el('replay-status');
  // The games come packed (src/report/pack.ts): the list of games, then their moves in chunks of
  // consecutive games, each base64 of gzipped JSON. The list is unpacked after first paint; a
  // chunk when one of its games is first opened.
  const index = el('report-games');
  if (typeof DecompressionStream !== 'function') {
    status.textContent = 'This browser cannot unpack the replays (it lacks DecompressionStream: Chrome 80, Firefox 113, Safari 16.4 or newer have it).';
    return;
  }
  const inflate = async (base64) => {
    const binary = atob(base64.trim());
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return JSON.parse(await new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'))).text());
  };
  const damaged = (err) => `The replays could not be unpacked (is the file damaged?): ${err.message}`;
  status.textContent = `Unpacking the list of ${index.dataset.games} games…`;
  // games[i]: the entry of game i (its fields and `moves`, their count), given its `start` and
  // `plies` once its chunk is unpacked.
  let games;
  let firsts;
  try {
    ({ games, chunks: firsts } = unpackIndex(await inflate(index.textContent)));
  } catch (err) {
    status.textContent = damaged(err);
    return;
  }
  const unpacking = new Map(); // chunk number → the promise of its games unpacked into `games`
  const chunkOf = (i) => {
    let lo = 0;
    let hi = firsts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (firsts[mid] <= i) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  const unpack = (i) => {
    const k = chunkOf(i);
    if (!unpacking.has(k)) {
      const script = el(`report-chunk-${k}`);
      unpacking.set(
        k,
        inflate(script.textContent).then((chunk) => {
          unpackChunk(chunk).forEach((g, j) => Object.assign(games[firsts[k] + j], g));
          script.dataset.unpacked = '';
        }),
      );
    }
    return unpacking.get(k);
  };
  const pick = el('game-pick');
  const filter = el('game-filter');
  const board = el('board');
  const moves = el('moves');
  const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
  const span = (cls, text) => `<span class="${cls}">${esc(text)}</span>`;
  const fmt = (n) => Number(n).toLocaleString('en-US');

  // Stones per glyph: the smallest 1-2-5 number that fits the pile in the room, as the terminal does.
  const niceCeil = (x) => {
    if (x <= 1) return 1;
    for (let d = 1; ; d *= 10) for (const k of [1, 2, 5]) if (k * d >= x) return k * d;
  };
  // Stones per line: 40 as in a terminal, fewer (in whole groups of five) when the board is narrow.
  // COLUMNS: characters of text a line of the board holds.
  let PER_LINE = 40;
  let COLUMNS = 80;
  const fitStones = () => {
    const width = (text) => {
      const probe = document.createElement('span');
      probe.textContent = text;
      board.appendChild(probe);
      const w = probe.getBoundingClientRect().width / text.length;
      probe.remove();
      return w;
    };
    const perStone = width('●●●●● ●●●●●');
    const perChar = width('-0123456789');
    const room = board.clientWidth - 24;
    if (perStone > 0 && room > 0) PER_LINE = Math.max(10, Math.min(40, 5 * Math.floor((room / perStone + 1) / 6)));
    if (perChar > 0 && room > 0) COLUMNS = Math.floor(room / perChar);
  };
  const grouped = (glyph, count, offset) => {
    let out = '';
    for (let i = 0; i < count; i++) out += ((offset + i) > 0 && (offset + i) % 5 === 0 ? ' ' : '') + glyph;
    return out;
  };
  const stoneLines = (stones, taken, maxLines, scaleAtLeast) => {
    const room = PER_LINE * maxLines;
    let scale = Math.max(scaleAtLeast || 1, niceCeil((stones + taken) / room));
    const glyphs = (k) => [Math.ceil(stones / k), taken > 0 ? Math.max(1, Math.round(taken / k)) : 0];
    while (glyphs(scale)[0] + glyphs(scale)[1] > room) scale = niceCeil(scale + 1);
    let [s, t] = glyphs(scale);
    const lines = [];
    while (s > 0 || t > 0) {
      const ls = Math.min(s, PER_LINE);
      const lt = Math.min(t, PER_LINE - ls);
      lines.push(span('stone', grouped('●', ls, 0)) + span('taken', grouped('○', lt, ls)));
      s -= ls;
      t -= lt;
    }
    return { scale, lines };
  };
  const ended = (text) => span('bold', text);
  const scaleNote = (scale) => (scale > 1 ? ` · each ● ≈ ${fmt(scale)} stones` : '');

  const drawers = {
    pile(v, names, ending) {
      const { scale, lines } = stoneLines(v.pile, v.taken, 3, 1);
      const out = lines.length ? lines : [span('muted', '(empty)')];
      out.push(`<b>${fmt(v.pile)}</b> stone${v.pile === 1 ? '' : 's'}${v.taken > 0 ? span('taken', ` (${fmt(v.taken)} just taken)`) : ''}${span('muted', scaleNote(scale))}`);
      if (v.family === 'partizan') {
        const side = v.side === 'Right' ? span('them bold', 'Right ◀') : span('you bold', '▶ Left');
        out.push(ending ? ended(ending) : `${side} (${esc(names[v.toMove])}) to move · takes ${esc(v.takes.join(', '))}`);
      } else if (v.family === 'no-repeat') {
        const takes = v.takes.map((t) => (t === v.forbidden ? span('bad strike', t) : span('muted', t))).join(', ');
        if (ending) out.push(ended(ending));
        else out.push(`${span('muted', `${names[v.toMove]} to move · takes `)}${takes}`);
        if (!ending) out.push(v.forbidden == null ? span('muted', 'nothing forbidden (first move is free)') : span('warn', `may not take ${v.forbidden} (the opponent just took it)`));
      } else out.push(ending ? ended(ending) : span('muted', `${names[v.toMove]} to move · takes ${v.takes.join(', ')}`));
      return out.join('\n');
    },
    piles(v, names, ending) {
      const labelW = String(v.piles.length).length;
      const countW = Math.max(1, ...v.piles.map((p) => fmt(p).length));
      const takenOf = (i) => (v.last && v.last.pile === i ? v.last.amount : 0);
      const scale = Math.max(1, ...v.piles.map((p, i) => stoneLines(p, takenOf(i), 1, 1).scale));
      const out = v.piles.map((p, i) => {
        const row = stoneLines(p, takenOf(i), 1, scale).lines[0] || '';
        return `${span(v.last && v.last.pile === i ? 'taken' : 'muted', String(i + 1).padStart(labelW))} <b>${fmt(p).padStart(countW)}</b> ${row}`;
      });
      out.push((ending ? `${ended(ending)}${span('muted', ' · ')}` : span('muted', `${names[v.toMove]} to move · `)) + span('muted', `rule ${v.rule}${v.last ? ` · last took ${fmt(v.last.amount)} from pile ${v.last.pile + 1}` : ''}${scaleNote(scale)}`));
      return out.join('\n');
    },
    coins(v, names, ending) {
      const rows = [];
      let next = 1;
      for (let r = 0; r < v.size; r++) {
        const len = v.shape === 'triangle' ? r + 1 : v.size;
        rows.push(Array.from({ length: len }, () => next++));
      }
      const total = next - 1;
      const digits = String(total).length;
      const cellW = digits + 2;
      const last = new Set(v.lastTaken);
      const out = rows.map((row) => {
        const indent = v.shape === 'triangle' ? ' '.repeat(Math.floor(((v.size - row.length) * cellW) / 2)) : '';
        return indent + row.map((c) => {
          const cell = (inner) => ` ${String(inner).padStart(digits)} `;
          if (v.present[c - 1]) return span('coin', cell(c));
          return last.has(c) ? span('taken bold', cell('×')) : span('muted', cell('·'));
        }).join('');
      });
      const left = v.present.filter(Boolean).length;
      const sorted = [...v.lastTaken].sort((a, b) => a - b);
      const took = sorted.length === 0 ? '' : ` · last took ${sorted.length === 1 ? sorted[0] : `${sorted[0]}-${sorted[sorted.length - 1]}`}`;
      const pts = v.scores ? ` · points ${names.first} ${v.scores[0]}, ${names.second} ${v.scores[1]}` : '';
      out.push(ending ? `${span('muted', `${left} of ${total} coins left${took}${pts} · `)}${ended(ending)}` : span('muted', `${left} of ${total} coins left · ${names[v.toMove]} to move${took}${pts}`));
      return out.join('\n');
    },
    'end-game'(v, names, ending) {
      const live = v.row.slice(v.lo, v.hi);
      const lastText = v.lastIndex != null ? `×${v.row[v.lastIndex]}` : '';
      // Numbers in columns as in the terminal; one space apart where the columns would not fit the line.
      const aligned = Math.max(2, ...live.map((x) => String(x).length)) + 1;
      const cellW = 8 + lastText.length + live.length * aligned <= COLUMNS ? aligned : 0;
      const cell = (x) => ` ${String(x)}`.padStart(cellW);
      const lastLeft = v.lastIndex != null && v.lastIndex === v.lo - 1;
      const lastRight = v.lastIndex != null && v.lastIndex === v.hi;
      let line = lastLeft ? span('taken', `${lastText} `) : '';
      line += span('accent bold', 'L ▶');
      if (live.length === 0) line += span('muted', ' (empty) ');
      line += live.map((x, i) => (i === 0 || i === live.length - 1 ? `<b>${esc(cell(x))}</b>` : esc(cell(x)))).join('');
      line += span('accent bold', ' ◀ R');
      if (lastRight) line += span('taken', ` ${lastText}`);
      const score = `${span('you', `${names.first} ${v.scores[0]}`)}${span('muted', ' · ')}${span('them', `${names.second} ${v.scores[1]}`)}${span('muted', ` · ${live.length} left · `)}${ending ? ended(ending) : span('muted', `${names[v.toMove]} to move`)}`;
      return `${line}\n${score}`;
    },
    text(v, names, ending) {
      return esc(v.text) + (ending ? `\n${ended(ending)}` : '');
    },
  };
  // The board of the final position says how the game ended (`ending`) where the others say who is to move.
  const draw = (v, names, ending) => (v && drawers[v.kind] ? drawers[v.kind](v, names, ending) : span('muted', '(no picture)'));
  const FAULTS = { timeout: 'lost on time', crash: 'crashed', 'illegal-move': 'played an illegal move' };
  // How a game played to its end by the rules was won, read from its final position `v`: the
  // scores, the last coin or stone taken, or the player left without a move (under misère, the
  // player left without a move is the winner: the one who made the last move lost).
  const howEnded = (g, v) => {
    if (!v) return '';
    if (v.scores) {
      const [a, b] = v.scores;
      if (!g.winner) return `${a} points each`;
      return g.winner === 'first' ? `${a} points to ${b}` : `${b} points to ${a}`;
    }
    if (!g.winner) return '';
    const winner = g.seats[g.winner];
    const loser = g.seats[g.winner === 'first' ? 'second' : 'first'];
    if (v.kind === 'coins') return `${loser} took the last coin`;
    if (v.kind !== 'pile' && v.kind !== 'piles') return '';
    const left = v.kind === 'pile' ? v.pile : v.piles.reduce((a, b) => a + b, 0);
    const misere = v.toMove === g.winner;
    if (left === 0) return misere ? `${loser} took the last stone, which loses under misère` : `${winner} took the last stone`;
    return misere ? `${winner} has no move, which wins under misère` : `${loser} has no move (${fmt(left)} left)`;
  };
  const endingOf = (g, v) => {
    const loser = g.winner ? g.seats[g.winner === 'first' ? 'second' : 'first'] : null;
    const how = FAULTS[g.termination] ? `${loser} ${FAULTS[g.termination]}` : g.termination === 'normal' ? howEnded(g, v) : '';
    return `game over · ${g.winner ? `${g.seats[g.winner]} won` : 'a draw'}${how ? `: ${how}` : ''}${g.termination === 'adjudicated' ? ' (adjudicated by the solver)' : ''}`;
  };

  let game = null;
  let ply = 0; // positions shown: 0 is the start, k is after move k

  const label = (g) => `#${g.number} ${g.variant} · ${g.seats.first} vs ${g.seats.second} · ${g.result}${g.termination !== 'normal' ? ` (${g.termination})` : ''}`;
  const fill = () => {
    const q = filter.value.trim().toLowerCase();
    const shown = games.map((g, i) => [g, i]).filter(([g]) => !q || label(g).toLowerCase().includes(q));
    pick.innerHTML = shown.map(([g, i]) => `<option value="${i}">${esc(label(g))}</option>`).join('');
    if (shown.length > 0 && !shown.some(([, i]) => game === games[i])) return open(shown[0][1]);
    if (game) pick.value = String(games.indexOf(game));
    return undefined;
  };

  const render = () => {
    if (!game || !game.plies) return;
    const names = game.seats;
    const view = ply === 0 ? game.start : game.plies[ply - 1].board;
    // The final position of a game that replayed to its end says who won, and how.
    board.innerHTML = draw(view, names, ply === game.plies.length && !game.problem ? endingOf(game, view) : null);
    moves.querySelectorAll('li').forEach((li, i) => li.classList.toggle('current', i === ply - 1));
    const cur = moves.querySelector('li.current');
    if (cur) cur.scrollIntoView({ block: 'nearest' });
    const p = ply === 0 ? null : game.plies[ply - 1];
    const verdict = !p ? '' : p.ok === true ? ' · ✓ kept the best result' : p.ok === false ? ' · ✗ a mistake: the solver says it gave away the best result' : ' · not judged';
    let text = ply === 0 ? `start · ${game.plies.length} moves` : `move ${ply} of ${game.plies.length}: ${names[p.seat]} played ${p.move} in ${p.ms.toFixed(2)} ms${verdict}`;
    if (ply === game.plies.length) text += ` · ${game.result}${game.termination !== 'normal' ? ` · ${game.termination}: ${game.reason || ''}` : ''}`;
    if (game.problem) text += ` · ${game.problem}`;
    status.textContent = text;
    status.dataset.ply = String(ply);
    board.dataset.game = String(game.number);
  };

  // Shows game i at its start; its moves once its chunk is unpacked (steps taken meanwhile count).
  async function open(i) {
    game = games[i];
    ply = 0;
    pick.value = String(i);
    if (!game.plies) {
      delete board.dataset.game;
      board.textContent = '';
      moves.innerHTML = '';
      status.textContent = `Unpacking game #${game.number}…`;
      delete status.dataset.ply;
      try {
        await unpack(i);
      } catch (err) {
        status.textContent = damaged(err);
        return;
      }
      if (game !== games[i]) return; // another game was opened meanwhile
    }
    moves.innerHTML = game.plies
      .map((p, k) => {
        const mark = p.ok === true ? span('good', '✓') : p.ok === false ? span('bad', '✗') : span('muted', '·');
        return `<li data-ply="${k + 1}"><span class="num">${k + 1}.</span> ${mark} <span class="${p.seat === 'first' ? 'you' : 'them'}">${esc(game.seats[p.seat])}</span> ${esc(p.move)}</li>`;
      })
      .join('');
    render();
  }
  const step = (d) => {
    if (!game) return;
    ply = Math.max(0, Math.min(game.moves, ply + d));
    render();
  };

  pick.addEventListener('change', () => open(Number(pick.value)));
  // Links to a game elsewhere in the page (the forfeits and crashes): filter to it and open it.
  document.addEventListener('click', (e) => {
    const link = e.target.closest && e.target.closest('a[data-game]');
    const i = link ? games.findIndex((g) => g.number === Number(link.dataset.game)) : -1;
    if (i < 0) return;
    filter.value = `#${games[i].number}`;
    fill();
    open(i);
  });
  filter.addEventListener('input', fill);
  moves.addEventListener('click', (e) => {
    const li = e.target.closest('li');
    if (li) {
      ply = Number(li.dataset.ply);
      render();
    }
  });
  el('prev').addEventListener('click', () => step(-1));
  el('next').addEventListener('click', () => step(1));
  el('first').addEventListener('click', () => step(-Infinity));
  el('last').addEventListener('click', () => step(Infinity));
  document.addEventListener('keydown', (e) => {
    if (e.target === filter || e.altKey || e.ctrlKey || e.metaKey) return;
    const d = { ArrowRight: 1, ArrowLeft: -1, Home: -Infinity, End: Infinity }[e.key];
    if (d !== undefined) {
      e.preventDefault();
      step(d);
    } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      if (e.target === pick) return; // the list's own keys
      const opts = [...pick.options];
      const at = opts.findIndex((o) => o.value === pick.value) + (e.key === 'ArrowDown' ? 1 : -1);
      if (at >= 0 && at < opts.length) {
        e.preventDefault();
        open(Number(opts[at].value));
      }
    }
  });
  fitStones();
  window.addEventListener('resize', () => {
    fitStones();
    render();
  });
  // The first game first, its chunk unpacked: the page can replay (bench/report.bench.ts reads the
  // mark). Then, in a task of its own, the picker's list of every game (thousands of options take
  // longer to make than the game takes to show).
  if (games.length > 0 && !filter.value) {
    pick.innerHTML = `<option value="0">${esc(label(games[0]))}</option>`;
    await open(0);
  }
  performance.mark('replay-ready');
  setTimeout(fill);
})();
