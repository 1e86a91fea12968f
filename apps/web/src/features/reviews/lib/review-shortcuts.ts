import type { PlayerShortcut } from "@tafsiri/ui/audio-player";

/** What a review-mode key does (decision 025). */
export type ReviewCommand =
  "approveTranscript" | "rejectTranscript" | "approveRecording" | "rejectRecording" | "next" | "previous" | "comment";

/**
 * Review mode's keys (decision 025), fixed for everyone: Alt with a letter, matched on
 * `event.code` so that macOS's Option (which types 'å' for Option+A) works too. None clash with
 * the player's Ctrl+Space and Ctrl+arrows.
 */
const REVIEW_KEYS: ReadonlyArray<{ code: string; keys: string; command: ReviewCommand; action: string }> = [
  { code: "KeyA", keys: "Alt+A", command: "approveTranscript", action: "Approve the transcript" },
  { code: "KeyR", keys: "Alt+R", command: "rejectTranscript", action: "Reject the transcript" },
  { code: "KeyO", keys: "Alt+O", command: "approveRecording", action: "Approve the recording" },
  { code: "KeyX", keys: "Alt+X", command: "rejectRecording", action: "Reject the recording" },
  { code: "KeyN", keys: "Alt+N", command: "next", action: "Next submission" },
  { code: "KeyP", keys: "Alt+P", command: "previous", action: "Previous submission" },
  { code: "KeyC", keys: "Alt+C", command: "comment", action: "Go to the comment box" },
];

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
  if (!event.altKey || event.ctrlKey || event.metaKey || event.shiftKey || event.repeat) return null;
  const key = REVIEW_KEYS.find((k) => k.code === event.code);
  if (!key) return null;
  if (document.querySelector('[role="dialog"], [role="alertdialog"]')) return null;
  // In a text field only Alt+C acts: on a Mac, Option with a letter types a character there.
  if (key.command !== "comment" && isTextInput(event.target)) return null;
  return key.command;
}
