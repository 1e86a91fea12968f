import { sql, type Expression, type SqlBool } from "kysely";
import type { Category } from "../schema";
import type { Executor } from "../connection";

/** The most results one search answers (the header's results list, SPEC §2.3). */
export const SEARCH_LIMIT = 20;

/** A search result (SPEC §3 Audio "in search results"): the audio, its task and the task's assignee. */
export interface AudioSearchRow {
  id: string;
  filename: string;
  category: Category;
  /** Seconds; null while unknown (not decoded yet, or decoding failed). */
  durationSeconds: number | null;
  task: { id: string; assignedTo: { id: string; username: string } | null } | null;
}

/** `keyword` as a LIKE pattern matching itself literally: `\`, `%` and `_` escaped with `\` (LIKE's escape). */
function likeLiteral(keyword: string): string {
  return keyword.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * The search query: audios whose filename contains `keyword` (case-insensitive), with their task
 * and assignee; with `staffId`, only audios whose task is assigned to that user (SPEC §5).
 * Filenames that start with the keyword come first, then by filename ignoring case.
 *
 * Two branches, each at most `limit` rows in that order, so a keyword matching half the audios
 * does not sort them all: the prefix matches walk audios_filename_lower_idx (lower(filename) in
 * the C collation, byte order) from the keyword on; the other matches, read only when the prefix
 * matches are fewer than `limit`, come from audios_filename_trgm_idx (ILIKE) or that index in
 * order, as the planner finds cheaper. Only the chosen rows are joined to their task and assignee.
 */
function searchQuery(db: Executor, q: { keyword: string; staffId: string | null; limit: number }) {
  const literal = likeLiteral(q.keyword);
  const limit = Math.min(q.limit, SEARCH_LIMIT);
  const lowerName = sql<string>`lower(audios.filename) collate "C"`;
  const prefix = sql<boolean>`${lowerName} like lower(${literal}) || '%'`;
  const branch = (rank: number, where: Expression<SqlBool>) => {
    let query = db
      .selectFrom("audios")
      .select(["audios.id", "audios.filename", sql.lit(rank).as("rank"), lowerName.as("lowerName")])
      .where(where);
    if (q.staffId !== null)
      query = query.where((eb) =>
        eb.exists(
          eb
            .selectFrom("tasks")
            .select("tasks.id")
            .whereRef("tasks.audioId", "=", "audios.id")
            .where("tasks.assignedTo", "=", q.staffId as string),
        ),
      );
    return db.selectFrom(query.orderBy(lowerName).orderBy("audios.filename").limit(limit).as("b")).selectAll("b");
  };
  const others = branch(1, sql<SqlBool>`audios.filename ilike ${`%${literal}%`} and not (${prefix})`);
  return db
    .with("prefixed", () => branch(0, prefix))
    .selectFrom((eb) =>
      eb
        .selectFrom("prefixed")
        .selectAll("prefixed")
        .unionAll(
          eb
            .selectFrom(others.as("o"))
            .selectAll("o")
            .where((o) => o(o.selectFrom("prefixed").select(o.fn.countAll().as("n")), "<", limit)),
        )
        .as("m"),
    )
    .innerJoin("audios", "audios.id", "m.id")
    .leftJoin("tasks", "tasks.audioId", "audios.id")
    .leftJoin("users", "users.id", "tasks.assignedTo")
    .select([
      "audios.id",
      "audios.filename",
      "audios.category",
      "audios.durationSeconds",
      "tasks.id as taskId",
      "users.id as assignedToId",
      "users.username as assignedToUsername",
    ])
    .orderBy("m.rank")
    .orderBy("m.lowerName")
    .orderBy("m.filename")
    .limit(limit);
}

/**
 * SPEC §2.3, §5 search: at most `limit` (≤ 20) audios whose filename contains `keyword`
 * (any part, case-insensitive; `%`, `_` and `\` match themselves), prefix matches first, then by
 * filename ignoring case. `staffId` set: only audios whose task is assigned to that user; null: all (admins).
 */
export async function searchAudios(
  db: Executor,
  q: { keyword: string; staffId: string | null; limit: number },
): Promise<AudioSearchRow[]> {
  const rows = await searchQuery(db, q).execute();
  return rows.map((r) => ({
    id: r.id,
    filename: r.filename,
    category: r.category,
    durationSeconds: r.durationSeconds,
    task:
      r.taskId === null
        ? null
        : {
            id: r.taskId,
            assignedTo:
              r.assignedToId && r.assignedToUsername ? { id: r.assignedToId, username: r.assignedToUsername } : null,
          },
  }));
}

/** The plan (EXPLAIN, text lines) of searchAudios' query: checks which index it uses. */
export async function explainSearch(
  db: Executor,
  q: { keyword: string; staffId: string | null; limit: number },
): Promise<string[]> {
  const rows = await searchQuery(db, q).explain<Record<string, string>>();
  // One column ("QUERY PLAN"; its key may be renamed by the camel-case plugin): take its value.
  return rows.map((r) => Object.values(r)[0] ?? "");
}
