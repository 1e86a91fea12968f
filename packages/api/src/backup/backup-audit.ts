import type { Database } from "@tafsiri/db";
import { insertAuditEntry } from "@tafsiri/db/repositories/audit-log";

/**
 * Decision 027: the audit entry of a scheduled backup that wrote archive `file`, with actor null
 * (action `backup`, entity `archive`, id the file name). Throws what the insert throws.
 */
export async function auditBackup(
  db: Database,
  file: string,
  detail: { bytes: number; files: number; rows: number; durationMs: number; removed: string[] },
): Promise<void> {
  await insertAuditEntry(db, null, "backup", "archive", file, { file, ...detail });
}

/**
 * Decision 027: the audit entry of a scheduled backup that failed (action `backup-failed`, entity
 * `archive`, no id; detail file, error, durationMs). Throws what the insert throws.
 */
export async function auditBackupFailure(
  db: Database,
  detail: { file: string; error: string; durationMs: number },
): Promise<void> {
  await insertAuditEntry(db, null, "backup-failed", "archive", null, detail);
}
