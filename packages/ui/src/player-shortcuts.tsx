/** The player's keys (SPEC §2.11), importable without the player itself: the web app's key registry lists them (decision 035). */
export { PLAYER_SHORTCUTS, type PlayerShortcut } from "./audio-player/use-player-shortcuts";
