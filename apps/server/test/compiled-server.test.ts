import { spawnSync } from "node:child_process";
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { s3Settings, startTestS3Server } from "@tafsiri/api/testing/s3-server";
import { serverDataPlace, startServerProcess, stopServerProcess, type ServerProcess } from "./fixtures/server-process";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const DIST = path.join(ROOT, "apps/server/dist");
const WAV = path.join(ROOT, "apps/server/test/fixtures/hello.wav");

const cleanups: Array<() => Promise<void>> = [];
let server: ServerProcess | undefined;

/**
 * Decision 026: `npm start` and the Docker image run apps/server/dist/server.js, the server compiled
 * by scripts/server-build.mjs, with no tsx. This starts that file with node on a temp DATA_DIR (and,
 * when this run tests on PostgreSQL, a fresh database cloned from the run's template) and uses it
 * the way a client does: the first admin signs in, a tRPC query and a REST path answer, a WAV
 * uploaded over REST is decoded by the waveform job's worker thread (a file the build writes beside
 * server.js) into peaks the signed URL serves, and SIGTERM ends it with exit code 0. With
 * TEST_STORAGE=s3 its files go to a test S3 server's bucket (the AWS SDK, external to the build).
 */
describe("the compiled server (node apps/server/dist/server.js)", () => {
  beforeAll(async () => {
    const build = spawnSync(process.execPath, [path.join(ROOT, "scripts/server-build.mjs")], {
      cwd: ROOT,
      encoding: "utf8",
    });
    expect(build.status, build.stdout + build.stderr).toBe(0);

    let storage: Record<string, string> = {};
    if (process.env.TEST_STORAGE === "s3") {
      const s3 = await startTestS3Server();
      cleanups.push(() => s3.close());
      storage = s3Settings(s3);
    }
    server = await startServerProcess(
      {
        ...(await serverDataPlace("tafsiri-compiled-", cleanups)),
        ...storage,
        ADMIN_EMAIL: "compiled@example.test",
        ADMIN_USERNAME: "compiled",
        ADMIN_PASSWORD: "Compil3d!strong",
      },
      [process.execPath, "--enable-source-maps", path.join(DIST, "server.js")],
    );
  }, 120_000);

  afterAll(async () => {
    if (server) await stopServerProcess(server);
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it("writes source maps that name the TypeScript, beside the server and its workers", async () => {
    const files = await fs.readdir(DIST);
    for (const file of [
      "server.js",
      "decode-worker.mjs",
      "vad-worker.mjs",
      "take-worker.mjs",
      "assemble-worker.mjs",
      "backup.js",
      "restore.js",
    ]) {
      expect(files).toContain(file);
      expect(files).toContain(`${file}.map`);
    }
    const map = JSON.parse(await fs.readFile(path.join(DIST, "server.js.map"), "utf8")) as { sources: string[] };
    const sources = map.sources.map((source) => path.resolve(DIST, source));
    expect(sources).toContain(path.join(ROOT, "apps/server/src/server.ts"));
    expect(sources).toContain(path.join(ROOT, "packages/api/src/index.ts"));
  });

  it("compiles the backup and restore commands: they answer bad arguments with exit code 2 and say why", async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "tafsiri-compiled-cli-"));
    cleanups.push(() => fs.rm(dataDir, { recursive: true, force: true }));
    const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "" };
    const backup = spawnSync(process.execPath, [path.join(DIST, "backup.js")], { env, encoding: "utf8" });
    expect(backup.status, backup.stderr).toBe(2);
    expect(backup.stderr).toContain("--out");
    const archive = path.join(dataDir, "missing.zip");
    const restore = spawnSync(process.execPath, [path.join(DIST, "restore.js"), archive], { env, encoding: "utf8" });
    expect(restore.status, restore.stderr).toBe(2);
    expect(restore.stderr).toContain(`Restore refused: ${archive} is not a readable backup archive`);
  });

  it("signs in, answers tRPC and REST, decodes an upload in its worker, and stops on SIGTERM with 0", async () => {
    if (!server) throw new Error("the server did not start");
    const base = server.baseUrl;
    const login = await fetch(`${base}/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "compiled@example.test", password: "Compil3d!strong" }),
    });
    expect(login.status, server.output()).toBe(200);
    const { token } = (await login.json()) as { token: string };
    const auth = { authorization: `Bearer ${token}` };

    // tRPC over HTTP.
    const me = await fetch(`${base}/trpc/accounts.me`, { headers: auth });
    expect(me.status).toBe(200);
    expect(JSON.stringify(await me.json())).toContain("compiled@example.test");

    // A REST upload (multipart), as the web app and the spec's clients send it.
    const form = new FormData();
    form.append("category", "Control");
    form.append("file", new Blob([await fs.readFile(WAV)], { type: "audio/wav" }), "compiled-hello.wav");
    const upload = await fetch(`${base}/api/audios/upload/AUDIO`, { method: "POST", headers: auth, body: form });
    expect(upload.status, await upload.clone().text()).toBe(200);
    const { _id: audioId } = (await upload.json()) as { _id: string };

    // The upload wakes the waveform job, which decodes the file in dist/decode-worker.mjs.
    const input = encodeURIComponent(JSON.stringify({ audioId }));
    let waveform: { status: string; peaksUrl: string | null } = { status: "pending", peaksUrl: null };
    for (let i = 0; i < 300 && waveform.status === "pending"; i++) {
      if (i > 0) await new Promise((resolve) => setTimeout(resolve, 100));
      const res = await fetch(`${base}/trpc/audios.get?input=${input}`, { headers: auth });
      expect(res.status).toBe(200);
      ({ waveform } = ((await res.json()) as { result: { data: { waveform: typeof waveform } } }).result.data);
    }
    expect(waveform.status, server.output()).toBe("ready");
    const peaks = await fetch(new URL(waveform.peaksUrl ?? "", base));
    expect(peaks.status).toBe(200);
    expect((await peaks.arrayBuffer()).byteLength).toBeGreaterThan(0);

    // Suggest segments runs Silero VAD in dist/vad-worker.mjs, which loads the model's package by name.
    const segments = await fetch(`${base}/trpc/transcripts.suggestSegments?input=${input}`, { headers: auth });
    expect(segments.status, await segments.clone().text()).toBe(200);

    // A REST path of SPEC §7.1 answers the duration the worker measured.
    const audio = await fetch(`${base}/api/audios/${audioId}`, { headers: auth });
    expect(audio.status).toBe(200);
    const body = (await audio.json()) as { filename: string; duration_seconds: number | null };
    expect(body.filename).toBe("compiled-hello");
    expect(body.duration_seconds).toBeGreaterThan(0);

    await stopServerProcess(server);
    expect(server.child.exitCode, server.output()).toBe(0);
    expect(server.output()).not.toMatch(/ERR_|Cannot find module|Dynamic require/);
  }, 60_000);
});
