import path from "node:path";
import { createEventBus, createLocalStorage, type AppDeps } from "@tafsiri/api";

/**
 * Runs `use` with the app's dependencies on `db`: an event bus on it, local file storage under
 * `<dataDir>/files`, a fixed JWT secret, and `extra` (e.g. a time zone) on top. Closes the event
 * bus afterwards, also when `use` throws; resolves to what `use` resolves to.
 */
export async function withAppDeps<T>(
  db: AppDeps["db"],
  dataDir: string,
  extra: Partial<AppDeps>,
  use: (deps: AppDeps) => Promise<T>,
): Promise<T> {
  const events = await createEventBus({ db });
  try {
    return await use({
      db,
      storage: createLocalStorage(path.join(dataDir, "files")),
      jwtSecret: new TextEncoder().encode("bench-secret-bench-secret-bench-secret"),
      events,
      ...extra,
    });
  } finally {
    await events.close();
  }
}
