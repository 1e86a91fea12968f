import path from "node:path";
import { abandonExportJobs, openBackupDesk, openJobLocks, startWaveformJob, type WaveformJob } from "@tafsiri/api";
import { DEFAULT_WEBHOOK_DELIVERY, startWebhookJob, type WebhookJob } from "@tafsiri/api";
import { announceStopping, buildApp } from "./app";
import { bootstrap } from "./bootstrap";
import { keepEventsFor } from "./jobs/retention-timer";
import { startBackupSchedule } from "./jobs/backup-schedule";
import { sweepFilesHourly } from "./jobs/file-sweep-timer";
import { gracefulShutdown } from "./lib/graceful-shutdown";
import { rebuildPageAnchorsEveryMinute } from "./jobs/page-anchor-timer";
import { measureSpeechEveryMinute } from "./jobs/speech-measures-timer";
import { startMetricsListener, type MetricsListener } from "./metrics/metrics-listener";
import { loadSettings } from "./settings";

const settings = loadSettings();
const { deps, handle } = await bootstrap(settings);
// Uploads wake the waveform job (ARCHITECTURE "Long recordings and the corpus"); it starts once the server listens.
let waveforms: WaveformJob | null = null;
deps.waveforms = { wake: () => waveforms?.wake() };
// Decision 037: changes wake the webhook delivery job after their commit; it starts with the other jobs below.
let webhooks: WebhookJob | null = null;
deps.webhooks = { allowedHosts: settings.WEBHOOK_ALLOWED_HOSTS, wake: () => webhooks?.wake() };
const app = await buildApp({ deps, settings, logger: true });
// The hourly jobs run in one of the processes sharing the database (decision 015).
const locks = openJobLocks({
  db: deps.db,
  databaseUrl: settings.DATABASE_URL,
  onError: (error) => app.log.warn({ err: error }, "job lock connection lost; the next round reconnects"),
});
const stopPruning = keepEventsFor({ db: deps.db, locks }, settings.EVENT_RETENTION_DAYS, app.log);
const stopSweeping = sweepFilesHourly({ ...deps, locks }, app.log);
// Decision 030: the deep pages' anchors, rebuilt past the oldest change every minute.
const stopAnchoring = rebuildPageAnchorsEveryMinute({ db: deps.db, locks }, app.log);
// Decision 035: the speech measures of approved transcripts' original audio, checked every minute.
const stopMeasuring = measureSpeechEveryMinute({ ...deps, locks }, app.log);
// Decision 037: webhook deliveries, in the process holding the `webhooks` lock; changes wake it after their commit.
webhooks = startWebhookJob(
  { ...deps, locks, log: app.log },
  { ...DEFAULT_WEBHOOK_DELIVERY, allowedHosts: settings.WEBHOOK_ALLOWED_HOSTS },
);
// Decision 027: with BACKUP_DIR, one of the processes writes a backup every BACKUP_EVERY_HOURS (a folder
// that cannot be written stops the start here).
const backups = settings.BACKUP_DIR
  ? await startBackupSchedule(
      { ...deps, databaseUrl: settings.DATABASE_URL, pglite: handle.pglite, locks },
      {
        dir: settings.BACKUP_DIR,
        everyMs: settings.BACKUP_EVERY_HOURS * 3_600_000,
        keep: settings.BACKUP_KEEP,
        log: app.log,
      },
    )
  : null;
// Decision 027: 'Back up now' on the Backups page writes into BACKUP_DIR, else DATA_DIR/backups, under the same lock.
deps.backups = openBackupDesk({
  ...deps,
  databaseUrl: settings.DATABASE_URL,
  pglite: handle.pglite,
  locks,
  dir: settings.BACKUP_DIR ?? path.join(settings.DATA_DIR, "backups"),
  scheduled: Boolean(settings.BACKUP_DIR),
  log: (line) => app.log.warn(line),
});
// Decision 028: with METRICS_PORT, /metrics is served on a listener of its own (started after the app's).
let metricsListener: MetricsListener | null = null;

// Decision 029: SIGTERM (an upgrade, `docker compose stop`) first answers /healthz 503 for SHUTDOWN_NOTICE_SECONDS
// while still serving, so the proxy turns away; then SIGTERM or SIGINT stops taking connections, finishes the
// requests in flight for at most SHUTDOWN_GRACE_SECONDS, closes live sockets with 1012, then stops the jobs
// and pools and exits 0; a second signal starts no second shutdown (lib/graceful-shutdown.ts).
const shutdown = gracefulShutdown({
  announce: () => announceStopping(app),
  noticeMs: settings.SHUTDOWN_NOTICE_SECONDS * 1000,
  drain: () => app.close(),
  dropConnections: () => app.server.closeAllConnections(),
  steps: [
    { name: "metrics listener", run: async () => metricsListener?.close() },
    { name: "dataset exports", run: () => abandonExportJobs(deps) },
    { name: "event retention", run: stopPruning },
    { name: "file sweep", run: stopSweeping },
    { name: "page anchors", run: stopAnchoring },
    { name: "speech measures", run: stopMeasuring },
    { name: "webhooks", run: async () => webhooks?.stop() },
    { name: "waveforms", run: async () => waveforms?.stop() },
    { name: "scheduled backups", run: async () => backups?.stop() },
    { name: "backups asked for", run: async () => deps.backups?.stop() },
    { name: "job locks", run: () => locks.close() },
    { name: "live events", run: () => deps.events.close() },
    { name: "storage", run: () => deps.storage.close() },
    { name: "database", run: () => handle.close() },
  ],
  graceMs: settings.SHUTDOWN_GRACE_SECONDS * 1000,
  log: app.log,
  exit: (code) => process.exit(code),
});
process.on("SIGINT", (signal) => void shutdown(signal));
process.on("SIGTERM", (signal) => void shutdown(signal));

await app.listen({ port: settings.PORT, host: settings.HOST });
if (settings.METRICS_PORT !== undefined) {
  metricsListener = await startMetricsListener({
    port: settings.METRICS_PORT,
    host: settings.HOST,
    token: settings.METRICS_TOKEN,
  });
  console.log(`Metrics are served at http://${settings.HOST}:${metricsListener.port}/metrics`);
}
// Decodes stored audio files into peaks, in one of the processes sharing the database: new uploads
// and the audios stored before (a backfill that resumes where it stopped).
waveforms = startWaveformJob({ ...deps, locks, log: app.log });
console.log(`Tafsiri is running at http://${settings.HOST}:${settings.PORT}`);
