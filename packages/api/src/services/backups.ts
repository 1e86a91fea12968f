import { promises as fs } from "node:fs";
import { insertAuditEntry } from "@tafsiri/db/repositories/audit-log";
import { backupAuthors } from "@tafsiri/db/repositories/backup-archives";
import { findSessionUser, findUserRef } from "@tafsiri/db/repositories/users";
import type { AppDeps, SessionUser } from "../context";
import { AppError } from "../errors/app-error";
import { backupArchiveFiles, findBackupArchive, readBackupSummary, type BackupDesk } from "../backup/backup-desk";
import { isBackupArchiveName } from "../backup/backup-folder";
import { BACKUP_BUSY, BACKUP_NAME_INVALID, BACKUP_NOT_FOUND } from "../schemas/backups";
import { requireAdmin } from "./access";
import { signedQuery, verifyFileUrl } from "./file-urls";

/** How long a backup's download link stays valid, in seconds (5 minutes: it is followed at once). */
const BACKUP_LINK_TTL_SECONDS = 5 * 60;

const BACKUPS_OFF = "Backups are not offered by this server process.";

/** The desk, or SERVICE_UNAVAILABLE when this process was built without one. */
function deskOf(deps: AppDeps): BackupDesk {
  if (!deps.backups) throw new AppError("SERVICE_UNAVAILABLE", BACKUPS_OFF);
  return deps.backups;
}

/** What the signature of a download link covers: the archive and the admin it was made for. */
const linkSubject = (name: string, userId: string) => `backup\n${name}\n${userId}`;

/**
 * Decision 027 (the Backups page): the archives of the backup folder, newest first, each with its
 * start time, size in bytes, who took it ('schedule', an admin's username, or null when no audit
 * entry says: the CLI) and its manifest's summary (null when the archive cannot be read); the
 * backup being written and the last failed 'Back up now'. Admins only (FORBIDDEN). Without a
 * desk in this process, `folder` is null and the lists are empty.
 */
export async function listBackups(deps: AppDeps, user: SessionUser) {
  requireAdmin(user);
  const desk = deps.backups;
  if (!desk) return { folder: null, scheduled: false, archives: [], running: null, lastFailure: null };
  const files = await backupArchiveFiles(desk.dir);
  const authors = new Map(
    (
      await backupAuthors(
        deps.db,
        files.map((f) => f.name),
      )
    ).map((a) => [a.name, a]),
  );
  const archives = await Promise.all(
    files.map(async (f) => {
      const author = authors.get(f.name);
      return {
        name: f.name,
        at: f.at.toISOString(),
        sizeBytes: f.sizeBytes,
        by: author ? (author.actorId === null ? "schedule" : (author.username ?? "a deleted account")) : null,
        summary: await readBackupSummary(f.file, f.sizeBytes).catch(() => null),
      };
    }),
  );
  const running = desk.running();
  const runningBy = running ? ((await findUserRef(deps.db, running.actorId))?.username ?? null) : null;
  const failure = desk.lastFailure();
  return {
    folder: desk.dir,
    scheduled: desk.scheduled,
    archives,
    running: running ? { name: running.name, startedAt: running.startedAt.toISOString(), by: runningBy } : null,
    lastFailure: failure ? { name: failure.name, error: failure.error, at: failure.at.toISOString() } : null,
  };
}

/**
 * Decision 027 ('Back up now'): starts a backup of the database and every stored file into the
 * backup folder, under the `backup` job lock the scheduled backups take, and answers at once with
 * the archive's name; the archive appears in listBackups when whole (`running` meanwhile). Admins
 * only (FORBIDDEN); CONFLICT BACKUP_BUSY while a backup is being written (here, by the schedule or
 * by another process); SERVICE_UNAVAILABLE without a desk.
 */
export async function backUpNow(deps: AppDeps, user: SessionUser): Promise<{ name: string; message: string }> {
  requireAdmin(user);
  const name = await deskOf(deps).start(user.id);
  if (!name) throw new AppError("CONFLICT", BACKUP_BUSY);
  return { name, message: `Backup started: ${name}.` };
}

/** The archive `name` of the desk's folder, or BAD_REQUEST for a name that is not an archive's, NOT_FOUND for a missing one. */
async function archiveNamed(desk: BackupDesk, name: string) {
  if (!isBackupArchiveName(name)) throw new AppError("BAD_REQUEST", BACKUP_NAME_INVALID);
  const archive = await findBackupArchive(desk.dir, name);
  if (!archive) throw new AppError("NOT_FOUND", BACKUP_NOT_FOUND);
  return archive;
}

/**
 * Decision 027: a link to download archive `name`, valid for 5 minutes and only for the admin
 * who asked (`/api/backups/{name}/file?by=…&expires=…&signature=…`; the download is audited when
 * it is followed). Admins only (FORBIDDEN); BAD_REQUEST for a name that is not an archive's;
 * NOT_FOUND when there is no such archive.
 */
export async function backupDownloadLink(deps: AppDeps, user: SessionUser, name: string): Promise<{ url: string }> {
  requireAdmin(user);
  await archiveNamed(deskOf(deps), name);
  const query = signedQuery(deps.jwtSecret, linkSubject(name, user.id), BACKUP_LINK_TTL_SECONDS);
  return { url: `/api/backups/${encodeURIComponent(name)}/file?by=${encodeURIComponent(user.id)}&${query}` };
}

/**
 * Decision 027, for the route a download link points at: checks the link (signature, expiry, that
 * `by` is still an active admin) and audits the download (action `download`, entity `archive`).
 * Resolves with the archive's path and size; FORBIDDEN 'This link has expired or is invalid.'
 * for a bad link, BAD_REQUEST / NOT_FOUND as backupDownloadLink.
 */
export async function openBackupDownload(
  deps: AppDeps,
  link: { name: string; by?: string | undefined; expires?: string | undefined; signature?: string | undefined },
): Promise<{ file: string; sizeBytes: number; name: string }> {
  const desk = deskOf(deps);
  if (!isBackupArchiveName(link.name)) throw new AppError("BAD_REQUEST", BACKUP_NAME_INVALID);
  const by = link.by ?? "";
  const invalid = new AppError("FORBIDDEN", "This link has expired or is invalid.");
  if (!verifyFileUrl(deps.jwtSecret, linkSubject(link.name, by), link.expires, link.signature)) throw invalid;
  // The signature covers `by`, so it is the id the link was made for.
  const admin = await findSessionUser(deps.db, by);
  if (!admin || admin.role !== "Admin" || !admin.active) throw invalid;
  const archive = await archiveNamed(desk, link.name);
  await insertAuditEntry(deps.db, admin.id, "download", "archive", archive.name, {
    file: archive.name,
    bytes: archive.sizeBytes,
  });
  return { file: archive.file, sizeBytes: archive.sizeBytes, name: archive.name };
}

/**
 * Decision 027: deletes archive `name` from the backup folder, audited (action `delete`, entity
 * `archive`). Admins only (FORBIDDEN); BAD_REQUEST for a name that is not an archive's; NOT_FOUND
 * when there is none.
 */
export async function deleteBackup(deps: AppDeps, user: SessionUser, name: string): Promise<{ message: string }> {
  requireAdmin(user);
  const archive = await archiveNamed(deskOf(deps), name);
  await fs.rm(archive.file, { force: true });
  await insertAuditEntry(deps.db, user.id, "delete", "archive", archive.name, {
    file: archive.name,
    bytes: archive.sizeBytes,
  });
  return { message: `Deleted ${archive.name}.` };
}
