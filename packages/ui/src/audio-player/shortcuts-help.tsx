import { useRef, useState } from "react";
import { PLAYER_SHORTCUTS, type PlayerShortcut } from "./use-player-shortcuts";

/** Where a player's keys work, said above the list of its 'Shortcuts' popover by default. */
export const EDITOR_SHORTCUTS_NOTE = "They work while you type in the transcript editor.";

/**
 * The 'Shortcuts' button and the list it opens (SPEC §2.11; docs/features.md 'A player made for
 * transcribing'): `note` then PLAYER_SHORTCUTS and `more` (a disclosure: Escape or the button
 * closes it and focus goes back to the button).
 */
export function ShortcutsHelp({ more, note }: { more: readonly PlayerShortcut[]; note: string }) {
  const [open, setOpen] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const close = () => {
    setOpen(false);
    buttonRef.current?.focus();
  };
  return (
    <div
      className="audio-player-shortcuts"
      onKeyDown={(e) => {
        if (e.key === "Escape" && open) close();
      }}
    >
      <button
        ref={buttonRef}
        type="button"
        className="btn"
        aria-expanded={open}
        aria-controls="audio-player-shortcuts-list"
        onClick={() => setOpen((o) => !o)}
      >
        Shortcuts
      </button>
      {open && (
        <div
          id="audio-player-shortcuts-list"
          className="audio-player-shortcuts-popover card"
          role="region"
          aria-label="Keyboard shortcuts"
        >
          <p className="muted">{note}</p>
          <dl>
            {[...PLAYER_SHORTCUTS, ...more].map((s) => (
              <div key={s.keys} className="audio-player-shortcut">
                <dt>
                  <kbd>{s.keys}</kbd>
                </dt>
                <dd>{s.action}</dd>
              </div>
            ))}
          </dl>
        </div>
      )}
    </div>
  );
}
