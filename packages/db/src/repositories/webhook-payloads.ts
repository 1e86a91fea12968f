import type { Executor } from "../connection";

/**
 * Decision 037: what a webhook event's `data` reads of the thing it is about, in the change's own
 * transaction (packages/api/src/webhooks/payloads.ts shapes it as REST shows it).
 */

/** The submission `submissionId` with its task's audio; throws when there is none. */
export function findSubmissionForPayload(trx: Executor, submissionId: string) {
  return trx
    .selectFrom("submissions")
    .innerJoin("tasks", "tasks.id", "submissions.taskId")
    .select([
      "submissions.id",
      "submissions.taskId",
      "tasks.audioId",
      "submissions.submissionDate",
      "submissions.translationScript",
      "submissions.recordedAudio",
      "submissions.translationScriptApprovalStatus",
      "submissions.recordedAudioApprovalStatus",
      "submissions.approvalStatus",
      "submissions.recordedBy",
    ])
    .where("submissions.id", "=", submissionId)
    .executeTakeFirstOrThrow();
}

/** The audio `audioId` with its participant's code; throws when there is none. */
export function findAudioForPayload(trx: Executor, audioId: string) {
  return trx
    .selectFrom("audios")
    .leftJoin("participants", "participants.id", "audios.participantId")
    .select([
      "audios.id",
      "audios.filename",
      "audios.category",
      "audios.durationSeconds",
      "audios.sessionDate",
      "audios.sourceLanguage",
      "audios.targetLanguage",
      "participants.code as participantCode",
    ])
    .where("audios.id", "=", audioId)
    .executeTakeFirstOrThrow();
}
