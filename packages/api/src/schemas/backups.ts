import { z } from "zod";

/** Decision 027: the messages of the Backups page. */
export const BACKUP_NAME_INVALID =
  "Unknown archive name: use a name the list of backups gives (tafsiri-backup-{time}.zip).";
export const BACKUP_NOT_FOUND = "Backup not found: it may have been deleted or pruned.";
export const BACKUP_BUSY = "A backup is being written already; wait for it to finish.";

/** An archive's name as the listing gives it: `tafsiri-backup-2026-12-07T05-10-00.000Z.zip`, nothing else. */
const ZArchiveName = z
  .string({ error: BACKUP_NAME_INVALID })
  .regex(/^tafsiri-backup-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}\.\d{3}Z\.zip$/, BACKUP_NAME_INVALID);

/** `{ name }`: one archive of the listing. */
export const ZBackupNameInput = z.object({ name: ZArchiveName });

const EXAMPLE_SUMMARY = {
  createdAt: "2026-12-07T05:10:00.412Z",
  appVersion: "v1.4.0",
  databaseKind: "pglite" as const,
  lastMigration: "20261211001100_api_tokens",
  tables: 41,
  rows: 1873,
  files: 212,
  fileBytes: 734_003_200,
};

/** One archive: its time, size in bytes, who took it and its manifest's summary. */
const ZBackupArchive = z.object({
  name: z.string(),
  /** When its backup started (ISO 8601, from its name). */
  at: z.string(),
  sizeBytes: z.number().int(),
  /** Who took it: an admin's username, 'schedule', or null when unknown (the CLI, or its audit entry is gone). */
  by: z.string().nullable(),
  /** The manifest's summary; null when the archive cannot be read (damaged). */
  summary: z
    .object({
      createdAt: z.string(),
      appVersion: z.string(),
      databaseKind: z.enum(["postgres", "pglite"]),
      lastMigration: z.string().nullable(),
      tables: z.number().int(),
      rows: z.number().int(),
      files: z.number().int(),
      fileBytes: z.number(),
    })
    .nullable(),
});

/** The Backups page: the folder, its archives newest first, the backup being written and the last failure. */
export const ZBackupList = z
  .object({
    /** The backup folder; null when this server process offers no backups (built without one). */
    folder: z.string().nullable(),
    /** Whether the server also backs up on a schedule (BACKUP_DIR set). */
    scheduled: z.boolean(),
    archives: z.array(ZBackupArchive),
    running: z.object({ name: z.string(), startedAt: z.string(), by: z.string().nullable() }).nullable(),
    lastFailure: z.object({ name: z.string(), error: z.string(), at: z.string() }).nullable(),
  })
  .meta({
    examples: [
      {
        folder: "/srv/tafsiri/backups",
        scheduled: true,
        archives: [
          {
            name: "tafsiri-backup-2026-12-07T05-10-00.000Z.zip",
            at: "2026-12-07T05:10:00.000Z",
            sizeBytes: 734_912_512,
            by: "amina",
            summary: EXAMPLE_SUMMARY,
          },
        ],
        running: null,
        lastFailure: null,
      },
    ],
  });

/** 'Back up now' started: the archive's name and a message. */
export const ZBackupStarted = z.object({ name: z.string(), message: z.string() }).meta({
  examples: [
    {
      name: "tafsiri-backup-2026-12-07T05-10-00.000Z.zip",
      message: "Backup started: tafsiri-backup-2026-12-07T05-10-00.000Z.zip.",
    },
  ],
});

/** A signed link to download an archive. */
export const ZBackupDownload = z.object({ url: z.string() }).meta({
  examples: [
    {
      url: "/api/backups/tafsiri-backup-2026-12-07T05-10-00.000Z.zip/file?by=7c0e…&expires=1796533800&signature=Jx0…",
    },
  ],
});

/** `{ message }` after a change. */
export const ZBackupDeleted = z
  .object({ message: z.string() })
  .meta({ examples: [{ message: "Deleted tafsiri-backup-2026-12-07T05-10-00.000Z.zip." }] });
