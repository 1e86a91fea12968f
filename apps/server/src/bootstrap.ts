import path from "node:path";
import { createDb, migrateToLatest, type DbHandle } from "@tafsiri/db";
import { createEventBus, createMailer, openStorage, type AppDeps } from "@tafsiri/api";
import { ensureFirstAdmin, failAbandonedExportsAtStart } from "@tafsiri/api";
import { webauthnSettings, type Settings } from "./settings";
import { loadJwtSecret } from "./config/jwt-secret";
import { claimEmbeddedDatabase } from "./lib/embedded-database-lock";
import { storageConfig } from "./config/storage-config";

/**
 * Opens the database (PGlite under DATA_DIR/db, claimed for this process: claimEmbeddedDatabase
 * throws while another running server has it open; or DATABASE_URL), migrates it, creates the first
 * admin when there is no user, opens file storage (DATA_DIR/files, or with STORAGE=s3 the S3_*
 * bucket, checked to answer: decision 014), marks failed the dataset exports a stopped server left
 * running, and starts the live-event bus (LISTEN/NOTIFY with DATABASE_URL). Close `deps.events` before `handle` on shutdown.
 */
export async function bootstrap(
  settings: Settings,
  log: (line: string) => void = console.log,
): Promise<{ deps: AppDeps; handle: DbHandle }> {
  const dataDir = path.resolve(settings.DATA_DIR);
  // Before the database, so a bucket that does not answer stops the start at once.
  const storage = await openStorage(storageConfig(settings, dataDir));
  // One process at a time on the embedded database: a second server on this DATA_DIR stops here.
  const release = settings.DATABASE_URL ? null : await claimEmbeddedDatabase(dataDir);
  const opened = await createDb({
    databaseUrl: settings.DATABASE_URL,
    pgliteDir: path.join(dataDir, "db"),
    pgliteSharedBuffers: settings.PGLITE_SHARED_BUFFERS,
    poolSize: settings.DATABASE_POOL_SIZE,
  });
  const handle: DbHandle = {
    ...opened,
    close: async () => {
      await opened.close();
      await release?.();
    },
  };
  await migrateToLatest(handle.db);
  const admin = await ensureFirstAdmin(handle.db, {
    email: settings.ADMIN_EMAIL,
    username: settings.ADMIN_USERNAME,
    password: settings.ADMIN_PASSWORD,
  });
  if (admin?.generatedPassword) {
    log(
      `First admin created: ${admin.email} with password ${admin.generatedPassword} (shown once; change it after signing in).`,
    );
  } else if (admin) {
    log(`First admin created: ${admin.email}.`);
  }
  const abandoned = await failAbandonedExportsAtStart({ db: handle.db });
  if (abandoned > 0) log(`${abandoned} dataset export(s) left running by a stopped server were marked failed.`);
  const deps: AppDeps = {
    db: handle.db,
    storage,
    jwtSecret: await loadJwtSecret(dataDir, settings.JWT_SECRET),
    timezone: settings.APP_TIMEZONE,
    programmeName: settings.PROGRAMME_NAME,
    events: await createEventBus({
      db: handle.db,
      databaseUrl: settings.DATABASE_URL,
      onError: (error) => log(`Live events: ${error instanceof Error ? error.message : String(error)}`),
    }),
    mailer: createMailer({ smtpUrl: settings.SMTP_URL, outboxDir: path.join(dataDir, "outbox"), log }),
    publicUrl: settings.PUBLIC_URL ?? `http://${settings.HOST}:${settings.PORT}`,
    log,
    sessionLifetimeSeconds: settings.SESSION_IDLE_DAYS * 24 * 60 * 60,
    requireAdminSecondFactor: settings.REQUIRE_ADMIN_SECOND_FACTOR,
    webauthn: webauthnSettings(settings),
  };
  return { deps, handle };
}
