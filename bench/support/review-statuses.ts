import { sql, type RawBuilder } from "kysely";

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
