import type { Database } from "@tafsiri/db";
import { insertAuditEntry } from "@tafsiri/db/repositories/audit-log";

/**
 * Decision 027: the audit entry of a backup that wrote archive `file` (action `backup`, entity
 * `archive`, id the file name), with actor `actorId`: null for the schedule, the admin who pressed
 * 'Back up now'. Throws what the insert throws.
 */
export async function auditBackup(
  db: Database,
  file: string,
  detail: { bytes: number; files: number; rows: number; durationMs: number; removed: string[] },
  actorId: string | null = null,
): Promise<void> {
  await insertAuditEntry(db, actorId, "backup", "archive", file, { file, ...detail });
}

/**
 * Decision 027: the audit entry of a backup that failed (action `backup-failed`, entity `archive`,
 * no id; detail file, error, durationMs), with actor `actorId` (null: the schedule). Throws what
 * the insert throws.
 */
export async function auditBackupFailure(
  db: Database,
  detail: { file: string; error: string; durationMs: number },
  actorId: string | null = null,
): Promise<void> {
  await insertAuditEntry(db, actorId, "backup-failed", "archive", null, detail);
}
