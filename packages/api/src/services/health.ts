import type { Database } from "@tafsiri/db";
import { checkDatabase } from "@tafsiri/db/repositories/health";

/**
 * ARCHITECTURE "Settings" (`GET /healthz`): resolves once the migrated database answers a query;
 * rejects with the driver's error when it does not.
 */
export async function checkDatabaseReady(db: Database): Promise<void> {
  await checkDatabase(db);
}
