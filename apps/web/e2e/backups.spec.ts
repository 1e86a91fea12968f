// Decision 027, docs/operations.md "Backups and restore": the Backups page (Management → Backups).
// A real server on the embedded database (PGlite in its own DATA_DIR, as `npm start` runs it) keeps
// serving while an admin presses 'Back up now' from the keyboard; the archive shows in the table
// with its size, who took it and its contents; the admin downloads it (a browser download through
// its signed link) and the real restore command restores that file into an empty data directory,
// whose database then holds the seeded audios. Delete asks first. axe finds nothing serious.
import { execFile } from "node:child_process";
import { promises as fs } from "node:fs";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect } from "vitest";
import type { Browser, Page } from "playwright-core";
import type { FastifyInstance } from "fastify";
import { openBackupDesk, type AppDeps } from "@tafsiri/api";
import { createDb, type DbHandle } from "@tafsiri/db";
import { openJobLocks, type JobLocks } from "@tafsiri/db/repositories/job-locks";
import { buildApp } from "../../server/src/app";
import { bootstrap } from "../../server/src/bootstrap";
import { loadSettings } from "../../server/src/settings";
import { describeBrowser, launchChromium, seen, signIn } from "./support/browser";
import { seriousAxeViolations } from "./support/axe";
import { seedAudio } from "./support/seed";
import { createSteps } from "./support/steps";
import { REPO_ROOT, type TestServer, type TestUser } from "./support/server";

const run = promisify(execFile);
const ADMIN_EMAIL = "backups-admin@example.test";
const ADMIN_PASSWORD = "Backups-adm1n-pass!";

describeBrowser("the Backups page: back up now while serving, download, restore", () => {
  const step = createSteps();
  const temp: string[] = [];
  let deps: AppDeps;
  let handle: DbHandle;
  let app: FastifyInstance;
  let locks: JobLocks;
  let browser: Browser;
  let page: Page;
  let baseURL: string;
  let downloaded = "";

  const tempDir = async (prefix: string) => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), prefix));
    temp.push(dir);
    return dir;
  };

  beforeAll(async () => {
    const dataDir = await tempDir("tafsiri-e2e-backups-");
    const settings = loadSettings({
      DATA_DIR: dataDir,
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
      WEB_DIST: path.join(REPO_ROOT, "apps/web/dist"),
      // Decision 038's admin second factor is identity-checks.spec's subject; this admin signs in with a password.
      REQUIRE_ADMIN_SECOND_FACTOR: "false",
    });
    ({ deps, handle } = await bootstrap(settings, () => undefined));
    app = await buildApp({ deps, settings, logger: process.env.E2E_SERVER_LOG === "1" });
    await app.listen({ host: "127.0.0.1", port: 0 });
    baseURL = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    // As server.ts does: the desk writes into DATA_DIR/backups under the 'backup' job lock.
    locks = openJobLocks({ db: deps.db });
    deps.backups = openBackupDesk({
      ...deps,
      pglite: handle.pglite,
      locks,
      dir: path.join(dataDir, "backups"),
      scheduled: false,
    });
    const row = await deps.db
      .selectFrom("users")
      .select(["id", "username", "email", "role", "active"])
      .where("email", "=", ADMIN_EMAIL)
      .executeTakeFirstOrThrow();
    const admin: TestUser = { ...row, password: ADMIN_PASSWORD };
    const server = { harness: { deps } } as unknown as TestServer;
    await seedAudio(server, admin, { filename: "backup-river" });
    await seedAudio(server, admin, { filename: "backup-lake", category: "Dementia" });
    browser = await launchChromium();
    const context = await browser.newContext({
      viewport: { width: 1440, height: 900 },
      baseURL,
      acceptDownloads: true,
    });
    page = await context.newPage();
    await signIn(page, admin);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await deps?.backups?.stop();
    await locks?.close();
    await app?.close();
    await deps?.events.close();
    await deps?.storage.close();
    await handle?.close();
    for (const dir of temp) await fs.rm(dir, { recursive: true, force: true });
  });

  step(
    "Management → Backups: no backups yet; 'Back up now' from the keyboard writes one while the server serves",
    async () => {
      await page
        .getByRole("navigation", { name: "Management" })
        .waitFor()
        .catch(() => undefined);
      await page.goto("/management/backups");
      await seen(page.getByRole("link", { name: "Backups" }));
      await seen(page.getByText("No backups yet."));
      const button = page.getByRole("button", { name: "Back up now" });
      await button.focus();
      await page.keyboard.press("Enter");
      const table = page.getByRole("table", { name: "Archives" });
      const row = table.getByRole("row", { name: /tafsiri-backup-/ });
      await seen(row);
      await expect.poll(() => row.textContent(), { timeout: 60_000 }).toMatch(/rows in \d+ tables, 2 files/);
      expect(await row.textContent()).toContain("admin");
      await seen(page.getByRole("button", { name: "Back up now" }));
      expect(await seriousAxeViolations(page)).toEqual([]);
    },
  );

  step("Download saves the archive through the browser", async () => {
    const download = page.waitForEvent("download");
    await page.getByRole("button", { name: /^Download tafsiri-backup-/ }).focus();
    await page.keyboard.press("Enter");
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^tafsiri-backup-.*\.zip$/);
    downloaded = path.join(await tempDir("tafsiri-e2e-download-"), file.suggestedFilename());
    await file.saveAs(downloaded);
    expect((await fs.stat(downloaded)).size).toBeGreaterThan(1000);
  });

  step("`npm run restore` restores the downloaded archive into an empty data directory", async () => {
    const target = await tempDir("tafsiri-e2e-restored-");
    const restored = await run(
      path.join(REPO_ROOT, "node_modules/.bin/tsx"),
      ["apps/server/src/cli/restore.ts", downloaded],
      { cwd: REPO_ROOT, env: { ...process.env, DATA_DIR: target, DATABASE_URL: "", STORAGE: "local" } },
    );
    expect(restored.stdout).toMatch(/audios: 2/);
    const db = await createDb({ pgliteDir: path.join(target, "db") });
    try {
      const audios = await db.db.selectFrom("audios").select("filename").orderBy("filename").execute();
      expect(audios.map((a) => a.filename)).toEqual(["backup-lake", "backup-river"]);
    } finally {
      await db.close();
    }
    expect((await fs.readdir(path.join(target, "files"), { recursive: true })).length).toBeGreaterThan(0);
  });

  step("Delete asks first, then removes the archive", async () => {
    await page.getByRole("button", { name: /^Delete tafsiri-backup-/ }).focus();
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("alertdialog", { name: "Delete this backup?" });
    await seen(dialog);
    expect(await seriousAxeViolations(page, { include: ['[role="alertdialog"]'] })).toEqual([]);
    await dialog.getByRole("button", { name: "Delete backup" }).click();
    await seen(page.getByText("No backups yet."));
  });
});
