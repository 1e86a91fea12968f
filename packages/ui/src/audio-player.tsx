// `@tafsiri/ui/audio-player` (package.json exports "./*" → src/*.tsx): the waveform player's public
// face, AudioPlayer and its props; its parts live in audio-player/ (the player of one source, the
// wavesurfer, the peaks it draws, the loop, the shortcuts and their help, the handle a page holds,
// the waveform area, the controls' settings, the icons).
import type { Ref } from "react";
import type { PlayerWaveform } from "./audio-player/player-waveform";
import { EDITOR_SHORTCUTS_NOTE } from "./audio-player/shortcuts-help";
import type { AudioPlayerHandle } from "./audio-player/use-player-handle";
import type { PlayerShortcut } from "./audio-player/use-player-shortcuts";
import { WavePlayer } from "./audio-player/wave-player";

export { playerWaveform } from "./audio-player/player-waveform";
// PlayerWaveform (the type of `waveform`, AudioPlayerProps["waveform"]) is not re-exported: no
// workspace imports it, and knip fails an entry's export that nothing uses.
export type { AudioPlayerHandle, PlayerShortcut };

export interface AudioPlayerProps {
  /**
   * A URL the browser can fetch without extra headers (e.g. a signed file URL) that answers HTTP
   * Range requests: the player streams it and never downloads or decodes it whole.
   */
  url: string;
  /**
   * The identity of the audio. Defaults to `url`; pass a stable value (e.g. the URL without its
   * signature) so that a re-signed URL of the same file does not reload the player.
   */
  sourceKey?: string;
  /** Accessible name of the player region, e.g. "Original audio". */
  label?: string;
  /**
   * This player answers PLAYER_SHORTCUTS anywhere on the page, also while the
   * transcript editor has focus. At most one player of a page should have them.
   */
  shortcuts?: boolean;
  /** The peaks to draw and the duration (see PlayerWaveform and playerWaveform). */
  waveform: PlayerWaveform;
  /**
   * Keys the page around the player answers (e.g. the transcript editor's), listed in the
   * 'Shortcuts' popover after PLAYER_SHORTCUTS. Only with `shortcuts`.
   */
  moreShortcuts?: readonly PlayerShortcut[];
  /**
   * The line above the list in the 'Shortcuts' popover: where the keys work. Defaults to the
   * transcript editor's (EDITOR_SHORTCUTS_NOTE).
   */
  shortcutsNote?: string;
  /** Receives the player's AudioPlayerHandle (position, play from a time). */
  ref?: Ref<AudioPlayerHandle>;
}

/**
 * A waveform audio player (wavesurfer.js 8) with play/pause, volume and playback speed
 * (SPEC §2.11, §9: height 150, bar width 3, radius 3; volume 0.5 in 0.01..1 step 0.025).
 * Decision 023 (ARCHITECTURE "Long recordings and the corpus"): it plays `url` through an `<audio
 * preload="metadata">` element, which streams it over HTTP Range (Play works once the metadata is
 * in; a seek fetches only that part), and draws the stored peaks of `waveform` (fetched, a `.dat`)
 * or the ones given, never decoding the audio. Without peaks it draws a flat line and says
 * WAVEFORM_PENDING_TEXT or WAVEFORM_UNAVAILABLE_TEXT; the audio plays all the same.
 * Shows 'Loading' until the audio can play and 'Failed to load audio file: {message}' on error.
 * Its clock reads 'position / length' with formatDuration, as every other screen shows a length
 * ('1:00:00' for an hour). With `shortcuts`, it also answers PLAYER_SHORTCUTS on the whole page and
 * shows them in a 'Shortcuts' popover. Dragging across the waveform selects a part that 'Loop'
 * repeats (without a selection, 'Loop' repeats DEFAULT_LOOP_SECONDS from the current position;
 * pressed again, it stops and clears the selection), and 'Zoom' widens the waveform
 * (ZOOM_RANGE). The root carries data-state="playing"|"paused",
 * data-status="loading"|"ready"|"error", data-waveform="loading"|"peaks"|"pending"|"unavailable",
 * the exact data-volume and data-rate (a range input shows 0.5 as 0.51, its step grid starting at
 * 0.01), data-time (the position in seconds, to 0.1), data-loop="on"|"off" with data-loop-start and
 * data-loop-end (seconds, to 0.01), and data-zoom.
 */
export function AudioPlayer({
  url,
  sourceKey,
  label = "Audio player",
  shortcuts = false,
  waveform,
  moreShortcuts = [],
  shortcutsNote = EDITOR_SHORTCUTS_NOTE,
  ref,
}: AudioPlayerProps) {
  return (
    <WavePlayer
      key={sourceKey ?? url}
      url={url}
      label={label}
      shortcuts={shortcuts}
      waveform={waveform}
      moreShortcuts={moreShortcuts}
      shortcutsNote={shortcutsNote}
      handleRef={ref}
    />
  );
}
