// Unpacks the report's replayable games from the columns src/report/pack.ts packs them into:
// each game's plies and boards back as one object per move and per position, exactly as packed.
// Plain browser JavaScript, inlined into the page before the replay script.
function unpackGames(packed) {
  const rows = ({ n, cols, gaps }) => {
    const keys = Object.keys(cols);
    const skip = Object.fromEntries(Object.entries(gaps).map(([k, at]) => [k, new Set(at)]));
    return Array.from({ length: n }, (_, i) => {
      const row = {};
      for (const k of keys) if (!skip[k] || !skip[k].has(i)) row[k] = cols[k].length === 1 ? cols[k][0] : cols[k][i];
      return row;
    });
  };
  return packed.map(({ plies, boards, ...game }) => {
    const views = rows(boards);
    return { ...game, start: views[0], plies: rows(plies).map((ply, i) => ({ ...ply, board: views[i + 1] })) };
  });
}
