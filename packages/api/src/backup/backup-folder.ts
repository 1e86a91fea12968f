import { promises as fs } from "node:fs";

/** The archives' names: `tafsiri-backup-2026-11-26T14-05-01.123Z.zip` (UTC, colons as dashes). */
const ARCHIVE_NAME = /^tafsiri-backup-(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2}\.\d{3})Z\.zip$/;

/** The archive name of a backup started at `at`: `tafsiri-backup-{UTC time, filename-safe}.zip` (decision 027). */
export function backupFileName(at: Date): string {
  return `tafsiri-backup-${at.toISOString().replace(/:/g, "-")}.zip`;
}

/**
 * Decision 027: true when `name` is exactly an archive name backupFileName makes (no folder, no
 * `..`, no other file), the only names the Backups page accepts from a client.
 */
export function isBackupArchiveName(name: string): boolean {
  return ARCHIVE_NAME.test(name);
}

/** One archive in the backup folder. */
export interface BackupArchive {
  name: string;
  /** When its backup started, from its name. */
  at: Date;
}

/**
 * Decision 027: the complete archives in `dir` (files named as backupFileName names them;
 * `.partial` files and every other file left out), oldest first. A missing folder has none.
 * Rejects when `dir` cannot be read.
 */
export async function listBackupArchives(dir: string): Promise<BackupArchive[]> {
  const names = await fs.readdir(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return [];
    throw error;
  });
  const archives: BackupArchive[] = [];
  for (const name of names) {
    const m = ARCHIVE_NAME.exec(name);
    if (!m) continue;
    const at = new Date(`${m[1]}T${m[2]}:${m[3]}:${m[4]}Z`);
    if (!Number.isNaN(at.getTime())) archives.push({ name, at });
  }
  return archives.sort((a, b) => a.at.getTime() - b.at.getTime() || a.name.localeCompare(b.name));
}
