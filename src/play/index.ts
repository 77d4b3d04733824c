/**
 * A person's games against bots, outside any screen: the play table (the bots' hosts, at a
 * tournament's isolation), its sessions (one game each: state, moves, undo, forfeits) and the
 * opponents a person can choose. The TUI draws a session and sends the human's moves; it reaches
 * the bots only through here. Beside src/arena: it imports core, games, strategies and hosting.
 */
export { opponentName, opponentOf, opponentsOf, opponentWords, plays, type Opponent } from './opponents.ts';
export { dealGame, PlaySession, type FirstMover, type GameSetup, type PlayChoice, type PlayState, type Ply } from './session.ts';
export { PlayTable, type PlaySettings } from './table.ts';
export type { Isolation } from '../hosting/index.ts';
