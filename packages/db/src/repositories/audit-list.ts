import { sql, type Expression, type RawBuilder } from "kysely";
import type { Executor } from "../connection";
import { countOfKey, LIST_COUNT_KEYS } from "./list-counts";
import { anchoredPageIds } from "./page-anchors";
import { isOneOf, offsetOf, type Page } from "./pagination";

/** A row of the Logs page: one audit entry with who made it and what it concerns. */
export interface AuditListRow {
  id: string;
  createdAt: Date;
  /** The actor, null when the entry has none or the account is gone. */
  actor: { id: string; username: string } | null;
  action: string;
  entity: string;
  entityId: string | null;
  /** The entry's detail as written by insertAuditEntry. */
  detail: Record<string, unknown>;
  /**
   * The audio the entry concerns (an audio, its initial transcript, task, submission, transcript
   * or recording), from entity_id or detail.audioId; `filename` null when the audio is gone.
   */
  audio: { id: string; filename: string | null } | null;
  /**
   * The user the entry concerns (an account, or the assignee of an assignment, reassignment or
   * recommendation); `username` null when the account is gone.
   */
  user: { id: string; username: string | null } | null;
}

/** The filters and the page of listAuditEntries: actor, action, created in [from, to). */
export interface AuditListQuery {
  actorId?: string | undefined;
  action?: string | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
  page: number;
  limit: number;
}

const UUID_PATTERN = "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$";

/** `text` as a uuid, null when it is not one (so a malformed detail never fails the query). */
function asUuid(text: RawBuilder<string | null>): RawBuilder<string | null> {
  return sql<string | null>`case when ${text} ~ ${UUID_PATTERN} then (${text})::uuid end`;
}

const entity = sql.ref<string>("auditLog.entity");
const action = sql.ref<string>("auditLog.action");
const entityId = sql.ref<string | null>("auditLog.entityId");
const detailText = (key: string): RawBuilder<string | null> =>
  sql<string | null>`${sql.ref("auditLog.detail")}->>${key}`;

/** SQL: the id (text) of the audio an entry concerns: the entity's id for an audio or its initial transcript, else detail.audioId. */
const concernedAudioText = sql<
  string | null
>`case when ${entity} in ('audio', 'initial-transcript') then ${entityId} else ${detailText("audioId")} end`;

/** SQL: the id (text) of the user an entry concerns: the account, or the assignee of an assign / reassign / recommend. */
const concernedUserText = sql<string | null>`case
  when ${entity} = 'user' then ${entityId}
  when ${entity} = 'task' and ${action} = 'assign' then ${detailText("assignedTo")}
  when ${entity} = 'task' and ${action} = 'reassign' then ${detailText("to")}
  when ${entity} = 'task' and ${action} = 'recommend' then ${detailText("recommendedTo")}
end`;

/** The entries matching the filters (actor, action, created in [from, to)). */
function filtered(db: Executor, q: AuditListQuery) {
  let query = db.selectFrom("auditLog");
  if (q.actorId !== undefined) query = query.where("auditLog.actorId", "=", q.actorId);
  if (q.action !== undefined) query = query.where("auditLog.action", "=", q.action);
  if (q.from !== undefined) query = query.where("auditLog.createdAt", ">=", q.from);
  if (q.to !== undefined) query = query.where("auditLog.createdAt", "<", q.to);
  return query;
}

/** The one query of listAuditEntries: the count joined laterally with the page's rows. */
function auditListQuery(db: Executor, q: AuditListQuery) {
  // Unfiltered, the count kept in list_counts; filtered, counted from the filter's index.
  const unfiltered = q.actorId === undefined && q.action === undefined && q.from === undefined && q.to === undefined;
  const counted = unfiltered
    ? countOfKey(db, LIST_COUNT_KEYS.auditLog)
    : filtered(db, q).select((eb) => eb.fn.countAll<string>().as("total"));
  // Deferred join (decision 010): the page's ids first, read in list order from the filter's
  // index ((created_at, id), (actor_id, created_at, id) or (action, created_at, id)), then only
  // those rows joined to their actor and what they concern.
  // Unfiltered, a deep page seeks from its nearest page anchor (decision 030).
  const pageIds = unfiltered
    ? anchoredPageIds(db, LIST_COUNT_KEYS.auditLog, q)
    : filtered(db, q)
        .select("auditLog.id")
        .orderBy("auditLog.createdAt", "desc")
        .orderBy("auditLog.id", "desc")
        .limit(q.limit)
        .offset(offsetOf(q.page, q.limit));
  const entries = db
    .selectFrom("auditLog")
    .where(isOneOf("auditLog.id", pageIds))
    .select([
      "auditLog.id",
      "auditLog.createdAt",
      "auditLog.actorId",
      "auditLog.action",
      "auditLog.entity",
      "auditLog.entityId",
      "auditLog.detail",
      concernedAudioText.as("audioRef"),
      concernedUserText.as("userRef"),
    ]);
  const rows = db
    .selectFrom(entries.as("e"))
    .leftJoin("users as actor", "actor.id", "e.actorId")
    .leftJoin("audios", (join) =>
      join.on("audios.id", "=", asUuid(sql.ref<string | null>("e.audioRef")) as Expression<string>),
    )
    .leftJoin("users as concerned", (join) =>
      join.on("concerned.id", "=", asUuid(sql.ref<string | null>("e.userRef")) as Expression<string>),
    )
    .select([
      "e.id",
      "e.createdAt",
      "e.actorId",
      "actor.username as actorUsername",
      "e.action",
      "e.entity",
      "e.entityId",
      "e.detail",
      "e.audioRef",
      "audios.filename as audioFilename",
      "e.userRef",
      "concerned.username as userUsername",
    ]);
  return db
    .selectFrom(counted.as("c"))
    .leftJoinLateral(rows.as("p"), (join) => join.onTrue())
    .selectAll("p")
    .select("c.total")
    .orderBy("p.createdAt", "desc")
    .orderBy("p.id", "desc");
}

/**
 * Logs: one page of `limit` audit entries, newest first (created_at, then id),
 * filtered by actor, action and a period [from, to), each with its actor's username and the audio
 * (filename) or user (username) it concerns, and the page count of the filtered list, in ONE SQL
 * statement (count left join lateral page; the page's ids read first from the filter's index).
 */
export async function listAuditEntries(db: Executor, q: AuditListQuery): Promise<Page<AuditListRow>> {
  const result = await auditListQuery(db, q).execute();
  const total = Number(result[0]?.total ?? 0);
  const items: AuditListRow[] = [];
  for (const r of result) {
    if (r.id === null || r.createdAt === null || r.action === null || r.entity === null) continue; // the empty page's row of counts
    const audioId = r.audioRef && new RegExp(UUID_PATTERN).test(r.audioRef) ? r.audioRef : null;
    const userId = r.userRef && new RegExp(UUID_PATTERN).test(r.userRef) ? r.userRef : null;
    items.push({
      id: String(r.id),
      createdAt: r.createdAt,
      actor: r.actorId && r.actorUsername ? { id: r.actorId, username: r.actorUsername } : null,
      action: r.action,
      entity: r.entity,
      entityId: r.entityId,
      detail: r.detail !== null && typeof r.detail === "object" ? (r.detail as Record<string, unknown>) : {},
      audio: audioId ? { id: audioId, filename: r.audioFilename } : null,
      user: userId ? { id: userId, username: r.userUsername } : null,
    });
  }
  return { items, totalPages: Math.ceil(total / q.limit) };
}

/** The plan (EXPLAIN, text lines) of listAuditEntries' query: checks which indexes it uses. */
export async function explainAuditList(db: Executor, q: AuditListQuery): Promise<string[]> {
  const rows = await auditListQuery(db, q).explain<Record<string, string>>();
  return rows.map((r) => Object.values(r)[0] ?? "");
}

/**
 * The actions found in the audit log, alphabetically, for the Logs page's filter: a loose index
 * scan of audit_log_action_created_at_id_idx (a recursive query jumping from one action to the
 * next), so its cost follows the number of distinct actions, not of entries.
 */
export async function listAuditActions(db: Executor): Promise<string[]> {
  const { rows } = await sql<{ action: string | null }>`
    with recursive a(action) as (
      (select action from audit_log order by action limit 1)
      union all
      select (select l.action from audit_log l where l.action > a.action order by l.action limit 1)
      from a where a.action is not null
    )
    select action from a where action is not null order by action`.execute(db);
  return rows.flatMap((r) => (r.action === null ? [] : [r.action]));
}

/**
 * The users who made at least one audit entry, by username, for the Logs page's actor filter:
 * one probe of audit_log_actor_created_at_id_idx per user.
 */
export async function listAuditActors(db: Executor): Promise<Array<{ id: string; username: string }>> {
  return db
    .selectFrom("users")
    .where((eb) =>
      eb.exists(eb.selectFrom("auditLog").select(sql.lit(1).as("one")).whereRef("auditLog.actorId", "=", "users.id")),
    )
    .select(["users.id", "users.username"])
    .orderBy("users.username")
    .execute();
}
