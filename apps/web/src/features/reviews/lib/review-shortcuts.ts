import type { PlayerShortcut } from "@tafsiri/ui/audio-player";
import { altBindingOf, REVIEW_KEYS, type ReviewCommand } from "#web/lib/key-registry";

export type { ReviewCommand };

/** The keys of `command` as shown and as aria-keyshortcuts ('Alt+A'). */
export function keysOf(command: ReviewCommand): string {
  return REVIEW_KEYS.find((k) => k.command === command)?.keys ?? "";
}

/** Review mode's keys as lines of the player's 'Shortcuts' popover. */
export const REVIEW_PLAYER_SHORTCUTS: readonly PlayerShortcut[] = REVIEW_KEYS.map(({ keys, action }) => ({
  keys,
  action,
}));

/**
 * Where review mode's keys work, said in the player's 'Shortcuts' popover: the player's keys work
 * everywhere, review mode's outside text fields, except Alt+C (see reviewCommandOf).
 */
export const REVIEW_SHORTCUTS_NOTE =
  "The player's keys work everywhere. Review keys work outside text fields; in the comment box only Alt+C does.";

/** Whether `target` takes typed text (a text field, a textarea, an editable element). */
function isTextInput(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement)
    return true;
  if (!(target instanceof HTMLInputElement)) return false;
  return !["button", "checkbox", "radio", "range", "submit", "reset", "file", "color"].includes(target.type);
}

/**
 * The review command of a key press, or null: Alt plus one of REVIEW_KEYS' letters (no Ctrl,
 * Meta or Shift). Inside a text field only Alt+C acts (the others are left to the field: Option
 * types characters on a Mac). Nothing while a dialog is open (the reject reason, a confirmation).
 */
export function reviewCommandOf(event: KeyboardEvent): ReviewCommand | null {
  if (event.repeat) return null;
  const key = altBindingOf(event, REVIEW_KEYS);
  if (!key) return null;
  if (document.querySelector('[role="dialog"], [role="alertdialog"]')) return null;
  // In a text field only Alt+C acts: on a Mac, Option with a letter types a character there.
  if (key.command !== "comment" && isTextInput(event.target)) return null;
  return key.command;
}
