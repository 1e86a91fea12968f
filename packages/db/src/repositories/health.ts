import type { Executor } from "../connection";

/**
 * Checks that the database answers and is migrated (reads one row of `users`). Resolves when it
 * does; rejects with the driver's error otherwise.
 */
export async function checkDatabase(db: Executor): Promise<void> {
  await db.selectFrom("users").select("id").limit(1).execute();
}
