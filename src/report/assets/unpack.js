// Unpacks the report's replays from what src/report/pack.ts packs them into (`packReplays`): the
// list of games from the index, and a chunk's games' plies and boards back as one object per move
// and per position, exactly as packed. Plain browser JavaScript, inlined into the page before the
// replay script.

// A `Columns` back as its list of objects.
function unpackRows({ n, cols, gaps }) {
  const keys = Object.keys(cols);
  const skip = Object.fromEntries(Object.entries(gaps).map(([k, at]) => [k, new Set(at)]));
  return Array.from({ length: n }, (_, i) => {
    const row = {};
    for (const k of keys) if (!skip[k] || !skip[k].has(i)) row[k] = cols[k].length === 1 ? cols[k][0] : cols[k][i];
    return row;
  });
}

// The index: each game's entry (its fields but the moves, with `moves`, their count), and the
// index of each chunk's first game.
function unpackIndex(index) {
  return { games: unpackRows(index.games), chunks: index.chunks };
}

// A chunk: each of its games' start position and plies (each ply with the board after it).
function unpackChunk(chunk) {
  return chunk.map(({ plies, boards }) => {
    const views = unpackRows(boards);
    return { start: views[0], plies: unpackRows(plies).map((ply, i) => ({ ...ply, board: views[i + 1] })) };
  });
}
