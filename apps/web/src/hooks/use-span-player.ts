import { useCallback, useRef, useState } from "react";
import type { AudioPlayerHandle } from "@tafsiri/ui/audio-player";

/**
 * The original audio's player beside a transcript (decisions 024, 035): whether it is shown, the
 * ref to give it (`attachPlayer`), `playSpan` (plays [startMs, endMs) in ms, showing the player
 * first when it is hidden and playing once it is there) and `positionMs` (where it is, or null).
 */
export function useSpanPlayer() {
  const [shown, setShown] = useState(false);
  const handle = useRef<AudioPlayerHandle | null>(null);
  // A span asked for while the player was hidden: played once the shown player is there.
  const pending = useRef<{ start: number; end?: number } | null>(null);
  const attachPlayer = useCallback((player: AudioPlayerHandle | null) => {
    handle.current = player;
    const wanted = pending.current;
    pending.current = null;
    if (player && wanted) player.playFrom(wanted.start, wanted.end);
  }, []);
  const playSpan = useCallback((startMs: number, endMs?: number | null) => {
    const span = { start: startMs / 1000, end: endMs === undefined || endMs === null ? undefined : endMs / 1000 };
    if (handle.current) handle.current.playFrom(span.start, span.end);
    else {
      pending.current = span;
      setShown(true);
    }
  }, []);
  const positionMs = useCallback(() => {
    const seconds = handle.current?.currentTime() ?? null;
    return seconds === null ? null : Math.round(seconds * 1000);
  }, []);
  return { shown, setShown, attachPlayer, playSpan, positionMs };
}
