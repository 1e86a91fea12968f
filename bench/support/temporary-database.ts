import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createDb, migrateToLatest, type DbHandle } from "@tafsiri/db";
import { benchDatabase, type BenchDatabase } from "./bench-database";

/** What a benchmark runs on: a fresh, migrated database and an empty directory for its files. */
export interface BenchEnvironment {
  /** The database's description and name (bench/support/bench-database.ts). */
  bench: BenchDatabase;
  /** For the header: the database's label, and the temporary database's name when there is one. */
  where: string;
  /** The database, migrated to the latest schema. */
  db: DbHandle["db"];
  /** A fresh directory under the system's temporary directory, for the files the app stores. */
  dataDir: string;
}

/**
 * Runs `run` on a fresh database: with DATABASE_URL, a temporary database `tafsiri_bench_<hex>`
 * on that server, otherwise an embedded PGlite (in memory), migrated to the latest schema, plus
 * a fresh data directory. Afterwards (also when `run` throws, or on SIGINT or SIGTERM, which
 * then exit with 130) closes the connections, drops the temporary database and removes the
 * directory, once (a repeated signal waits for it). Resolves when `run` has and everything is
 * cleaned up.
 */
export async function onTemporaryDatabase(run: (env: BenchEnvironment) => Promise<void>): Promise<void> {
  const bench = await benchDatabase(process.env.DATABASE_URL);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "tafsiri-bench-"));
  let handle: DbHandle | undefined;
  let cleaned: Promise<void> | undefined;
  const cleanUp = (): Promise<void> => {
    cleaned ??= (async () => {
      try {
        await handle?.close();
      } catch {
        // the drop below ends the connections anyway
      }
      await bench.drop();
      rmSync(dataDir, { recursive: true, force: true });
    })();
    return cleaned;
  };
  const onSignal = (signal: NodeJS.Signals) => {
    if (cleaned === undefined) console.error(`\n${signal}: dropping the temporary database.`);
    void cleanUp().finally(() => process.exit(130));
  };
  // `on`, not `once`: a Ctrl-C reaches this process twice (from the terminal and relayed by tsx),
  // and a second signal must not end the process before the drop.
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, onSignal);
  try {
    handle = await createDb({ databaseUrl: bench.url });
    await migrateToLatest(handle.db);
    const where = bench.name ? `${bench.label}, temporary database ${bench.name}` : bench.label;
    await run({ bench, where, db: handle.db, dataDir });
  } finally {
    await cleanUp();
    for (const signal of ["SIGINT", "SIGTERM"] as const) process.off(signal, onSignal);
  }
}
