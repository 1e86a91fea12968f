import { useEffect, useEffectEvent } from "react";

/** One line of the 'Shortcuts' popover: the keys as shown ('Ctrl+Space') and what they do. */
export interface PlayerShortcut {
  keys: string;
  action: string;
}

/** Seconds Ctrl+← and Ctrl+→ move back and forward. */
const SEEK_STEP_SECONDS = 3;

/** The keyboard shortcuts of a player with `shortcuts` (shown in its 'Shortcuts' popover). */
export const PLAYER_SHORTCUTS: readonly PlayerShortcut[] = [
  { keys: "Ctrl+Space", action: "Play or pause" },
  { keys: "Ctrl+←", action: `Back ${SEEK_STEP_SECONDS} seconds` },
  { keys: "Ctrl+→", action: `Forward ${SEEK_STEP_SECONDS} seconds` },
  { keys: "Ctrl+↑", action: "Faster" },
  { keys: "Ctrl+↓", action: "Slower" },
];

/** What the player does for each of PLAYER_SHORTCUTS. */
interface ShortcutActions {
  togglePlay(): void;
  /** Moves by `seconds` (negative: back). */
  seekBy(seconds: number): void;
  /** One speed faster (+1) or slower (-1). */
  changeSpeed(direction: 1 | -1): void;
}

/**
 * While `enabled`, answers PLAYER_SHORTCUTS anywhere on the page (SPEC §2.11; docs/features.md 'A
 * player made for transcribing'), also while the transcript editor has focus: Ctrl+Space,
 * Ctrl+←/→ (SEEK_STEP_SECONDS), Ctrl+↑/↓, with no other modifier, and only while `ready` (the
 * player can play). The keys it handles go no further. At most one player of a page should have them.
 */
export function usePlayerShortcuts(enabled: boolean, ready: boolean, actions: ShortcutActions): void {
  // The shortcuts read the latest state; the document-wide listener is added once.
  const onShortcut = useEffectEvent((event: KeyboardEvent) => {
    if (!event.ctrlKey || event.altKey || event.metaKey || event.shiftKey) return;
    if (!ready) return;
    if (event.code === "Space") actions.togglePlay();
    else if (event.key === "ArrowLeft" || event.key === "ArrowRight") {
      actions.seekBy(event.key === "ArrowLeft" ? -SEEK_STEP_SECONDS : SEEK_STEP_SECONDS);
    } else if (event.key === "ArrowUp" || event.key === "ArrowDown") {
      actions.changeSpeed(event.key === "ArrowUp" ? 1 : -1);
    } else return;
    // Handled before the editor sees it (capture phase): no space typed, the caret stays put.
    event.preventDefault();
    event.stopPropagation();
  });
  useEffect(() => {
    if (!enabled) return;
    const onKeyDown = (event: KeyboardEvent) => onShortcut(event);
    document.addEventListener("keydown", onKeyDown, true);
    return () => document.removeEventListener("keydown", onKeyDown, true);
  }, [enabled]);
}
