import { sql } from "kysely";
import type { Executor } from "../connection";
import type { Category } from "../schema";

/**
 * The keys of list_counts (migration 20261202000000_list_counts, decision 016): what each counts,
 * exactly, as of the reading transaction's snapshot.
 */
export const LIST_COUNT_KEYS = {
  /** The audios of a category. */
  audios: (category: Category) => `audios:${category}`,
  /** The audios of a category that have no task. */
  unassigned: (category: Category) => `unassigned:${category}`,
  tasks: "tasks",
  recommendations: "recommendations",
  auditLog: "audit_log",
  submissionsAll: "submissions:all",
  /** Submissions whose transcript or recording is Pending. */
  submissionsNeedsReview: "submissions:needsReview",
  submissionsApproved: "submissions:approved",
  submissionsRejected: "submissions:rejected",
  /** A Submissions filter's count among the submissions of one assignee's tasks. */
  assigneeSubmissions: (assigneeId: string, filter: "all" | "needsReview" | "approved" | "rejected") =>
    `submissions:${assigneeId}:${filter}`,
  /** A user's unread notifications. */
  unread: (recipientId: string) => `unread:${recipientId}`,
  /** A webhook endpoint's deliveries (migration 20261211001600). */
  webhookDeliveries: (endpointId: string) => `webhook_deliveries:${endpointId}`,
} as const;

/**
 * A one-row query answering the exact count of `key` as `total` (the sum of its deltas, 0 when
 * it has none): an index-only read of a few entries, for countedPage's `counted`.
 */
export function countOfKey(db: Executor, key: string) {
  return db
    .selectFrom("listCounts")
    .select(sql<string>`coalesce(sum(n), 0)`.as("total"))
    .where("listCounts.key", "=", key);
}

/**
 * Folds each key's deltas into one row (compact_list_counts()), so counts stay a few index entries
 * to read; answers how many delta rows it removed (0 when another transaction is folding). Safe to
 * run concurrently with writers and with itself.
 */
export async function compactListCounts(db: Executor): Promise<number> {
  const { rows } = await sql<{ removed: string }>`select compact_list_counts() as removed`.execute(db);
  return Number(rows[0]?.removed ?? 0);
}
