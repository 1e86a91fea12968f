import { buildApp } from "./app";
import { bootstrap } from "./bootstrap";
import { keepEventsFor } from "./live/retention-timer";
import { sweepFilesHourly } from "./lib/file-sweep-timer";
import { loadSettings } from "./settings";

const settings = loadSettings();
const { deps, handle } = await bootstrap(settings);
const app = await buildApp({ deps, settings, logger: true });
const stopPruning = keepEventsFor(deps.db, settings.EVENT_RETENTION_DAYS, (error) =>
  app.log.error({ err: error }, "pruning old live events failed"),
);
const stopSweeping = sweepFilesHourly(deps, app.log);

const shutdown = async () => {
  await app.close();
  await stopPruning();
  await stopSweeping();
  await deps.events.close();
  await deps.storage.close();
  await handle.close();
  process.exit(0);
};
process.on("SIGINT", shutdown);
process.on("SIGTERM", shutdown);

await app.listen({ port: settings.PORT, host: settings.HOST });
console.log(`Tafsiri is running at http://${settings.HOST}:${settings.PORT}`);
