import { sql } from "kysely";
import type { Category } from "../schema";
import type { Executor } from "../connection";

/** The most results one search answers (the header's results list, SPEC §2.3). */
export const SEARCH_LIMIT = 20;

/** A search result (SPEC §3 Audio "in search results"): the audio, its task and the task's assignee. */
export interface AudioSearchRow {
  id: string;
  filename: string;
  category: Category;
  task: { id: string; assignedTo: { id: string; username: string } | null } | null;
}

/** `keyword` as a LIKE pattern matching itself literally: `\`, `%` and `_` escaped with `\` (LIKE's escape). */
export function likeLiteral(keyword: string): string {
  return keyword.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * The search query: audios whose filename contains `keyword` (case-insensitive, ILIKE, index
 * audios_filename_trgm_idx), with their task and assignee; with `staffId`, only audios whose task
 * is assigned to that user (SPEC §5). Filenames that start with the keyword come first, then by
 * filename ignoring case.
 */
function searchQuery(db: Executor, q: { keyword: string; staffId: string | null; limit: number }) {
  const literal = likeLiteral(q.keyword);
  let query = db
    .selectFrom("audios")
    .leftJoin("tasks", "tasks.audioId", "audios.id")
    .leftJoin("users", "users.id", "tasks.assignedTo")
    .select([
      "audios.id",
      "audios.filename",
      "audios.category",
      "tasks.id as taskId",
      "users.id as assignedToId",
      "users.username as assignedToUsername",
    ])
    .where("audios.filename", "ilike", `%${literal}%`);
  if (q.staffId !== null) query = query.where("tasks.assignedTo", "=", q.staffId);
  return query
    .orderBy(sql`audios.filename ilike ${`${literal}%`}`, "desc")
    .orderBy(sql`lower(audios.filename)`)
    .orderBy("audios.filename")
    .limit(Math.min(q.limit, SEARCH_LIMIT));
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
