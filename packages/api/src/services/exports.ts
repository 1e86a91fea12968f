import { insertAuditEntry } from "@tafsiri/db/repositories/audit-log";
import {
  countRunningExports,
  failAbandonedExports,
  failExport,
  findExport,
  insertExport,
  isSupersededExportFile,
  listExportPage,
  lockExportStarts,
  runningExportOf,
  type ExportRow,
} from "@tafsiri/db/repositories/exports";
import type { Executor } from "@tafsiri/db";
import type { AppDeps, SessionUser } from "../context";
import { AppError } from "../errors/app-error";
import { EXPORT_ABANDONED_AFTER_MS, runExport, type ExportPlan } from "../export/run-export";
import { recordEvent } from "../live/record";
import {
  EXPORT_EXPIRED,
  EXPORT_NOT_FOUND,
  EXPORT_NOT_READY,
  EXPORT_PERIOD_ORDER,
  EXPORT_SUPERSEDED,
  EXPORTS_BUSY,
  ZChatSettings,
  type ExportChoice,
  type ExportDownload,
  type ExportItem,
  type ExportList,
} from "../schemas/exports";
import { requireAdmin } from "./access";
import { signFileUrl } from "./file-urls";
import { periodInstant } from "./statistics";

/** The most exports running at once, across every server process. */
export const MAX_RUNNING_EXPORTS = 3;
/** What an abandoned export (its server stopped mid-way) says. */
const EXPORT_ABANDONED = "The server stopped while this export was running. Start it again.";

/** The jobs this process runs now, by export id (exportJobsIdle waits for them). */
const jobs = new Map<string, Promise<void>>();

/** Resolves once every export job this process started has ended (tests). */
export async function exportJobsIdle(): Promise<void> {
  while (jobs.size > 0) await Promise.all([...jobs.values()]);
}

/**
 * At shutdown: marks failed ('The server stopped while this export was running. Start it again.')
 * the exports this process is still writing, so the Export page does not show them running.
 */
export async function abandonExportJobs(deps: Pick<AppDeps, "db">): Promise<void> {
  for (const id of jobs.keys()) await failExport(deps.db, id, EXPORT_ABANDONED);
}

/** The day after an ISO date (YYYY-MM-DD). */
function nextDay(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

/** Where an export is as the Export page shows it (`now`: ms); a superseded one stays so once expired. */
function shownState(row: ExportRow, now: number): ExportItem["state"] {
  if (row.state === "running" || row.state === "failed") return row.state;
  if (row.supersededAt !== null) return "superseded";
  if (row.expiresAt === null || row.expiresAt.getTime() <= now || row.fileKey === null) return "expired";
  return "ready";
}

/**
 * An export as the Export page shows it, with a download link while it is ready (`now`: ms); a
 * superseded export (decision 024) has state 'superseded' and no link.
 */
function exportItem(deps: Pick<AppDeps, "jwtSecret">, row: ExportRow, now = Date.now()): ExportItem {
  const state = shownState(row, now);
  const ready = state === "ready";
  const chat = ZChatSettings.safeParse(row.chatSettings);
  return {
    id: row.id,
    createdAt: row.createdAt.toISOString(),
    createdBy:
      row.createdById && row.createdByUsername ? { id: row.createdById, username: row.createdByUsername } : null,
    category: row.category ?? "both",
    status: row.statusChoice,
    approvedFrom: row.approvedFrom,
    approvedTo: row.approvedTo,
    chat: chat.success ? chat.data : ZChatSettings.parse({}),
    includeRestricted: row.includeRestricted,
    state,
    done: row.done,
    total: row.total,
    sizeBytes: row.sizeBytes,
    reusedFiles: row.reusedFiles,
    reusedArchive: row.reusedArchive,
    error: row.error,
    finishedAt: row.finishedAt?.toISOString() ?? null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    supersededAt: row.supersededAt?.toISOString() ?? null,
    downloadUrl:
      ready && row.fileKey && row.expiresAt
        ? signFileUrl(deps.jwtSecret, row.fileKey, Math.floor((row.expiresAt.getTime() - now) / 1000), now)
        : null,
  };
}

/**
 * Management → Export (decision 019): starts a dataset export of `choice` as a background job
 * in this process (runExport) and answers it running, `done` 0. A running export of the same
 * choice is answered instead of starting a second; whether restricted consent is included is part
 * of the choice (decision 024), so exports of either are never taken for each other. Audited ('export'); announced to the admins
 * ('export.changed'). Exports the server abandoned (it stopped mid-way) are marked failed first.
 * Throws FORBIDDEN for staff, BAD_REQUEST 'The first day must not be after the last day.',
 * TOO_MANY_REQUESTS when MAX_RUNNING_EXPORTS are running.
 */
export async function startExport(deps: AppDeps, user: SessionUser, choice: ExportChoice): Promise<ExportItem> {
  requireAdmin(user);
  const approvedFrom = choice.approvedFrom ?? null;
  const approvedTo = choice.approvedTo ?? null;
  if (approvedFrom && approvedTo && approvedFrom > approvedTo) throw new AppError("BAD_REQUEST", EXPORT_PERIOD_ORDER);
  const timeZone = deps.timezone ?? "UTC";
  const category = choice.category === "both" ? null : choice.category;
  const choiceKey = JSON.stringify([
    category,
    choice.status,
    approvedFrom,
    approvedTo,
    choice.chat,
    choice.includeRestricted,
  ]);
  const plan: Omit<ExportPlan, "exportId"> = {
    choiceKey,
    chat: choice.chat,
    selection: {
      category,
      statusChoice: choice.status,
      approvedFrom: approvedFrom ? periodInstant(approvedFrom, timeZone) : null,
      approvedBefore: approvedTo ? periodInstant(nextDay(approvedTo), timeZone) : null,
      includeRestricted: choice.includeRestricted,
    },
  };

  const started = await deps.db.transaction().execute(async (trx) => {
    // One start at a time (a double click, two admins): the second finds the first one running.
    await lockExportStarts(trx);
    await failAbandonedExports(trx, EXPORT_ABANDONED_AFTER_MS, EXPORT_ABANDONED);
    const running = await runningExportOf(trx, choiceKey);
    if (running) return { id: running, isNew: false };
    if ((await countRunningExports(trx)) >= MAX_RUNNING_EXPORTS) throw new AppError("TOO_MANY_REQUESTS", EXPORTS_BUSY);
    const id = await insertExport(trx, {
      createdBy: user.id,
      category,
      statusChoice: choice.status,
      approvedFrom,
      approvedTo,
      chatSettings: choice.chat,
      choiceKey,
      includeRestricted: choice.includeRestricted,
    });
    await insertAuditEntry(trx, user.id, "export", "export", id, {
      category: choice.category,
      status: choice.status,
      approvedFrom,
      approvedTo,
      chat: choice.chat,
      includeRestricted: choice.includeRestricted,
    });
    await recordEvent(trx, { audience: "admins", kind: "export.changed", payload: { exportId: id } });
    return { id, isNew: true };
  });
  deps.events.poke();
  if (started.isNew) {
    const job = runExport(deps, { ...plan, exportId: started.id }).finally(() => jobs.delete(started.id));
    jobs.set(started.id, job);
  }
  const row = await findExport(deps.db, started.id);
  if (!row) throw new AppError("NOT_FOUND", EXPORT_NOT_FOUND);
  return exportItem(deps, row);
}

/**
 * Page `page` (from 1) of every export, newest first, `limit` a page, each with
 * its state, progress (`done` of `total` audios) and, while ready, its signed download link (valid
 * until 24 hours after it finished). One SQL statement. Throws FORBIDDEN for staff.
 */
export async function listExports(
  deps: AppDeps,
  user: SessionUser,
  input: { page: number; limit: number },
): Promise<ExportList> {
  requireAdmin(user);
  const page = await listExportPage(deps.db, input);
  const now = Date.now();
  return { items: page.items.map((row) => exportItem(deps, row, now)), totalPages: page.totalPages };
}

/**
 * The download link of export `exportId` (decisions 019 and 024): a signed
 * `/files/exports/{id}.zip` URL valid until the export's link expires. Throws FORBIDDEN for
 * staff, NOT_FOUND 'Export not found.', GONE (410) EXPORT_SUPERSEDED for a superseded export
 * ('This export was superseded: a participant in it withdrew consent. Start a new export.') and
 * EXPORT_EXPIRED for an expired one, CONFLICT 'This export is not ready to download.' while it
 * runs or when it failed.
 */
export async function exportDownloadLink(deps: AppDeps, user: SessionUser, exportId: string): Promise<ExportDownload> {
  requireAdmin(user);
  const row = await findExport(deps.db, exportId);
  if (!row) throw new AppError("NOT_FOUND", EXPORT_NOT_FOUND);
  const item = exportItem(deps, row);
  if (item.state === "superseded") throw new AppError("GONE", EXPORT_SUPERSEDED);
  if (item.state === "expired") throw new AppError("GONE", EXPORT_EXPIRED);
  if (!item.downloadUrl) throw new AppError("CONFLICT", EXPORT_NOT_READY);
  return { url: item.downloadUrl };
}

/**
 * Decision 024, for the file route serving signed links: throws GONE (410) EXPORT_SUPERSEDED when
 * stored file `key` is the zip of a superseded export, so a link copied before the withdrawal stops
 * working (checked at every request, not only when the link is made). Other keys pass.
 */
export async function refuseSupersededExportFile(db: Executor, key: string): Promise<void> {
  if (key.startsWith("exports/") && (await isSupersededExportFile(db, key))) {
    throw new AppError("GONE", EXPORT_SUPERSEDED);
  }
}

/**
 * At start-up: marks failed the exports left running by a server that stopped (not heard from for
 * two minutes). Returns how many. Exports other processes are running keep their heartbeat.
 */
export function failAbandonedExportsAtStart(deps: Pick<AppDeps, "db">): Promise<number> {
  return failAbandonedExports(deps.db, EXPORT_ABANDONED_AFTER_MS, EXPORT_ABANDONED);
}
