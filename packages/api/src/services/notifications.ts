import type { Executor } from "@tafsiri/db";
import { insertForActiveAdmins } from "@tafsiri/db/repositories/notifications";

/** Screens notifications link to (SPEC §2.1 routes, spelling as given). */
export const TRANSCRIPT_LINK = "/audiomanagement/trascript";
export const RECORDING_LINK = "/audiomanagement/translatedaudio";

/**
 * SPEC §4: one unread notification row for every active admin (the sender included), written
 * in the caller's transaction so it commits with the change it announces. Returns the row count.
 */
export function notifyAdmins(
  trx: Executor,
  content: { senderId: string; message: string; link: string; audioId: string },
): Promise<number> {
  return insertForActiveAdmins(trx, content);
}
