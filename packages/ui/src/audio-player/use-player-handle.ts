import { useCallback, useEffect, useEffectEvent, useImperativeHandle, useRef, type Ref } from "react";
import type { WaveSurferPlayer } from "./use-wavesurfer";

/**
 * What a page may ask of a player (decision 024, "Who spoke, when": the transcript editor marks
 * paragraph starts at the player's position and plays from them).
 */
export interface AudioPlayerHandle {
  /** The position in seconds, or null while the audio cannot play yet (or failed to load). */
  currentTime(): number | null;
  /**
   * Seeks to `start` seconds and plays, pausing at `end` seconds when given. Asked before the audio
   * can play (e.g. right after the player appeared), it does so once it can.
   */
  playFrom(start: number, end?: number): void;
}

/**
 * Gives `handleRef` the AudioPlayerHandle of `player` (decision 024): one handle for the player's
 * life, whose playFrom waits for the media element's metadata when asked before it is in.
 */
export function usePlayerHandle(handleRef: Ref<AudioPlayerHandle> | undefined, player: WaveSurferPlayer): void {
  const { waveRef, mediaReady, seek, playUntil } = player;
  // playFrom asked before the audio could play: done once it can.
  const pendingPlay = useRef<{ start: number; end?: number } | null>(null);
  const playFrom = useCallback(
    (start: number, end?: number) => {
      const wave = waveRef.current;
      const media = wave?.getMediaElement();
      if (!wave || !media || media.readyState < HTMLMediaElement.HAVE_METADATA) {
        pendingPlay.current = { start, end };
        return;
      }
      seek(Math.min(wave.getDuration() || start, Math.max(0, start)));
      playUntil(end);
    },
    [waveRef, seek, playUntil],
  );
  const playPending = useEffectEvent(() => {
    const pending = pendingPlay.current;
    pendingPlay.current = null;
    if (pending) playFrom(pending.start, pending.end);
  });
  useEffect(() => {
    if (mediaReady) playPending();
  }, [mediaReady]);
  useImperativeHandle(
    handleRef,
    () => ({
      currentTime: () => {
        const media = waveRef.current?.getMediaElement();
        if (!waveRef.current || !media || media.readyState < HTMLMediaElement.HAVE_METADATA || media.error) return null;
        return waveRef.current.getCurrentTime();
      },
      playFrom: (start, end) => playFrom(start, end),
    }),
    // The same ref and functions for the player's life (useWaveSurfer's): one handle for its life.
    [waveRef, playFrom],
  );
}
