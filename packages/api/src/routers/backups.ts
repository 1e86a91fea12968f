import { adminProcedure, router, sensitiveAdminProcedure } from "../trpc";
import { REAUTH_STATUS } from "../services/identity-checks";
import { ZBackupDeleted, ZBackupDownload, ZBackupList, ZBackupNameInput, ZBackupStarted } from "../schemas/backups";
import { backUpNow, backupDownloadLink, deleteBackup, listBackups } from "../services/backups";

const BACKUPS = ["Backups"];
const REFUSALS = "401 without a session, 403 for staff.";
const NAMES =
  "400 'Unknown archive name: use a name the list of backups gives (tafsiri-backup-{time}.zip).' for any other " +
  "name (no folders, no `..`), 404 'Backup not found: it may have been deleted or pruned.', 503 when this process " +
  "offers no backups";

/** Decision 027: the Backups page (Management → Backups); admins only (FORBIDDEN otherwise). */
export const backupsRouter = router({
  /**
   * → `{ folder, scheduled, archives, running, lastFailure }`: the archives of the backup folder,
   * newest first (time, size in bytes, who, the manifest's summary), the backup being written and
   * the last failed 'Back up now' (listBackups).
   */
  list: adminProcedure
    .meta({
      rest: {
        method: "GET",
        path: "/api/backups",
        summary: "List the backup archives",
        description:
          'SPEC §6 (Admin only); decision 027 (docs/operations.md "Backups and restore"). The archives in the backup folder ' +
          "(BACKUP_DIR, else DATA_DIR/backups), newest first: name, start time, size in bytes, who took it " +
          "('schedule', an admin's username, or null when unknown: the CLI) and the manifest's summary (rows, tables, " +
          "files, their bytes, database kind, last migration); `running` while 'Back up now' writes one. " +
          REFUSALS,
        tags: BACKUPS,
      },
    })
    .output(ZBackupList)
    .query(({ ctx }) => listBackups(ctx, ctx.user)),
  /**
   * → `{ name, message }`: starts a backup now (backUpNow; the same writeBackup under the same
   * `backup` job lock as the schedule), written in the background. CONFLICT while one is written.
   */
  create: adminProcedure
    .meta({
      rest: {
        method: "POST",
        path: "/api/backups",
        summary: "Back up now",
        description:
          "SPEC §6 (Admin only); decision 027. Starts a backup of the database (one snapshot) and every stored file it points at into the " +
          "backup folder, under the `backup` job lock the scheduled backups take, and answers 202 with the archive's " +
          "name at once; GET /api/backups shows it as `running` until it is whole. Works on the embedded database " +
          "while the server serves (the server itself dumps it). 409 'A backup is being written already; wait for it " +
          `to finish.', 503 when this process offers no backups. ${REFUSALS}`,
        tags: BACKUPS,
        status: 202,
        done: true,
      },
    })
    .output(ZBackupStarted)
    .mutation(({ ctx }) => backUpNow(ctx, ctx.user)),
  /** `{ name }` → `{ url }`: a link to download the archive, valid 5 minutes, audited when followed (backupDownloadLink). */
  download: sensitiveAdminProcedure
    .meta({
      rest: {
        method: "GET",
        path: "/api/backups/:name/download",
        params: { name: "name" },
        summary: "Get a backup archive's download link",
        description:
          "SPEC §6 (Admin only); decision 027. A signed link (no Authorization header needed) to stream the archive, valid for 5 minutes and " +
          `only for the admin who asked; following it is audited. ${NAMES}, ${REFUSALS} ${REAUTH_STATUS}`,
        tags: BACKUPS,
      },
    })
    .input(ZBackupNameInput)
    .output(ZBackupDownload)
    .query(({ ctx, input }) => backupDownloadLink(ctx, ctx.user, input.name)),
  /** `{ name }` → `{ message }`: deletes the archive, audited (deleteBackup). */
  delete: adminProcedure
    .meta({
      rest: {
        method: "DELETE",
        path: "/api/backups/:name",
        params: { name: "name" },
        summary: "Delete a backup archive",
        description: `SPEC §6 (Admin only); decision 027. Deletes the archive from the backup folder; audited. ${NAMES}, ${REFUSALS}`,
        tags: BACKUPS,
        done: true,
      },
    })
    .input(ZBackupNameInput)
    .output(ZBackupDeleted)
    .mutation(({ ctx, input }) => deleteBackup(ctx, ctx.user, input.name)),
});
