import { sql } from "kysely";
import type { Executor } from "../connection";
import type { ReviewDecision, ReviewedOutputKind } from "../schema";

/**
 * Records one review (decision 025) of submission `submissionId`'s current transcript or
 * recording: the version judged is the one the submission names now (translation_script or
 * recorded_audio, a file key), and its save time is copied into the row so the reviewer figures
 * read one table. Call it in the review's transaction, after the conditional status update won.
 */
export async function insertReview(
  db: Executor,
  values: {
    submissionId: string;
    output: ReviewedOutputKind;
    action: ReviewDecision;
    reviewerId: string;
    reason?: string | undefined;
  },
): Promise<void> {
  const base = {
    submission_id: values.submissionId,
    output: values.output,
    action: values.action,
    reviewer_id: values.reviewerId,
    reason: values.reason ?? null,
  };
  if (values.output === "transcript") {
    await sql`
      insert into reviews (submission_id, output, action, reviewer_id, reason, saved_at, transcript_version_id)
      select ${base.submission_id}::uuid, ${base.output}, ${base.action}, ${base.reviewer_id}::uuid, ${base.reason},
             coalesce(v.created_at, now()), v.id
      from submissions s
      left join transcript_versions v on v.submission_id = s.id and v.file_key = s.translation_script
      where s.id = ${base.submission_id}::uuid`.execute(db);
  } else {
    await sql`
      insert into reviews (submission_id, output, action, reviewer_id, reason, saved_at, recording_id)
      select ${base.submission_id}::uuid, ${base.output}, ${base.action}, ${base.reviewer_id}::uuid, ${base.reason},
             coalesce(r.created_at, now()), r.id
      from submissions s
      left join translated_recordings r on r.submission_id = s.id and r.file_key = s.recorded_audio
      where s.id = ${base.submission_id}::uuid`.execute(db);
  }
}
