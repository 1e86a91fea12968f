import { randomBytes } from "node:crypto";
import pg from "pg";

/** Where a benchmark's server keeps its data. */
export interface BenchDatabase {
  /** DATABASE_URL for the server; undefined means its embedded PGlite under DATA_DIR. */
  url: string | undefined;
  /** What to print: "PGlite (embedded)" or "PostgreSQL <version> at <host>". */
  label: string;
  /** The temporary database's name (`tafsiri_bench_<hex>`); undefined for PGlite. */
  name: string | undefined;
  /** Drops the temporary database (nothing for PGlite). */
  drop(): Promise<void>;
}

async function withClient<T>(connectionString: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

/**
 * With `databaseUrl` (PostgreSQL), creates an empty database `tafsiri_bench_<hex>` on that
 * server, so the benchmark starts from a fresh schema and first admin and never touches the
 * named database's data; without it, the server's embedded PGlite is used.
 */
export async function benchDatabase(databaseUrl: string | undefined): Promise<BenchDatabase> {
  if (!databaseUrl) return { url: undefined, label: "PGlite (embedded)", name: undefined, drop: async () => undefined };
  const name = `tafsiri_bench_${randomBytes(4).toString("hex")}`;
  const version = await withClient(databaseUrl, async (client) => {
    await client.query(`create database ${name}`);
    const result = await client.query<{ server_version: string }>("show server_version");
    return result.rows[0]?.server_version ?? "?";
  });
  const url = new URL(databaseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    label: `PostgreSQL ${version.split(" ")[0]} at ${url.host}`,
    name,
    drop: () =>
      withClient(databaseUrl, (client) =>
        client.query(`drop database if exists ${name} with (force)`).then(() => undefined),
      ),
  };
}
