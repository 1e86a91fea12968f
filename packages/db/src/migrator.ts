import { Migrator } from "kysely";
import { migrations } from "../../../migrations/index";
import type { Database } from "./connection";

/**
 * Runs every pending migration of `migrations/` (ordered by timestamped name).
 * Throws with the failing migration's error so start-up stops instead of serving a half-made schema.
 */
export async function migrateToLatest(db: Database): Promise<void> {
  const migrator = new Migrator({
    db: db.withoutPlugins(),
    provider: { getMigrations: async () => migrations },
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === "Error");
  if (error || failed) {
    const reason = error instanceof Error ? error.message : String(error ?? "");
    throw new Error(`Migration ${failed?.migrationName ?? ""} failed: ${reason}`, { cause: error });
  }
}

/** The name of the newest migration this version of the code knows (the schema it expects). */
export function latestMigrationName(): string {
  return Object.keys(migrations).sort().at(-1)!;
}

/** Whether `name` is a migration this version of the code knows. */
export function isKnownMigration(name: string): boolean {
  return Object.hasOwn(migrations, name);
}
