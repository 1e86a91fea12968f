import { randomUUID } from "node:crypto";
import { ensureSubmission, findSubmissionByTask } from "@tafsiri/db/repositories/submissions";
import { findTranscriptVersion, insertTranscriptVersion } from "@tafsiri/db/repositories/transcript-versions";
import { insertAuditEntry } from "@tafsiri/db/repositories/audit-log";
import type { AppDeps, SessionUser } from "../context";
import type { Transcript } from "../schemas/transcripts";
import { AppError } from "../errors/app-error";
import { lockAudioAccess, NOT_ASSIGNED, requireAudioAccess } from "./access";
import { signFileUrl } from "./file-urls";
import { publishAfter, recordAudioEvent } from "../live/record";
import { submissionPayload } from "../webhooks/payloads";
import { recordWebhookEvent } from "../webhooks/record-webhook-event";
import { notifyAdmins } from "./notifications";
import { commitWithFile, textFile } from "./stored-files";
import { applyTransition } from "./submissions";
import { NOTIFICATION_LINKS } from "./notification-links";

const TRANSCRIPT_SAVED = "Transcript saved and uploaded successfully.";
export const TRANSCRIPT_LOCKED = "The transcript has been approved and can no longer be edited.";

/** SPEC §3, §9: `{audio filename}_TRANSLATEDTRANSCRIPT_{YYYY-MM-DD_HH-mm-ss}.cha`, time in UTC. */
export function transcriptFileName(audioFilename: string, at: Date): string {
  const stamp = at.toISOString().slice(0, 19).replace("T", "_").replaceAll(":", "-");
  return `${audioFilename}_TRANSLATEDTRANSCRIPT_${stamp}.cha`;
}

/** Storage key of a transcript version: under `transcripts/{audioId}/`, distinct per version. */
function transcriptKey(audioId: string, versionId: string, fileName: string): string {
  const safeName = fileName.replace(/[^A-Za-z0-9_.-]/g, "_").replace(/\.{2,}/g, ".");
  return `transcripts/${audioId}/${versionId}/${safeName}`;
}

/**
 * SPEC §2.12: the current translated transcript of an audio the caller may see: approval status
 * ('No transcript' when there is none), text, .cha file name, signed URL, when and by whom it was
 * saved. Throws NOT_FOUND / FORBIDDEN (see requireAudioAccess).
 */
export async function getTranscript(deps: AppDeps, user: SessionUser, audioId: string): Promise<Transcript> {
  const { task } = await requireAudioAccess(deps.db, user, audioId);
  const submission = task ? await findSubmissionByTask(deps.db, task.id) : undefined;
  const version = submission?.translationScript
    ? await findTranscriptVersion(deps.db, submission.id, submission.translationScript)
    : undefined;
  return {
    status: submission?.translationScriptApprovalStatus ?? "No transcript",
    text: version?.text ?? null,
    fileName: version?.fileName ?? null,
    url: version ? signFileUrl(deps.jwtSecret, version.fileKey) : null,
    updatedAt: version?.createdAt.toISOString() ?? null,
    updatedBy:
      version?.createdById && version.createdByUsername
        ? { id: version.createdById, username: version.createdByUsername }
        : null,
  };
}

/**
 * SPEC §3, §4: saves the translated transcript of an audio the caller may work on as a NEW
 * plain-text .cha file (earlier ones are kept), creating the task's submission first when there
 * is none. Sets the transcript status Pending and the submission's translation_script to the new
 * file, recomputes is_complete, notifies every active admin ('uploaded a new transcript' when
 * there was no current transcript, 'updated the transcript' otherwise) with their live events,
 * writes an audit entry and an 'audio.changed' live event, all in one transaction; the file is written before the rows commit and removed if they do not.
 * Throws NOT_FOUND / FORBIDDEN (access), BAD_REQUEST 'This audio is not assigned yet.' (no task),
 * FORBIDDEN 'The transcript has been approved and can no longer be edited.'.
 * Returns the new status, the .cha file name and the success message.
 */
export async function saveTranscript(
  deps: AppDeps,
  user: SessionUser,
  input: { audioId: string; text: string },
): Promise<{ status: "Pending"; fileName: string; message: string }> {
  const change = commitWithFile(deps.db, async (trx, store) => {
    const { audio, task } = await lockAudioAccess(trx, user, input.audioId);
    if (!task) throw new AppError("BAD_REQUEST", NOT_ASSIGNED);
    const submission = await ensureSubmission(trx, task.id, user.id);
    if (submission.translationScriptApprovalStatus === "Approved") {
      throw new AppError("FORBIDDEN", TRANSCRIPT_LOCKED);
    }
    const now = new Date();
    const versionId = randomUUID();
    const fileName = transcriptFileName(audio.filename, now);
    const fileKey = transcriptKey(audio.id, versionId, fileName);
    await store(textFile(deps.storage, fileKey, input.text));
    await insertTranscriptVersion(trx, {
      id: versionId,
      submissionId: submission.id,
      fileKey,
      fileName,
      text: input.text,
      createdBy: user.id,
    });
    await applyTransition(trx, task, submission, {
      submission: { translationScript: fileKey, translationScriptApprovalStatus: "Pending", submissionDate: now },
    });
    const verb = submission.translationScript === null ? "uploaded a new transcript" : "updated the transcript";
    await notifyAdmins(trx, {
      senderId: user.id,
      message: `${user.username} ${verb} for ${audio.filename}`,
      link: NOTIFICATION_LINKS.transcript,
      audioId: audio.id,
    });
    await insertAuditEntry(trx, user.id, "save", "transcript", versionId, { audioId: audio.id, fileName });
    await recordAudioEvent(trx, "audio.changed", audio.id);
    await recordWebhookEvent(trx, "transcript.submitted", async () => ({
      submission: await submissionPayload(trx, submission.id),
      transcript: { _id: versionId, fileName, createdBy: user.id },
    }));
    return { status: "Pending" as const, fileName, message: TRANSCRIPT_SAVED };
  });
  return publishAfter(deps, change);
}
