import { abandonExportJobs, startWaveformJob, type WaveformJob } from "@tafsiri/api";
import { openJobLocks } from "@tafsiri/db/repositories/job-locks";
import { buildApp } from "./app";
import { bootstrap } from "./bootstrap";
import { keepEventsFor } from "./live/retention-timer";
import { sweepFilesHourly } from "./lib/file-sweep-timer";
import { loadSettings } from "./settings";

const settings = loadSettings();
const { deps, handle } = await bootstrap(settings);
// Uploads wake the waveform job (ARCHITECTURE "Long recordings and the corpus"); it starts once the server listens.
let waveforms: WaveformJob | null = null;
deps.waveforms = { wake: () => waveforms?.wake() };
const app = await buildApp({ deps, settings, logger: true });
// The hourly jobs run in one of the processes sharing the database (issue 11 Build 7).
const locks = openJobLocks({
  db: deps.db,
  databaseUrl: settings.DATABASE_URL,
  onError: (error) => app.log.warn({ err: error }, "job lock connection lost; the next round reconnects"),
});
const stopPruning = keepEventsFor({ db: deps.db, locks }, settings.EVENT_RETENTION_DAYS, app.log);
const stopSweeping = sweepFilesHourly({ ...deps, locks }, app.log);

const shutdown = async () => {
  await app.close();
  await abandonExportJobs(deps);
  await stopPruning();
  await stopSweeping();
  await waveforms?.stop();
  await locks.close();
  await deps.events.close();
  await deps.storage.close();
  await handle.close();
  process.exit(0);
};
process.on("SIGINT", shutdown);
process.on("SIGTERM", shutdown);

await app.listen({ port: settings.PORT, host: settings.HOST });
// Decodes stored audio files into peaks, in one of the processes sharing the database: new uploads
// and the audios stored before (a backfill that resumes where it stopped).
waveforms = startWaveformJob({ ...deps, locks, log: app.log });
console.log(`Tafsiri is running at http://${settings.HOST}:${settings.PORT}`);
