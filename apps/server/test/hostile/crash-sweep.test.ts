import { promises as fs } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";
import { createDb, openPglite, type Database } from "@tafsiri/db";
import { createTestDb } from "@tafsiri/db/testing/test-db";
import { createLocalStorage, sweepFiles } from "@tafsiri/api";
import { wavFile } from "@tafsiri/api/testing/wav";
import { listFiles, multipart } from "../fixtures/app-harness";
import { startServerProcess, stopServerProcess, type ServerProcess } from "../fixtures/server-process";

/**
 * Attack (a power cut, as `kill -9` plays it): the server dies while 30 uploads are under way.
 * Before the crash sweep (decision 014) this left files in `files/.tmp` and stored files no row pointed at,
 * forever. Now the restarted server sweeps at start (keeping anything younger than an hour, so
 * these stay) and every hour; the same sweep run with no age threshold on the stopped server
 * leaves no row without its file, no file without its row and an empty `.tmp`. Runs on PGlite
 * (DATA_DIR/db) and, with DATABASE_URL / TEST_DATABASE_URL, on a fresh PostgreSQL database.
 */

const template = inject("dbTemplate");
const ADMIN = { ADMIN_EMAIL: "boss@example.test", ADMIN_USERNAME: "boss", ADMIN_PASSWORD: "Adm1n!strong" };
/** Uploads streamed whole, of which some are answered before the kill. */
const WHOLE = 20;
/** Uploads that send a first part of their file and then wait: mid-upload at the kill. */
const STALLED = 10;
const WAV_BYTES = 3 * 1024 * 1024;

const running: ServerProcess[] = [];
const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  await Promise.all(running.map(stopServerProcess));
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** A valid 8 kHz mono 16-bit WAV of `bytes` bytes of audio data (a ramp, not silence). */
function wav(bytes: number): Buffer {
  return wavFile(bytes, (i) => i);
}

/** An AUDIO upload form for `name`.wav. */
function audioForm(name: string, content: Buffer) {
  return multipart([
    ["category", "Control"],
    ["file", { name: `${name}.wav`, content, type: "audio/wav" }],
  ]);
}

/** Starts the server process, stopped in afterAll if the test does not. */
async function start(env: Record<string, string | undefined>): Promise<ServerProcess> {
  const server = await startServerProcess(env);
  running.push(server);
  return server;
}

/**
 * Ends the server at once, as a power cut would: SIGKILL to its node process (the test servers run
 * as one process, SOURCE_SERVER_COMMAND), then waits for it to exit.
 */
async function killHard(server: ServerProcess): Promise<void> {
  const exited = new Promise<void>((resolve) => server.child.once("exit", () => resolve()));
  expect(server.child.kill("SIGKILL"), "the server's node process takes SIGKILL").toBe(true);
  await exited;
}

/** Resolves once `check` holds (polled every 10 ms); throws `what` after 60 s. */
async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * POSTs the first `sentBytes` of a form and then waits with the request open (the server is
 * mid-upload until it dies). Resolves when the connection ends, however it ends.
 */
function stalledUpload(baseUrl: string, token: string, form: { body: Buffer; contentType: string }, sentBytes: number) {
  return new Promise<void>((resolve) => {
    const req = http.request(`${baseUrl}/api/audios/upload/AUDIO`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${token}`,
        "content-type": form.contentType,
        "content-length": String(form.body.length),
      },
    });
    req.on("error", () => resolve());
    req.on("response", (res) => {
      res.resume();
      res.on("close", () => resolve());
    });
    req.write(form.body.subarray(0, sentBytes));
  });
}

/** Every storage key a row points at. */
async function rowKeys(db: Database): Promise<string[]> {
  const audios = await db.selectFrom("audios").select(["fileKey", "transcriptKey", "peaksKey"]).execute();
  const versions = await db.selectFrom("transcriptVersions").select("fileKey").execute();
  const recordings = await db.selectFrom("translatedRecordings").select(["fileKey", "peaksKey"]).execute();
  // Peaks files too: the waveform job may have written an answered upload's peaks before the kill.
  const present = (key: string | null): key is string => key !== null;
  return [
    ...audios.flatMap((a) => [a.fileKey, a.transcriptKey, a.peaksKey].filter(present)),
    ...versions.map((v) => v.fileKey),
    ...recordings.flatMap((r) => [r.fileKey, r.peaksKey].filter(present)),
  ].sort();
}

describe("crash (SIGKILL) during 30 concurrent uploads", () => {
  it("leaves, after the restart and the sweep, no row without its file, no file without its row and an empty .tmp", async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "tafsiri-crash-"));
    cleanups.push(() => fs.rm(dataDir, { recursive: true, force: true }));
    const postgres = template.kind === "postgres" ? await createTestDb(template) : null;
    if (postgres) cleanups.push(() => postgres.close());
    if (template.kind === "pglite") {
      // The run's migrated template as DATA_DIR/db, so the server starts without migrating from scratch.
      const seeded = await openPglite(path.join(dataDir, "db"), new Blob([await fs.readFile(template.dumpFile)]));
      await seeded.close();
    }
    const env = { ...ADMIN, DATA_DIR: dataDir, DATABASE_URL: postgres?.url };
    const filesDir = path.join(dataDir, "files");
    const tmpDir = path.join(filesDir, ".tmp");

    const first = await start(env);
    const login = await fetch(`${first.baseUrl}/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: ADMIN.ADMIN_EMAIL, password: ADMIN.ADMIN_PASSWORD }),
    });
    expect(login.status).toBe(200);
    const { token } = (await login.json()) as { token: string };
    const content = wav(WAV_BYTES);

    // Ten uploads stop partway through their file: their temp files are being written at the kill.
    const stalled: Array<Promise<void>> = [];
    for (let i = 0; i < STALLED; i++) {
      stalled.push(stalledUpload(first.baseUrl, token, await audioForm(`stalled-${i}`, content), WAV_BYTES / 2));
    }
    await until(async () => (await listFiles(tmpDir)).length >= STALLED, "the stalled uploads' temp files");

    // Twenty are sent whole at once; the kill comes as the fifth is answered, while the rest are
    // being stored (file moved into place, row not yet committed) or still arriving.
    const answered: string[] = [];
    let killed: Promise<void> | null = null;
    const whole = await Promise.all(Array.from({ length: WHOLE }, (_, i) => audioForm(`whole-${i}`, content)));
    const uploads = whole.map((form) =>
      fetch(`${first.baseUrl}/api/audios/upload/AUDIO`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": form.contentType },
        body: form.body,
      }).then(
        async (res) => {
          const text = await res.text().catch(() => null); // null: the answer was cut off by the kill
          if (text === null) return;
          if (res.status !== 200) throw new Error(`upload answered ${res.status}: ${text}`);
          answered.push((JSON.parse(text) as { _id: string })._id);
          if (answered.length === 5) killed ??= killHard(first);
        },
        () => undefined, // cut off by the kill
      ),
    );
    await until(async () => killed !== null, "five answered uploads");
    await killed;
    await Promise.all([...uploads, ...stalled]);
    expect(answered.length).toBeGreaterThanOrEqual(5);

    // The restarted server sweeps at start, but keeps files younger than an hour: the debris stays.
    const second = await start(env);
    await until(async () => second.output().includes("file sweep: removed"), "the sweep at start");
    expect(second.output()).toContain("file sweep: removed 0 temp file(s) and 0 stored file(s)");
    await stopServerProcess(second);
    const tempLeft = await listFiles(tmpDir);
    expect(tempLeft.length, "temp files the crash left").toBeGreaterThan(0);

    // The same sweep with no age threshold, on the stopped server's data.
    const handle = postgres ?? (await createDb({ pgliteDir: path.join(dataDir, "db") }));
    if (!postgres) cleanups.push(() => handle.close());
    const storage = createLocalStorage(filesDir);
    const keysBefore = await rowKeys(handle.db);
    const storedBefore = (await listFiles(filesDir)).filter((f) => !f.startsWith(".tmp/"));
    // A file is in place before its row commits, so the crash cannot leave a row without its file.
    expect(
      keysBefore.filter((key) => !storedBefore.includes(key)),
      "rows without their file",
    ).toEqual([]);
    const orphans = storedBefore.filter((f) => !keysBefore.includes(f));
    const report = await sweepFiles({ db: handle.db, storage }, { olderThanMs: 0 });
    console.info(
      `crash-sweep (${handle.kind}): ${answered.length} of ${WHOLE + STALLED} uploads answered before the kill, ` +
        `${keysBefore.length} rows; the crash left ${tempLeft.length} temp files and ${orphans.length} stored files ` +
        `without a row; the sweep removed ${report.tempFiles.length} and ${report.files.length}`,
    );
    expect([...report.files].sort()).toEqual(orphans);
    expect(report.tempFiles.sort()).toEqual(tempLeft);

    const keys = await rowKeys(handle.db);
    const stored = await listFiles(filesDir);
    expect(await listFiles(tmpDir), "files/.tmp").toEqual([]);
    expect(stored, "every stored file has its row and every row its file").toEqual(keys);
    const audioIds = (await handle.db.selectFrom("audios").select("id").execute()).map((a) => a.id);
    expect(audioIds, "every answered upload is kept").toEqual(expect.arrayContaining(answered));
  }, 180_000);
});
