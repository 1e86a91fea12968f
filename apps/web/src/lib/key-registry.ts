import { PLAYER_SHORTCUTS, type PlayerShortcut } from "@tafsiri/ui/player-shortcuts";

/**
 * Every key the web app binds, in one place, by the screen where it acts (decision 035: no key is
 * bound twice on one screen; `key-registry.test.ts` finds clashes). Each screen's code reads its keys
 * from here; the player's 'Shortcuts' popover lists them. Alt is Option on a Mac: keys are matched on
 * `event.code`, so Option+S typing 'ß' still works.
 */

/** One binding: the keys as shown and as aria-keyshortcuts ('Alt+S'), and what they do. */
export interface KeyBinding extends PlayerShortcut {
  keys: string;
  action: string;
}

/** A binding matched on `event.code` with Alt (and Shift when `shift`), no Ctrl or Meta. */
export interface AltBinding<C extends string> extends KeyBinding {
  code: string;
  shift?: boolean;
  command: C;
}

/** Sonner's toaster: its key moves focus to the toasts, on every screen. */
const TOASTER_KEYS = { keys: "Alt+Shift+N", action: "Go to the notifications (toasts)" } as const;
/** Sonner's `hotkey` prop for TOASTER_KEYS. */
export const TOASTER_HOTKEY = ["altKey", "shiftKey", "KeyN"];
/** The search dialog's keys, on every screen (aria-keyshortcuts form). */
export const SEARCH_KEYS = "Control+K Meta+K /";

/** The rich-text transcript editor's keys (decision 024). */
export const TRANSCRIPT_SHORTCUTS = [
  { keys: "Alt+S", action: "Switch the paragraph's speaker (PAR/INV)" },
  { keys: "Alt+T", action: "Mark the paragraph's start at the player's position" },
  { keys: "Alt+Shift+T", action: "Clear the paragraph's start time" },
  { keys: "Alt+P", action: "Play from the paragraph's start" },
] as const;

/** What a review-mode key does (decision 025). */
export type ReviewCommand =
  | "approveTranscript"
  | "rejectTranscript"
  | "approveRecording"
  | "rejectRecording"
  | "next"
  | "previous"
  | "comment"
  | "playSegment";

/** Review mode's keys (decision 025). */
export const REVIEW_KEYS: ReadonlyArray<AltBinding<ReviewCommand>> = [
  { code: "KeyA", keys: "Alt+A", command: "approveTranscript", action: "Approve the transcript" },
  { code: "KeyR", keys: "Alt+R", command: "rejectTranscript", action: "Reject the transcript" },
  { code: "KeyO", keys: "Alt+O", command: "approveRecording", action: "Approve the recording" },
  { code: "KeyX", keys: "Alt+X", command: "rejectRecording", action: "Reject the recording" },
  { code: "KeyN", keys: "Alt+N", command: "next", action: "Next submission" },
  { code: "KeyP", keys: "Alt+P", command: "previous", action: "Previous submission" },
  { code: "KeyC", keys: "Alt+C", command: "comment", action: "Go to the comment box" },
  // Decision 035, review by segment.
  { code: "KeyL", keys: "Alt+L", command: "playSegment", action: "Play the chosen segment's source, then its take" },
];

/** What a segment grid key does (decision 035). */
export type GridCommand =
  | "confirmNext"
  | "next"
  | "previous"
  | "copySource"
  | "match1"
  | "match2"
  | "match3"
  | "glossary"
  | "split"
  | "merge"
  | "play"
  | "loop"
  | "speaker"
  | "flag"
  | "take";

/** The segment grid's keys with Alt (decision 035; Matecat, OmegaT and Subtitle Edit are the models). */
export const GRID_ALT_KEYS: ReadonlyArray<AltBinding<GridCommand>> = [
  { code: "ArrowDown", keys: "Alt+↓", command: "next", action: "Next segment" },
  { code: "ArrowUp", keys: "Alt+↑", command: "previous", action: "Previous segment" },
  { code: "KeyI", keys: "Alt+I", command: "copySource", action: "Copy the source into the translation" },
  { code: "Digit1", keys: "Alt+1", command: "match1", action: "Insert memory match 1" },
  { code: "Digit2", keys: "Alt+2", command: "match2", action: "Insert memory match 2" },
  { code: "Digit3", keys: "Alt+3", command: "match3", action: "Insert memory match 3" },
  {
    code: "KeyG",
    keys: "Alt+G",
    command: "glossary",
    action: "Insert the glossary translation of a term in the source",
  },
  { code: "KeyX", keys: "Alt+X", command: "split", action: "Split the segment at the cursor" },
  { code: "KeyM", keys: "Alt+M", command: "merge", action: "Merge the segment with the next one" },
  { code: "KeyP", keys: "Alt+P", command: "play", action: "Play the segment's span" },
  { code: "KeyL", keys: "Alt+L", command: "loop", action: "Loop the segment's span (on/off)" },
  { code: "KeyS", keys: "Alt+S", command: "speaker", action: "Switch the segment's speaker (PAR/INV)" },
  { code: "KeyF", keys: "Alt+F", command: "flag", action: "Reviewers: mark the segment to fix (on/off)" },
  { code: "KeyK", keys: "Alt+K", command: "take", action: "Record the segment's spoken translation, or stop" },
];

/** The segment grid's confirm key (Matecat's Ctrl+Enter). */
const GRID_CONFIRM_KEYS = { keys: "Ctrl+Enter", action: "Confirm the translation and go to the next segment" };

/** The grid's keys as the player's 'Shortcuts' lists them. */
export const GRID_SHORTCUTS: readonly KeyBinding[] = [GRID_CONFIRM_KEYS, ...GRID_ALT_KEYS];

/** The Alt binding of a key press among `bindings`, or undefined (no Ctrl or Meta; Shift as the binding says). */
export function altBindingOf<C extends string>(
  event: Pick<KeyboardEvent, "altKey" | "ctrlKey" | "metaKey" | "shiftKey" | "code">,
  bindings: ReadonlyArray<AltBinding<C>>,
): AltBinding<C> | undefined {
  if (!event.altKey || event.ctrlKey || event.metaKey) return undefined;
  return bindings.find((b) => b.code === event.code && Boolean(b.shift) === event.shiftKey);
}

/** Every screen with its own keys, and the keys in force there (the player's, the toaster's and search's too). */
export const KEY_SCREENS: Record<string, readonly string[]> = {
  "Translated Transcript, text editor": [
    ...PLAYER_SHORTCUTS.map((k) => k.keys),
    ...TRANSCRIPT_SHORTCUTS.map((k) => k.keys),
    TOASTER_KEYS.keys,
    "Ctrl+K",
  ],
  "Translated Transcript, segment grid": [
    ...PLAYER_SHORTCUTS.map((k) => k.keys),
    ...GRID_SHORTCUTS.map((k) => k.keys),
    TOASTER_KEYS.keys,
    "Ctrl+K",
  ],
  "Review mode": [
    ...PLAYER_SHORTCUTS.map((k) => k.keys),
    ...REVIEW_KEYS.map((k) => k.keys),
    TOASTER_KEYS.keys,
    "Ctrl+K",
  ],
};

/** A key combination written the same way whatever its order and spelling ('Alt+Shift+T' = 'shift+alt+t'). */
export function normalizedKeys(keys: string): string {
  const parts = keys.split("+").map((p) => p.trim().toLowerCase());
  const key = parts.pop() ?? "";
  const names: Record<string, string> = { "←": "arrowleft", "→": "arrowright", "↑": "arrowup", "↓": "arrowdown" };
  const modifiers = parts.map((m) => (m === "control" ? "ctrl" : m === "option" ? "alt" : m)).sort();
  return [...modifiers, names[key] ?? key].join("+");
}

/** The combinations bound more than once among `keys` (normalizedKeys), each once. */
export function keyClashes(keys: readonly string[]): string[] {
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const k of keys.map(normalizedKeys)) (seen.has(k) ? twice : seen).add(k);
  return [...twice];
}
