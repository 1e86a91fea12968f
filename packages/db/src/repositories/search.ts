import { sql, type Expression, type SelectQueryBuilder, type RawBuilder, type SqlBool } from "kysely";
import type { Category, DB } from "../schema";
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

/** A search's inputs: the keyword, the staff member whose tasks bound it (null: an admin, all audios), the most rows. */
interface SearchInput {
  keyword: string;
  staffId: string | null;
  limit: number;
}

/**
 * The search query (SPEC §2.3, §5): audios whose filename contains `keyword` (case-insensitive),
 * with their task and assignee; with `staffId`, only audios whose task is assigned to that user.
 * Filenames that start with the keyword come first (rank 0), then by filename ignoring case
 * (lower(filename) in the C collation, then the filename). The matches are picked first (at most
 * `limit`, with their rank and sort key); only those rows are joined to their task and assignee.
 */
function searchQuery(db: Executor, q: SearchInput) {
  const literal = likeLiteral(q.keyword);
  const terms: MatchTerms = {
    lowerName: sql<string>`lower(audios.filename) collate "C"`,
    prefix: sql<SqlBool>`lower(audios.filename) collate "C" like lower(${literal}) || '%'`,
    contains: sql<SqlBool>`audios.filename ilike ${`%${literal}%`}`,
    limit: Math.min(q.limit, SEARCH_LIMIT),
  };
  return q.staffId === null ? allMatches(db, terms) : staffMatches(db, { ...terms, staffId: q.staffId });
}

/** A match picked by allMatches or staffMatches: the audio, its rank (0: a prefix match) and its sort key. */
interface Match {
  id: string;
  filename: string;
  rank: number;
  lowerName: string;
}

/** The picked matches (`m`) joined to their audio, task and assignee, in the answer's order. */
function withTaskAndAssignee(fromMatches: SelectQueryBuilder<DB & { m: Match }, "m", object>, limit: number) {
  return fromMatches
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

/** The conditions and sort key both kinds of matches are written with (searchQuery). */
interface MatchTerms {
  lowerName: RawBuilder<string>;
  prefix: RawBuilder<SqlBool>;
  contains: RawBuilder<SqlBool>;
  limit: number;
}

/**
 * An admin's search, out of all the audios: two branches of at most `limit` matches each in the
 * answer's order, so a keyword matching half the audios does not sort them all. The prefix matches
 * walk audios_filename_lower_idx (lower(filename) in the C collation, byte order) from the keyword
 * on; the other matches, read only when the prefix matches are fewer than `limit`, come from
 * audios_filename_trgm_idx (ILIKE) or that index in order, as the planner finds cheaper.
 */
function allMatches(db: Executor, { lowerName, prefix, contains, limit }: MatchTerms) {
  const branch = (rank: number, where: Expression<SqlBool>) =>
    db
      .selectFrom(
        db
          .selectFrom("audios")
          .select(["audios.id", "audios.filename", sql.lit(rank).as("rank"), lowerName.as("lowerName")])
          .where(where)
          .orderBy(lowerName)
          .orderBy("audios.filename")
          .limit(limit)
          .as("b"),
      )
      .selectAll("b");
  const others = branch(1, sql<SqlBool>`${contains} and not (${prefix})`);
  const matches = db
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
    );
  return withTaskAndAssignee(matches, limit);
}

/**
 * A staff member's search, out of the audios of their own tasks only (SPEC §5): their tasks'
 * audio ids are read from tasks_assigned_to_created_at_id_idx (1,654 for the busiest seeded staff
 * member) and those audios fetched by primary key, written `= any(array(…))` so the planner cannot
 * turn them into a hash join over every audio; the first `limit` matches in the answer's order are
 * kept (a top-N sort of the matches). The work is bounded by the staff member's tasks, however
 * many other audios match or wherever the staff member's audios fall in filename order; a keyword
 * the trigram index finds in only a few audios may still be read from that index and filtered by
 * the ids.
 */
function staffMatches(db: Executor, { staffId, lowerName, prefix, contains, limit }: MatchTerms & { staffId: string }) {
  const ownAudioIds = db.selectFrom("tasks").select("tasks.audioId").where("tasks.assignedTo", "=", staffId);
  const matches = db
    .selectFrom("audios")
    .select([
      "audios.id",
      "audios.filename",
      sql<number>`case when ${prefix} then 0 else 1 end`.as("rank"),
      lowerName.as("lowerName"),
    ])
    .where(sql<SqlBool>`audios.id = any(array(${ownAudioIds}))`)
    .where(sql<SqlBool>`(${prefix} or ${contains})`)
    .orderBy("rank")
    .orderBy(lowerName)
    .orderBy("audios.filename")
    .limit(limit);
  return withTaskAndAssignee(db.selectFrom(matches.as("m")), limit);
}

/**
 * SPEC §2.3, §5 search: at most `limit` (≤ 20) audios whose filename contains `keyword`
 * (any part, case-insensitive; `%`, `_` and `\` match themselves), prefix matches first, then by
 * filename ignoring case. `staffId` set: only audios whose task is assigned to that user; null: all (admins).
 */
export async function searchAudios(db: Executor, q: SearchInput): Promise<AudioSearchRow[]> {
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
export async function explainSearch(db: Executor, q: SearchInput): Promise<string[]> {
  const rows = await searchQuery(db, q).explain<Record<string, string>>();
  // One column ("QUERY PLAN"; its key may be renamed by the camel-case plugin): take its value.
  return rows.map((r) => Object.values(r)[0] ?? "");
}
