import type { Executor } from "../../connection";
import type { Category, ExportState, ExportStatusChoice } from "../../schema";
import { countedPage, countRows, type Page } from "../pagination";

/**
 * The exports table's rows (decision 019, "State in the database"): an export's choice, state,
 * progress and, once done, its zip; the Export page and `GET /api/exports` read them.
 */

/** An export as the Export page and `GET /api/exports` show it. */
export interface ExportRow {
  id: string;
  createdAt: Date;
  createdById: string | null;
  createdByUsername: string | null;
  category: Category | null;
  statusChoice: ExportStatusChoice;
  approvedFrom: string | null;
  approvedTo: string | null;
  chatSettings: unknown;
  choiceKey: string;
  contentKey: string | null;
  state: ExportState;
  done: number;
  total: number;
  fileKey: string | null;
  sizeBytes: number | null;
  reusedFiles: number;
  reusedArchive: boolean;
  error: string | null;
  finishedAt: Date | null;
  expiresAt: Date | null;
  updatedAt: Date;
  /** Whether participants with 'restricted' consent were included (decision 024). */
  includeRestricted: boolean;
  /** When a participant in it withdrew consent (its link then answers 410); null otherwise. */
  supersededAt: Date | null;
}

function exportColumns(db: Executor) {
  return db.selectFrom("exports").leftJoin("users", "users.id", "exports.createdBy").select([
    "exports.id",
    "exports.createdAt",
    "exports.createdBy as createdById",
    "users.username as createdByUsername",
    "exports.category",
    "exports.statusChoice",
    "exports.approvedFrom",
    "exports.approvedTo",
    "exports.chatSettings",
    "exports.choiceKey",
    "exports.contentKey",
    "exports.state",
    "exports.done",
    // Not "total": countedPage's count has that name.
    "exports.total as audios",
    "exports.fileKey",
    "exports.sizeBytes",
    "exports.reusedFiles",
    "exports.reusedArchive",
    "exports.error",
    "exports.finishedAt",
    "exports.expiresAt",
    "exports.updatedAt",
    "exports.includeRestricted",
    "exports.supersededAt",
  ]);
}

/** An export as read: its counts may come back as strings. */
type ReadExportRow = Omit<ExportRow, "sizeBytes" | "done" | "total" | "reusedFiles"> & {
  sizeBytes: string | number | null;
  done: number | string;
  audios: number | string;
  reusedFiles: number | string;
};

function toExportRow(row: ReadExportRow): ExportRow {
  const { audios, ...rest } = row;
  return {
    ...rest,
    sizeBytes: row.sizeBytes === null ? null : Number(row.sizeBytes),
    done: Number(row.done),
    total: Number(audios),
    reusedFiles: Number(row.reusedFiles),
  };
}

/**
 * Inserts a running export of the choice (decision 019: category or null for both, status choice,
 * the approval period's days as YYYY-MM-DD or null, the CHAT settings, the choice key, and whether
 * 'restricted' consent is included, decision 024); returns its id (a uuid).
 */
export async function insertExport(
  db: Executor,
  values: {
    createdBy: string;
    category: Category | null;
    statusChoice: ExportStatusChoice;
    approvedFrom: string | null;
    approvedTo: string | null;
    chatSettings: unknown;
    choiceKey: string;
    includeRestricted: boolean;
  },
): Promise<string> {
  const row = await db
    .insertInto("exports")
    .values({ ...values, chatSettings: JSON.stringify(values.chatSettings) })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/** One export, or null when there is none with that id (decision 019: the Export page's row). */
export async function findExport(db: Executor, id: string): Promise<ExportRow | null> {
  const row = await exportColumns(db).where("exports.id", "=", id).executeTakeFirst();
  return row ? toExportRow(row) : null;
}

/**
 * Page `page` (from 1) of every export, newest first, `limit` a page (index exports_created_at_idx),
 * with the total count: the Export page's list and `GET /api/exports` (decision 019).
 */
export function listExportPage(db: Executor, q: { page: number; limit: number }): Promise<Page<ExportRow>> {
  const rows = exportColumns(db).orderBy("exports.createdAt", "desc").orderBy("exports.id", "desc");
  return countedPage(db, {
    total: countRows(db.selectFrom("exports")),
    rows,
    order: [
      ["createdAt", "desc"],
      ["id", "desc"],
    ],
    page: q.page,
    limit: q.limit,
    pick: (r) => (r.id === null ? null : toExportRow(r as ReadExportRow)),
  });
}
