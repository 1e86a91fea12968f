import { findReviewedVersions, listTranscriptHistory } from "@tafsiri/db/repositories/transcript-versions";
import type { AppDeps, SessionUser } from "../context";
import { TRANSCRIPT_HISTORY_LIMIT, type TranscriptHistory } from "../schemas/transcript-history";
import { requireAdmin, requireAudioAccess } from "./access";

/** A user reference, or null when the account is gone. */
function userRef(id: string | null, username: string | null): { id: string; username: string } | null {
  return id && username ? { id, username } : null;
}

/**
 * Decision 025, "what changed since the last review": the transcript history of audio `audioId`
 * for an admin. Returns its saved versions, newest first (at most TRANSCRIPT_HISTORY_LIMIT, 200),
 * each with who saved it, when (ISO), whether it is current and its reviews (newest first);
 * `current` (the version the submission names now, with its text) and `lastReviewed` (the version
 * named by the newest transcript review, with its text, save time and that review), null when the
 * transcript was never reviewed or when the reviewed version is still the current one. An audio
 * not assigned yet, or with no transcript saved, has an empty history. Two queries after the
 * access check, both index-backed (see the repository functions). Throws FORBIDDEN for staff,
 * NOT_FOUND 'Audio not found.' for an unknown audio.
 */
export async function getTranscriptHistory(
  deps: AppDeps,
  user: SessionUser,
  audioId: string,
): Promise<TranscriptHistory> {
  requireAdmin(user);
  const { task } = await requireAudioAccess(deps.db, user, audioId);
  if (!task) return { versions: [], lastReviewed: null, current: null };
  const versions = await listTranscriptHistory(deps.db, task.id, TRANSCRIPT_HISTORY_LIMIT);
  const reviewed = await findReviewedVersions(deps.db, task.id);
  const current =
    reviewed?.currentId && reviewed.currentText !== null
      ? { versionId: reviewed.currentId, text: reviewed.currentText }
      : null;
  const lastReviewed =
    reviewed?.reviewedVersionId &&
    reviewed.reviewedText !== null &&
    reviewed.reviewedSavedAt &&
    reviewed.reviewAction &&
    reviewed.reviewedAt &&
    reviewed.reviewedVersionId !== current?.versionId
      ? {
          versionId: reviewed.reviewedVersionId,
          text: reviewed.reviewedText,
          savedAt: reviewed.reviewedSavedAt.toISOString(),
          review: {
            action: reviewed.reviewAction,
            reviewer: userRef(reviewed.reviewerId, reviewed.reviewerUsername),
            reviewedAt: reviewed.reviewedAt.toISOString(),
            reason: reviewed.reviewReason,
          },
        }
      : null;
  return {
    versions: versions.map((v) => ({
      id: v.id,
      fileName: v.fileName,
      savedAt: v.createdAt.toISOString(),
      savedBy: userRef(v.createdById, v.createdByUsername),
      current: v.current,
      reviews: v.reviews.map((r) => ({
        action: r.action,
        reviewer: userRef(r.reviewerId, r.reviewerUsername),
        reviewedAt: r.reviewedAt.toISOString(),
        reason: r.reason,
      })),
    })),
    lastReviewed,
    current,
  };
}
