/**
 * Loads Ink, React and the interactive apps on demand: importing Ink costs about half a second, which
 * commands that print plain text (`games`, `analyze`, `bots`) should not pay.
 */
export async function loadInk() {
  const [{ render }, { createElement }, { PlayApp }, { ReplayApp }, { HomeApp }] = await Promise.all([
    import('ink'),
    import('react'),
    import('../tui/PlayApp.tsx'),
    import('../tui/ReplayApp.tsx'),
    import('../tui/HomeApp.tsx'),
  ]);
  return { render, createElement, PlayApp, ReplayApp, HomeApp };
}
