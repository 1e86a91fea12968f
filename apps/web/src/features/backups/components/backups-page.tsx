import { useState } from "react";
import { formatFileSize } from "@tafsiri/ui/drop-zone";
import "#web/features/backups/backups.css";
import { ConfirmDialog } from "#web/components/confirm-dialog";
import { DataTable } from "#web/components/data-table";
import { displayTime, shortTime } from "#web/lib/dates";
import { errorMessage } from "#web/lib/trpc";
import {
  useBackUpNow,
  useBackups,
  useDeleteBackup,
  useDownloadBackup,
  type BackupListing,
} from "#web/features/backups/hooks/use-backups";

const COLUMNS = ["Taken", "Size", "By", "Contents", "Actions"] as const;

type Archive = BackupListing["archives"][number];

/** The manifest's summary in words: "1,873 rows in 41 tables, 212 files (700.0 MB), PGlite". */
function contentsInWords(summary: Archive["summary"]): string {
  if (!summary) return "Cannot be read (damaged?)";
  const db = summary.databaseKind === "pglite" ? "embedded database" : "PostgreSQL";
  return (
    `${summary.rows.toLocaleString("en")} rows in ${summary.tables} tables, ` +
    `${summary.files.toLocaleString("en")} file${summary.files === 1 ? "" : "s"} (${formatFileSize(summary.fileBytes)}), ${db}`
  );
}

/** One archive: when, size, who, contents; Download and Delete (confirmed). */
function BackupRow({ archive }: { archive: Archive }) {
  const [confirming, setConfirming] = useState(false);
  const remove = useDeleteBackup();
  const download = useDownloadBackup();
  return (
    <tr>
      <td>
        <time dateTime={archive.at} title={displayTime(archive.at).full}>
          {shortTime(archive.at)}
        </time>
        <div className="muted backup-name">{archive.name}</div>
      </td>
      <td>{formatFileSize(archive.sizeBytes)}</td>
      <td>{archive.by ?? "unknown (the command line)"}</td>
      <td>{contentsInWords(archive.summary)}</td>
      <td>
        <div className="backup-actions">
          <button
            type="button"
            className="btn"
            aria-label={`Download ${archive.name}`}
            disabled={download.isPending}
            onClick={() => download.mutate(archive.name)}
          >
            Download
          </button>
          <ConfirmDialog
            open={confirming}
            onOpenChange={setConfirming}
            trigger={
              <button type="button" className="btn btn-danger" aria-label={`Delete ${archive.name}`}>
                Delete
              </button>
            }
            title="Delete this backup?"
            description={`${archive.name} will be removed from the backup folder for good.`}
            confirmLabel="Delete backup"
            pending={remove.isPending}
            onConfirm={() => remove.mutate({ name: archive.name }, { onSuccess: () => setConfirming(false) })}
          >
            {remove.error ? (
              <p role="alert" className="form-error">
                {errorMessage(remove.error)}
              </p>
            ) : null}
          </ConfirmDialog>
        </div>
        {download.error ? (
          <p role="alert" className="form-error">
            {errorMessage(download.error)}
          </p>
        ) : null}
      </td>
    </tr>
  );
}

/**
 * The Backups page (Management → Backups, Admin; decision 027): 'Back up now' (disabled, with a
 * spinner, while a backup is written; the list is read again until it is whole), the archives of
 * the backup folder newest first with time, size, who took it and the manifest's summary, each
 * with Download and Delete (confirmed), and the restore procedure of docs/operations.md in brief.
 * Loading, empty and error states.
 */
export function BackupsPage() {
  const backups = useBackups();
  const backUp = useBackUpNow();
  const running = backups.data?.running ?? null;
  const busy = backUp.isPending || running !== null;

  const body = () => {
    if (backups.isPending) {
      return (
        <tr>
          <td colSpan={COLUMNS.length} className="empty-state" role="status">
            <span className="spinner" aria-hidden="true" /> Loading backups…
          </td>
        </tr>
      );
    }
    if (backups.isError && !backups.data) {
      return (
        <tr>
          <td colSpan={COLUMNS.length} className="empty-state" role="alert">
            <p>Failed to load the backups.</p>
            <button type="button" className="btn" onClick={() => void backups.refetch()}>
              Retry
            </button>
          </td>
        </tr>
      );
    }
    if (backups.data.archives.length === 0) {
      return (
        <tr>
          <td colSpan={COLUMNS.length} className="empty-state">
            No backups yet.
          </td>
        </tr>
      );
    }
    return backups.data.archives.map((archive) => <BackupRow key={archive.name} archive={archive} />);
  };

  const data = backups.data;
  return (
    <div className="stack backups-page">
      <section aria-labelledby="backup-now-title" className="stack">
        <h2 className="section-title" id="backup-now-title">
          Back up
        </h2>
        <p>
          A backup is one archive of the database and every stored file, taken while the server serves.
          {data?.folder ? (
            <>
              {" "}
              Archives are written to <code>{data.folder}</code>
              {data.scheduled ? ", beside the scheduled backups." : " (no scheduled backups: BACKUP_DIR is not set)."}
            </>
          ) : null}
        </p>
        <div>
          <button
            type="button"
            className="btn btn-primary"
            disabled={busy || backups.isPending || data?.folder === null}
            onClick={() => backUp.mutate()}
          >
            {busy ? <span className="spinner" aria-hidden="true" /> : null}
            {busy ? "Backing up…" : "Back up now"}
          </button>
        </div>
        <div role="status" aria-live="polite">
          {running ? `Writing ${running.name}…` : null}
        </div>
        {backUp.error ? (
          <p role="alert" className="form-error">
            {errorMessage(backUp.error)}
          </p>
        ) : null}
        {data?.lastFailure && !running ? (
          <p role="alert" className="form-error">
            The backup {data.lastFailure.name} failed: {data.lastFailure.error}
          </p>
        ) : null}
      </section>
      <DataTable id="backups-table-title" title="Archives" columns={COLUMNS} className="backups-table">
        {body()}
      </DataTable>
      <section aria-labelledby="restore-title" className="stack">
        <h2 className="section-title" id="restore-title">
          Restoring a backup
        </h2>
        <ol>
          <li>Download the archive and copy it to the machine that will serve.</li>
          <li>
            Stop the server. Restore only into empty targets: a new DATA_DIR (and, on PostgreSQL, an empty database).
          </li>
          <li>
            Run <code>npm run restore -- tafsiri-backup-….zip</code> with that machine's settings (DATA_DIR,
            DATABASE_URL, STORAGE). It checks every file against the archive's manifest and refuses a target that is not
            empty.
          </li>
          <li>Start the server again.</li>
        </ol>
        <p className="muted">
          The whole procedure, with object storage and PostgreSQL: <code>docs/operations.md</code>, “Backups and
          restore”.
        </p>
      </section>
    </div>
  );
}
