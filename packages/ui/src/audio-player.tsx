// `@tafsiri/ui/audio-player` (package.json exports "./*" → src/*.tsx): the waveform player, whose
// parts live in audio-player/ (the component, the wavesurfer, the peaks it draws, the loop, the
// shortcuts and their help, the handle a page holds, the icons).
export { AudioPlayer, type AudioPlayerProps } from "./audio-player/audio-player";
export { playerWaveform, type PlayerWaveform } from "./audio-player/player-waveform";
export type { AudioPlayerHandle } from "./audio-player/use-player-handle";
export type { PlayerShortcut } from "./audio-player/use-player-shortcuts";
