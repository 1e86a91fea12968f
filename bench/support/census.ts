import { sql, type Kysely, type RawBuilder } from "kysely";

/**
 * Runs the `counts` (label → a SQL expression giving a count, e.g. sql`(select count(*) from
 * tasks)`) in one statement and resolves to them as "1,234 <label>, …", in the given order, for
 * the benchmarks' "Seeded in …" line.
 */
export async function census<DB>(db: Kysely<DB>, counts: Record<string, RawBuilder<unknown>>): Promise<string> {
  const labels = Object.keys(counts);
  const columns = labels.map((label, i) => sql`${counts[label]} as ${sql.ref(`c${i}`)}`);
  const { rows } = await sql<Record<string, string>>`select ${sql.join(columns)}`.execute(db);
  const row = rows[0] ?? {};
  return labels.map((label, i) => `${Number(row[`c${i}`]).toLocaleString("en")} ${label}`).join(", ");
}
