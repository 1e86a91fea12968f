import type { Executor } from "../../connection";

/**
 * What the file route asks about a stored zip (decision 019 "The link", decision 024): the name it
 * is downloaded under, and whether its export was superseded.
 */

/**
 * The download name of an export's zip, when storage key `key` is one: `tafsiri-export-{date}.zip`
 * (the day, UTC, the first export offering it finished); null when no export offers it.
 */
export async function exportFileName(db: Executor, key: string): Promise<string | null> {
  const row = await db
    .selectFrom("exports")
    .select("finishedAt")
    .where("fileKey", "=", key)
    .orderBy("finishedAt", "asc")
    .executeTakeFirst();
  if (!row) return null;
  return `tafsiri-export-${(row.finishedAt ?? new Date()).toISOString().slice(0, 10)}.zip`;
}

/**
 * Whether the zip stored at `key` belongs to a superseded export (one of the exports offering it:
 * a later export of the same choice may offer an earlier zip again); its link then answers 410
 * (decision 024).
 */
export async function isSupersededExportFile(db: Executor, key: string): Promise<boolean> {
  const row = await db
    .selectFrom("exports")
    .select("id")
    .where("fileKey", "=", key)
    .where("supersededAt", "is not", null)
    .executeTakeFirst();
  return row !== undefined;
}
