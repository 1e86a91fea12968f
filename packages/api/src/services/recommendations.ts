import type { Executor, Task } from "@tafsiri/db";
import {
  findTranslationEntries,
  insertRecommendation,
  listRecommendedRecordings,
  type TranslationEntry,
} from "@tafsiri/db/repositories/recommendations";
import type { Page } from "@tafsiri/db/repositories/pagination";
import { insertAuditEntry } from "@tafsiri/db/repositories/audit-log";
import type { AppDeps, SessionUser } from "../context";
import {
  STAFF_REQUIRED_FOR_RECOMMENDATION,
  type CreateRecommendationInput,
  type ListRecommendedRecordingsInput,
  type RecommendedRecording,
} from "../schemas/recommendations";
import { UNKNOWN_ID, ZId } from "../schemas/common";
import { AppError } from "../errors/app-error";
import { lockAudioAccess, requireAudioAccess } from "./access";
import { recordAudioEvent } from "../live/record";
import { notifyUser } from "./notifications";
import { requireActiveStaff } from "./staff";
import { SAME_ASSIGNEE } from "./tasks";
import { NOTIFICATION_LINKS } from "./notification-links";

const NOT_READY = "Translation stage has not been completed.";
const RECOMMENDATION_SENT = "Recommendation sent successfully!.";
const RECOMMEND_TO_SELF = "You cannot recommend an audio to yourself.";
const ALREADY_RECOMMENDED = "This audio has already been recommended to this staff member.";
const OWN_RECOMMENDATIONS_ONLY = "You may only list your own recommendations.";
/** SPEC §4: where the recipient's notification leads. */

/** SPEC §4: the recipient's notification text. */
function recommendationMessage(senderUsername: string): string {
  return `${senderUsername} recommended an audio for recording.`;
}

/** The translation entries of an audio's task (none without a task). */
function translationEntries(db: Executor, task: Task | null): Promise<TranslationEntry[]> {
  return task ? findTranslationEntries(db, task.id) : Promise.resolve([]);
}

/**
 * SPEC §7.1 GET /api/hasrecommendation/{id}: the translation entries of an audio the caller may
 * open (its submission while a transcript is saved on it); recommending needs at least one.
 * Throws BAD_REQUEST 'Unknown id.' for a malformed id (as ZId answers it on every other audio
 * path), NOT_FOUND / FORBIDDEN (see requireAudioAccess).
 */
export async function findTranslationFor(
  deps: AppDeps,
  user: SessionUser,
  audioId: string,
): Promise<TranslationEntry[]> {
  if (!ZId.safeParse(audioId).success) throw new AppError("BAD_REQUEST", UNKNOWN_ID);
  const { task } = await requireAudioAccess(deps.db, user, audioId);
  return translationEntries(deps.db, task);
}

/** SPEC §2.15, §4: `{ ready }`, true once the audio's translation stage has a result (a saved transcript). */
export async function checkRecommendation(
  deps: AppDeps,
  user: SessionUser,
  audioId: string,
): Promise<{ ready: boolean }> {
  return { ready: (await findTranslationFor(deps, user, audioId)).length > 0 };
}

/**
 * SPEC §2.15, §4, §5: recommends an audio the caller may open (admins: any) to another active
 * staff member for recording, who may then open it too. Records the recommendation, the
 * recipient's notification '{username} recommended an audio for recording.' (link /Recordings/)
 * with its live event, an audit entry and an 'audio.changed' event (the recommended-recordings
 * lists change) in one transaction, then pokes the event bus. Throws BAD_REQUEST
 * 'Translation stage has not been completed.' (no saved transcript), 'Please select a staff
 * member' (not an active Staff user), 'This audio is already assigned to this staff member.',
 * 'You cannot recommend an audio to yourself.'; CONFLICT 'This audio has already been
 * recommended to this staff member.'; NOT_FOUND / FORBIDDEN (see requireAudioAccess).
 * Returns the success message 'Recommendation sent successfully!.'.
 */
export async function createRecommendation(
  deps: AppDeps,
  user: SessionUser,
  input: CreateRecommendationInput,
): Promise<{ message: string }> {
  await deps.db.transaction().execute(async (trx) => {
    const { audio, task } = await lockAudioAccess(trx, user, input.audioId);
    if (!task || (await translationEntries(trx, task)).length === 0) {
      throw new AppError("BAD_REQUEST", NOT_READY);
    }
    const staff = await requireActiveStaff(trx, input.staffId, STAFF_REQUIRED_FOR_RECOMMENDATION);
    if (staff.id === task.assignedTo) throw new AppError("BAD_REQUEST", SAME_ASSIGNEE);
    if (staff.id === user.id) throw new AppError("BAD_REQUEST", RECOMMEND_TO_SELF);
    const id = await insertRecommendation(trx, { taskId: task.id, recommendedTo: staff.id, recommendedBy: user.id });
    if (!id) throw new AppError("CONFLICT", ALREADY_RECOMMENDED);
    await notifyUser(trx, {
      recipientId: staff.id,
      senderId: user.id,
      message: recommendationMessage(user.username),
      link: NOTIFICATION_LINKS.recordings,
      audioId: audio.id,
    });
    await insertAuditEntry(trx, user.id, "recommend", "task", task.id, { audioId: audio.id, recommendedTo: staff.id });
    await recordAudioEvent(trx, "audio.changed", audio.id);
  });
  deps.events.poke();
  return { message: RECOMMENDATION_SENT };
}

/**
 * SPEC §2.9, §6 Recommended Recordings: newest first, one page. Admins see every recommendation
 * (or `recommendedTo`'s), staff those made to them; staff naming another user get FORBIDDEN
 * 'You may only list your own recommendations.'.
 */
export function listRecommendations(
  deps: AppDeps,
  user: SessionUser,
  q: ListRecommendedRecordingsInput,
): Promise<Page<RecommendedRecording>> {
  if (user.role !== "Admin" && q.recommendedTo !== undefined && q.recommendedTo !== user.id) {
    throw new AppError("FORBIDDEN", OWN_RECOMMENDATIONS_ONLY);
  }
  const recommendedTo = user.role === "Admin" ? q.recommendedTo : user.id;
  return listRecommendedRecordings(deps.db, { page: q.page, limit: q.limit, recommendedTo });
}
