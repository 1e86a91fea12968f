/**
 * The transcript being written is kept in the browser (localStorage) until it is
 * saved or cancelled, so closing the tab or losing the connection loses nothing. One draft per
 * user and audio; only this browser sees it.
 */

/** A kept draft: its text and when it was last changed (ISO time). */
export interface TranscriptDraft {
  text: string;
  savedAt: string;
}

const PREFIX = "tafsiri-transcript-draft";

function keyOf(userId: string, audioId: string): string {
  return `${PREFIX}:${userId}:${audioId}`;
}

/** The draft `userId` keeps for `audioId`, or null (none, or unreadable). */
export function readDraft(userId: string, audioId: string): TranscriptDraft | null {
  try {
    const raw = localStorage.getItem(keyOf(userId, audioId));
    if (!raw) return null;
    const draft = JSON.parse(raw) as Partial<TranscriptDraft>;
    return typeof draft.text === "string" && typeof draft.savedAt === "string"
      ? { text: draft.text, savedAt: draft.savedAt }
      : null;
  } catch {
    return null;
  }
}

/** Keeps `text` as the draft of `userId` for `audioId` (a full storage is ignored: the editor still holds it). */
export function keepDraft(userId: string, audioId: string, text: string, now: Date = new Date()): void {
  try {
    localStorage.setItem(keyOf(userId, audioId), JSON.stringify({ text, savedAt: now.toISOString() }));
  } catch {
    // Storage full or disabled: nothing more to do.
  }
}

/** Forgets the draft of `userId` for `audioId` (after a save, a cancel or a discard). */
export function dropDraft(userId: string, audioId: string): void {
  try {
    localStorage.removeItem(keyOf(userId, audioId));
  } catch {
    // Storage disabled: there is nothing kept.
  }
}
