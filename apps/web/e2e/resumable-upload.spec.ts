// Decision 020: a 20 MB recording uploaded through a link that drops twice, with a
// reload of the page in between, arrives whole and once. The browser reaches the real server through a
// TCP proxy (support/cutting-proxy.ts) that limits what it sends to 4 MB/s and cuts every connection
// at 5 MB and at 14 MB sent; the page is reloaded at about 9 MB and the same file chosen again.
import { createHash, randomBytes } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect } from "vitest";
import type { Page } from "playwright-core";
import { wavFile } from "@tafsiri/api/testing/wav";
import { describeBrowser, screenshot, seen, toast, useBrowserSuite } from "./support/browser";
import { seriousAxeViolations } from "./support/axe";
import { startCuttingProxy, type CuttingProxy } from "./support/cutting-proxy";
import { seedAudio } from "./support/seed";
import type { TestUser } from "./support/server";
import { createSteps } from "./support/steps";
import { openTranslatedAudio } from "./support/tasks";

const MB = 1024 * 1024;
/**
 * How long a paused upload is watched for bytes moving. Kept as a wait: once paused, the upload
 * has nothing left to do, so nothing on the page can show sooner that it will not start again.
 */
const PAUSED_WATCH_MS = 1_500;
const AUDIO = "resumable-lake";
const SIZE = 20 * MB;

describeBrowser("a resumable upload over a link that drops", () => {
  const suite = useBrowserSuite();
  const step = createSteps();
  let staff: TestUser;
  let audioId: string;
  let proxy: CuttingProxy;
  let page: Page;
  let folder: string;
  let file: string;
  let source: Buffer;

  beforeAll(async () => {
    const admin = await suite.server.createUser("Admin");
    staff = await suite.server.createUser("Staff");
    audioId = await seedAudio(suite.server, admin, { filename: AUDIO, assignTo: staff });
    const { port, hostname } = new URL(suite.server.baseURL);
    proxy = await startCuttingProxy({ host: hostname, port: Number(port) }, { upstreamBytesPerSecond: 4 * MB });
    folder = await mkdtemp(path.join(tmpdir(), "tafsiri-resumable-"));
    file = path.join(folder, "take-20mb.wav");
    // Random samples: nothing in the file repeats, so a byte put at the wrong offset would change its hash.
    const noise = randomBytes(SIZE - 44);
    source = wavFile(SIZE - 44, (offset) => noise[offset]!);
    await writeFile(file, source);
  });

  afterAll(async () => {
    await proxy?.close();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  /** Chooses the file and the recorder, and presses 'Upload Audio'. */
  async function startUpload() {
    await page.getByLabel("Translated audio file").setInputFiles(file);
    await page.getByLabel("Select Recorder").selectOption({ label: `${staff.username} (You)` });
    await page.getByRole("button", { name: "Upload Audio" }).click();
  }

  /** Waits until the proxy has passed `bytes` from the browser. */
  async function sent(bytes: number) {
    await expect.poll(() => proxy.upstreamBytes, { timeout: 60_000, interval: 100 }).toBeGreaterThanOrEqual(bytes);
  }

  step("the staff member opens Translated Audio through the flaky link", async () => {
    const first = await suite.newPage("staff");
    const context = await first
      .context()
      .browser()!
      .newContext({ viewport: { width: 1440, height: 900 }, baseURL: proxy.url });
    context.setDefaultTimeout(30_000);
    page = await context.newPage();
    await openTranslatedAudio(page, staff, AUDIO);
    await seen(page.getByRole("heading", { name: "Upload Translated Audio" }));
  });

  step("the upload shows bytes sent, rate, time left and Pause; the link drops at 5 MB and it goes on", async () => {
    const start = proxy.upstreamBytes;
    proxy.cutAtUpstreamBytes([start + 5 * MB, start + 14 * MB]);
    await startUpload();
    const progress = await seen(page.getByTestId("upload-progress"));
    await expect
      .poll(() => progress.textContent(), { timeout: 20_000 })
      .toMatch(/MB of 20\.0 MB · .*MB\/s · about \d+ s left/);
    await seen(progress.getByRole("button", { name: "Pause" }));
    await screenshot(page, "resumable-upload-progress");
    expect(await seriousAxeViolations(page)).toEqual([]);
    await sent(start + 5 * MB);
    await expect.poll(() => proxy.cuts).toBe(1);
    // After the cut the upload goes on by itself.
    await sent(start + 7 * MB);
  });

  step("Pause stops sending and Resume goes on", async () => {
    const progress = page.getByTestId("upload-progress");
    await progress.getByRole("button", { name: "Pause" }).click();
    await seen(progress.getByText(/Paused/));
    // What the browser had already handed to its socket still drains through the proxy, until the
    // connection the upload went on (the only one to carry megabytes) closes; then nothing moves.
    await expect
      .poll(() => Math.max(0, ...proxy.openUpstreamBytes), { timeout: 20_000, interval: 100 })
      .toBeLessThan(MB);
    const paused = proxy.upstreamBytes;
    await page.waitForTimeout(PAUSED_WATCH_MS);
    expect(proxy.upstreamBytes - paused).toBeLessThan(64 * 1024);
    await progress.getByRole("button", { name: "Resume" }).click();
    await seen(progress.getByRole("button", { name: "Pause" }));
  });

  step("a reload in the middle, then the same file chosen again, goes on from where it stopped", async () => {
    await sent(proxy.upstreamBytes + 2 * MB);
    await page.reload();
    await seen(page.getByRole("heading", { name: "Upload Translated Audio" }));
    // The page cannot reopen the file by itself: it says which upload did not finish and what to do.
    const notice = await seen(page.getByTestId("unfinished-upload"));
    expect(await notice.textContent()).toContain(
      "‘take-20mb.wav’ (20.0 MB) did not finish uploading. Choose the same file again to go on from where it stopped.",
    );
    await screenshot(page, "resumable-upload-unfinished");
    expect(await seriousAxeViolations(page)).toEqual([]);
    await startUpload();
    const progress = await seen(page.getByTestId("upload-progress"));
    // It starts near where it was, not at 0 (it shows '0 B of 20.0 MB' until the server has said how
    // far it got: over a second under CI's load, vitest's default for a poll).
    await expect
      .poll(async () => Number(/^([\d.]+) MB/.exec((await progress.textContent()) ?? "")?.[1] ?? 0), {
        timeout: 20_000,
        interval: 100,
      })
      .toBeGreaterThan(5);
    await toast(page, "Translation Audio file uploaded successfully.");
    expect(proxy.cuts).toBe(2);
    expect(await page.getByTestId("unfinished-upload").count()).toBe(0);
  });

  step("the stored recording is the source, byte for byte, and there is exactly one", async () => {
    const { db, storage } = suite.server.harness.deps;
    const recordings = await db
      .selectFrom("translatedRecordings")
      .innerJoin("submissions", "submissions.id", "translatedRecordings.submissionId")
      .innerJoin("tasks", "tasks.id", "submissions.taskId")
      .select(["translatedRecordings.fileKey", "translatedRecordings.sizeBytes"])
      .where("tasks.audioId", "=", audioId)
      .execute();
    expect(recordings).toHaveLength(1);
    expect(Number(recordings[0]!.sizeBytes)).toBe(SIZE);
    const hash = createHash("sha256");
    for await (const chunk of await storage.read(recordings[0]!.fileKey)) hash.update(chunk as Buffer);
    expect(hash.digest("hex")).toBe(createHash("sha256").update(source).digest("hex"));
    // Resumed, not restarted: well under two full sends went through the link.
    expect(proxy.upstreamBytes).toBeLessThan(SIZE * 1.5);
  });

  step("an unfinished upload can be discarded: the notice goes and the server drops its bytes", async () => {
    await startUpload();
    const progress = await seen(page.getByTestId("upload-progress"));
    await expect.poll(async () => suite.server.harness.resumableUploadObjects()).not.toEqual([]);
    await progress.getByRole("button", { name: "Pause" }).click();
    await page.reload();
    const notice = await seen(page.getByTestId("unfinished-upload"));
    await notice.getByRole("button", { name: "Discard" }).click();
    // The DELETE may take a while on a loaded machine: poll for longer than expect.poll's default second.
    await expect.poll(() => page.getByTestId("unfinished-upload").count(), { timeout: 15_000 }).toBe(0);
    await expect.poll(async () => suite.server.harness.resumableUploadObjects(), { timeout: 15_000 }).toEqual([]);
    expect(await page.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith("tus::")))).toEqual([]);
  });
});
