import { spawn } from "node:child_process";
import type { Readable } from "node:stream";
import type { PGlite } from "@electric-sql/pglite";
import { pgDump } from "@electric-sql/pglite-tools/pg_dump";

/** The command-line tools used for PostgreSQL, from PATH unless PG_DUMP / PG_RESTORE name them. */
const PG_DUMP = process.env.PG_DUMP ?? "pg_dump";
const PG_RESTORE = process.env.PG_RESTORE ?? "pg_restore";

/**
 * `databaseUrl` without its password, and an environment carrying the password as PGPASSWORD,
 * so that the password does not show in the process list.
 */
function libpqTarget(databaseUrl: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const url = new URL(databaseUrl);
  const env: NodeJS.ProcessEnv = { ...process.env };
  if (url.password) {
    env.PGPASSWORD = decodeURIComponent(url.password);
    url.password = "";
  }
  return { dbname: url.toString(), env };
}

/** A child process's end: rejects with `{tool} failed (exit code N): {stderr}` unless it exited 0. */
function exitOf(child: ReturnType<typeof spawn>, tool: string): Promise<void> {
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    if (stderr.length < 8000) stderr += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    child.once("error", (error: NodeJS.ErrnoException) => {
      reject(
        error.code === "ENOENT"
          ? new Error(
              `${tool} was not found: install PostgreSQL's client tools (version 15 or later) or set ${tool === PG_DUMP ? "PG_DUMP" : "PG_RESTORE"}`,
            )
          : error,
      );
    });
    child.once("close", (code) => {
      if (code === 0) resolve();
      else reject(new Error(`${tool} failed (exit code ${code}): ${stderr.trim()}`));
    });
  });
}

/**
 * Starts `pg_dump --format=custom --snapshot={snapshot}` on `databaseUrl` (decision 027): its
 * stdout is the dump, to be consumed by the caller; `done` settles when it exits (rejecting with
 * its stderr on failure). The transaction that exported `snapshot` must stay open until `done`.
 */
export function startPostgresDump(databaseUrl: string, snapshot: string): { output: Readable; done: Promise<void> } {
  const { dbname, env } = libpqTarget(databaseUrl);
  const child = spawn(PG_DUMP, ["--format=custom", `--snapshot=${snapshot}`, "--no-password", `--dbname=${dbname}`], {
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  return { output: child.stdout!, done: exitOf(child, PG_DUMP) };
}

/**
 * Starts `pg_restore --single-transaction --exit-on-error --no-owner --no-privileges` into
 * `databaseUrl`, reading the custom-format dump from its stdin (decision 027): write the dump to
 * `input`; `done` settles when it exits. A failure leaves the database as it was (one transaction).
 */
export function startPostgresRestore(databaseUrl: string): { input: NodeJS.WritableStream; done: Promise<void> } {
  const { dbname, env } = libpqTarget(databaseUrl);
  const child = spawn(
    PG_RESTORE,
    ["--single-transaction", "--exit-on-error", "--no-owner", "--no-privileges", "--no-password", `--dbname=${dbname}`],
    { env, stdio: ["pipe", "ignore", "pipe"] },
  );
  child.stdin!.on("error", () => undefined); // reported through `done`
  return { input: child.stdin!, done: exitOf(child, PG_RESTORE) };
}

/**
 * The embedded database as plain SQL (PGlite's own pg_dump, compiled to WebAssembly, with
 * `--inserts`), held in memory. It runs synchronously against `pglite`: while it runs no other
 * query of this process runs. The caller must hold the database's only Kysely connection (so no
 * transaction of the app is open on the shared session); afterwards the session is as before
 * (pg_dump's transaction ended, its settings reset, search_path restored). Decision 027.
 */
export async function dumpPglite(pglite: PGlite): Promise<Buffer> {
  const { rows } = await pglite.query<{ path: string }>("select current_setting('search_path') as path");
  try {
    const file = await pgDump({ pg: pglite, args: ["--no-owner", "--no-privileges"] });
    return Buffer.from(await file.arrayBuffer());
  } finally {
    // pg_dump shares the instance's only session and leaves it inside its read-only, repeatable
    // read transaction with its own settings (search_path '', DateStyle, extra_float_digits, …):
    // end that transaction and put the session back as the app had it, or every later write fails.
    await pglite.exec("rollback; reset all;");
    await pglite.query("select set_config('search_path', $1, false)", [rows[0]!.path]);
  }
}
