import { sql, type Kysely, type RawBuilder } from "kysely";

/**
 * SQL: the transcript's approval status for a percentile column (0 to 99) as a running project
 * spreads them: 5% 'No transcript', 15% Pending, 70% Approved, 10% Rejected.
 */
export function transcriptStatus(percentile: string): RawBuilder<string> {
  const t = sql.ref(percentile);
  return sql`case when ${t} < 5 then 'No transcript' when ${t} < 20 then 'Pending' when ${t} < 90 then 'Approved'
                  else 'Rejected' end`;
}

/**
 * SQL: the recording's approval status for a percentile column (0 to 99): 15% 'No translation
 * audio', 15% Pending, 62% Approved, 8% Rejected.
 */
export function recordingStatus(percentile: string): RawBuilder<string> {
  const r = sql.ref(percentile);
  return sql`case when ${r} < 15 then 'No translation audio' when ${r} < 30 then 'Pending' when ${r} < 92 then 'Approved'
                  else 'Rejected' end`;
}

/**
 * SQL: a submission's approval_status from its transcript's and recording's status columns, as
 * the reviews derive it (services/submissions.ts): Approved when both are, Rejected when either
 * is, otherwise Pending.
 */
export function approvalStatus(transcript: string, recording: string): RawBuilder<string> {
  const [t, r] = [sql.ref(transcript), sql.ref(recording)];
  return sql`case when ${t} = 'Approved' and ${r} = 'Approved' then 'Approved'
                when ${t} = 'Rejected' or ${r} = 'Rejected' then 'Rejected'
                else 'Pending' end`;
}

/**
 * Sets every task's stage statuses and is_complete from its submission's, as applyTransition
 * does (SPEC §4): a stage is Completed when its output is Approved, otherwise In Progress. With
 * `updatedAt`, the task's updated_at becomes the submission's too. Resolves when updated.
 */
export async function deriveTaskStatuses<DB>(db: Kysely<DB>, { updatedAt }: { updatedAt: boolean }): Promise<void> {
  await sql`
    update tasks t
    set translation_status = case when s.translation_script_approval_status = 'Approved' then 'Completed'
                                  else 'In Progress' end,
        recording_status = case when s.recorded_audio_approval_status = 'Approved' then 'Completed'
                                else 'In Progress' end,
        is_complete = s.approval_status = 'Approved'${updatedAt ? sql`, updated_at = s.updated_at` : sql``}
    from submissions s where s.task_id = t.id`.execute(db);
}
