import { sql } from "kysely";
import type { Database } from "@tafsiri/db";

/**
 * The counts list_counts keeps (decision 016), as stored (each key's sum of deltas) and as
 * recomputed from the tables, both as { key: count } without zero counts, and whether every
 * audio's has_task matches whether it has a task.
 */
export async function listCountsStoredAndRecomputed(db: Database) {
  const stored = await sql<{ key: string; n: string }>`
    select key, sum(n) as n from list_counts group by key having sum(n) <> 0`.execute(db);
  const recomputed = await sql<{ key: string; n: string }>`
    select key, count(*) as n from (
      select 'audios:' || category as key from audios
      union all select 'unassigned:' || category from audios a where not exists (select 1 from tasks t where t.audio_id = a.id)
      union all select 'tasks' from tasks
      union all select 'recommendations' from recommendations
      union all select 'audit_log' from audit_log
      union all select 'submissions:all' from submissions
      union all select 'submissions:needsReview' from submissions
        where translation_script_approval_status = 'Pending' or recorded_audio_approval_status = 'Pending'
      union all select 'submissions:approved' from submissions where approval_status = 'Approved'
      union all select 'submissions:rejected' from submissions where approval_status = 'Rejected'
      union all select 'unread:' || recipient_id from notifications where not is_read
      union all select 'webhook_deliveries:' || endpoint_id from webhook_deliveries
      union all select 'submissions:' || t.assigned_to || ':' || f from submissions s join tasks t on t.id = s.task_id
        cross join lateral unnest(array_remove(array['all',
          case when s.translation_script_approval_status = 'Pending' or s.recorded_audio_approval_status = 'Pending' then 'needsReview' end,
          case s.approval_status when 'Approved' then 'approved' when 'Rejected' then 'rejected' end], null)) f
      union all select k.key from participants p cross join lateral (values
        ('participants:*:*'),
        ('participants:' || p.study_group || ':*'),
        ('participants:*:' || p.consent_status),
        ('participants:' || p.study_group || ':' || p.consent_status)) k(key)
    ) k group by key`.execute(db);
  const flags = await sql<{ wrong: string }>`
    select count(*) as wrong from audios a
    where a.has_task <> exists (select 1 from tasks t where t.audio_id = a.id)`.execute(db);
  const asRecord = (rows: Array<{ key: string; n: string }>) =>
    Object.fromEntries(rows.map((r) => [r.key, Number(r.n)]).sort(([a], [b]) => String(a).localeCompare(String(b))));
  return {
    stored: asRecord(stored.rows),
    recomputed: asRecord(recomputed.rows),
    wrongFlags: Number(flags.rows[0]?.wrong ?? 0),
  };
}
