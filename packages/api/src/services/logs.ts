import { listAuditActions, listAuditActors, listAuditEntries } from "@tafsiri/db/repositories/audit-list";
import type { AppDeps, SessionUser } from "../context";
import { AppError } from "../errors/app-error";
import type { LogEntry, LogFilterChoices, LogList, LogListInput } from "../schemas/logs";
import { PERIOD_ORDER } from "../schemas/statistics";
import { actionLabel, describeAuditEntry } from "./log-sentences";
import { requireAdmin } from "./access";
import { periodInstant } from "./statistics";

/**
 * Logs (/log/log-listing, SPEC §2.1): one page of the audit log, newest first (time, then
 * id), `limit` per page (50 by default), filtered by actor, action and the period [from, to) (an
 * ISO date is midnight in APP_TIMEZONE), each entry with its actor, its sentence
 * (describeAuditEntry) and the audio or user it concerns, plus the filtered list's page count; one
 * SQL statement (listAuditEntries). Throws FORBIDDEN for non-admins, BAD_REQUEST 'from must be
 * before to.' for an empty or reversed period (malformed dates are refused by ZLogListInput).
 */
export async function listLogs(deps: AppDeps, user: SessionUser, input: LogListInput): Promise<LogList> {
  requireAdmin(user);
  const timeZone = deps.timezone ?? "UTC";
  const from = input.from === undefined ? undefined : periodInstant(input.from, timeZone);
  const to = input.to === undefined ? undefined : periodInstant(input.to, timeZone);
  if (from && to && from.getTime() >= to.getTime()) throw new AppError("BAD_REQUEST", PERIOD_ORDER);
  const page = await listAuditEntries(deps.db, {
    actorId: input.actorId,
    action: input.action,
    from,
    to,
    page: input.page,
    limit: input.limit,
  });
  const items = page.items.map((row): LogEntry => ({
    id: row.id,
    createdAt: row.createdAt.toISOString(),
    actor: row.actor,
    action: row.action,
    entity: row.entity,
    sentence: describeAuditEntry({
      action: row.action,
      entity: row.entity,
      entityId: row.entityId,
      detail: row.detail,
      audioName: row.audio?.filename ?? null,
      userName: row.user?.username ?? null,
    }),
    audio: row.audio
      ? {
          id: row.audio.id,
          filename: row.audio.filename ?? (typeof row.detail.filename === "string" ? row.detail.filename : null),
          exists: row.audio.filename !== null,
        }
      : null,
    user: row.user,
  }));
  return { items, totalPages: page.totalPages };
}

/**
 * The choices of the Logs filters: every action found in the audit log with its label
 * (actionLabel), alphabetically by action, and every user who made an entry, by username. Two
 * cheap queries (a loose index scan; one index probe per user). Throws FORBIDDEN for non-admins.
 */
export async function logFilterChoices(deps: AppDeps, user: SessionUser): Promise<LogFilterChoices> {
  requireAdmin(user);
  const [actions, actors] = await Promise.all([listAuditActions(deps.db), listAuditActors(deps.db)]);
  return { actions: actions.map((value) => ({ value, label: actionLabel(value) })), actors };
}
