import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { openStorage, signFileUrl } from "@tafsiri/api";
import { s3Settings, startTestS3Server, type TestS3Server } from "@tafsiri/api/testing/s3-server";
import { wavFile } from "@tafsiri/api/testing/wav";
import { createTestDb } from "@tafsiri/db/testing/test-db";
import { storageConfig } from "../src/config/storage-config";
import { loadSettings } from "../src/settings";
import { appWithUsers, fixture, listFiles, uploadAudio, type AppWithUsers } from "./fixtures/app-harness";
import { startServerProcess, stopServerProcess, type ServerProcess } from "./fixtures/server-process";

/**
 * Object storage (decision 014): the upload and file routes answer the same on local disk and
 * on an S3-compatible bucket (a real s3rver the test starts): uploads land in the bucket (not on
 * local disk), signed links serve them with HTTP Range (206 + Content-Range, 416, suffix and
 * open-ended ranges), conditional GETs (304, If-Range), HEAD, Content-Disposition and nosniff; a
 * refused upload leaves nothing in the bucket or the temp folder; deleting an audio removes its
 * objects. Then the settings (STORAGE, S3_*) and `npm start` with STORAGE=s3.
 */

/** A WAV of `dataBytes` bytes of samples (8 kHz mono 16-bit), each byte set from its offset. */
function wavOf(dataBytes: number): Buffer {
  return wavFile(dataBytes, (i) => i * 31 + (i >> 10));
}

describe.each(["local", "s3"] as const)("files on %s storage (decision 014)", (backend) => {
  let world: AppWithUsers;
  let wav: Buffer;
  let audioId: string;
  let audioKey: string;
  let audioUrl: string;

  const get = (url: string, headers: Record<string, string> = {}, method: "GET" | "HEAD" = "GET") =>
    world.h.app.inject({ method, url, headers });

  /** The audio's signed links as GET /api/audios/{id} answers them. */
  async function links(id: string): Promise<{ audioUrl: string; transcript: string | null }> {
    const res = await world.h.call("GET", `/api/audios/${id}`, world.adminToken);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ audioUrl: string; transcript: string | null }>();
  }

  /** Expects the file headers every answer carries. */
  function expectFileHeaders(res: LightMyRequestResponse, filename = "served.wav") {
    expect(res.headers["content-type"]).toBe("audio/wav");
    expect(res.headers["content-disposition"]).toBe(`inline; filename="${filename}"`);
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.headers["accept-ranges"]).toBe("bytes");
    expect(res.headers.etag).toMatch(/^W\/"[0-9a-f]+-[0-9a-f]+"$/);
    expect(new Date(String(res.headers["last-modified"])).getTime()).toBeGreaterThan(Date.now() - 600_000);
  }

  beforeAll(async () => {
    world = await appWithUsers({ storage: backend });
    wav = await fixture("hello.wav");
    audioId = (await uploadAudio(world.h, world.adminToken, { name: "served.wav", content: wav }))._id;
    const row = await world.h.deps.db
      .selectFrom("audios")
      .select("fileKey")
      .where("id", "=", audioId)
      .executeTakeFirstOrThrow();
    audioKey = row.fileKey;
    audioUrl = (await links(audioId)).audioUrl;
  });
  afterAll(() => world?.h.close());

  it("stores an uploaded audio in the backend (on S3: in the bucket, nothing left on local disk)", async () => {
    expect(world.h.storageBackend).toBe(backend);
    expect(await world.h.storedFiles()).toContain(audioKey);
    const onDisk = await listFiles(world.h.filesDir);
    if (backend === "s3") expect(onDisk).toEqual([]);
    else expect(onDisk).toContain(audioKey);
    expect(await world.h.deps.storage.stat(audioKey)).toMatchObject({ sizeBytes: wav.length });
  });

  it("serves the whole file from its signed link", async () => {
    const res = await get(audioUrl);
    expect(res.statusCode).toBe(200);
    expectFileHeaders(res);
    expect(Number(res.headers["content-length"])).toBe(wav.length);
    expect(res.rawPayload.equals(wav)).toBe(true);
  });

  it("answers byte ranges with 206 and Content-Range: a slice, a suffix, open-ended, one byte, merged ranges", async () => {
    const cases: Array<[range: string, start: number, end: number]> = [
      ["bytes=100-1099", 100, 1099],
      ["bytes=-50", wav.length - 50, wav.length - 1],
      ["bytes=40-", 40, wav.length - 1],
      ["bytes=0-0", 0, 0],
      ["bytes=0-9,5-19", 0, 19],
      [`bytes=-${wav.length + 100}`, 0, wav.length - 1],
      [`bytes=10-${wav.length + 100}`, 10, wav.length - 1],
    ];
    for (const [range, start, end] of cases) {
      const res = await get(audioUrl, { range });
      expect(res.statusCode, range).toBe(206);
      expectFileHeaders(res);
      expect(res.headers["content-range"], range).toBe(`bytes ${start}-${end}/${wav.length}`);
      expect(Number(res.headers["content-length"]), range).toBe(end - start + 1);
      expect(res.rawPayload.equals(wav.subarray(start, end + 1)), range).toBe(true);
    }
  });

  it("sends the whole file for ranges it does not serve (disjoint, malformed, other units)", async () => {
    for (const range of ["bytes=0-9,100-109", "bytes=abc", "bytes=9-3", "items=0-9"]) {
      const res = await get(audioUrl, { range });
      expect(res.statusCode, range).toBe(200);
      expect(res.rawPayload.equals(wav), range).toBe(true);
    }
  });

  it("answers 416 with the size for a range past the end", async () => {
    const res = await get(audioUrl, { range: `bytes=${wav.length + 10}-` });
    expect(res.statusCode).toBe(416);
    expect(res.headers["content-range"]).toBe(`bytes */${wav.length}`);
    expect(res.json()).toEqual({
      status: "failed",
      success: false,
      message: "The requested range is not satisfiable.",
    });
  });

  it("answers conditional GETs: 304 for a matching tag or date, the file otherwise; If-Range", async () => {
    const first = await get(audioUrl);
    const etag = String(first.headers.etag);
    const lastModified = String(first.headers["last-modified"]);

    const cached = await get(audioUrl, { "if-none-match": etag });
    expect(cached.statusCode).toBe(304);
    expect(cached.rawPayload.length).toBe(0);
    expect((await get(audioUrl, { "if-modified-since": lastModified })).statusCode).toBe(304);
    expect((await get(audioUrl, { "if-none-match": 'W/"other"' })).statusCode).toBe(200);
    expect((await get(audioUrl, { "if-none-match": etag, "cache-control": "no-cache" })).statusCode).toBe(200);
    const earlier = new Date(Date.parse(lastModified) - 60_000).toUTCString();
    expect((await get(audioUrl, { "if-modified-since": earlier })).statusCode).toBe(200);

    expect((await get(audioUrl, { range: "bytes=0-9", "if-range": etag })).statusCode).toBe(206);
    expect((await get(audioUrl, { range: "bytes=0-9", "if-range": lastModified })).statusCode).toBe(206);
    const changed = await get(audioUrl, { range: "bytes=0-9", "if-range": 'W/"changed"' });
    expect(changed.statusCode).toBe(200);
    expect(changed.rawPayload.equals(wav)).toBe(true);
  });

  it("answers HEAD with the headers and no body", async () => {
    const head = await get(audioUrl, {}, "HEAD");
    expect(head.statusCode).toBe(200);
    expectFileHeaders(head);
    expect(Number(head.headers["content-length"])).toBe(wav.length);
    expect(head.rawPayload.length).toBe(0);
    const partial = await get(audioUrl, { range: "bytes=0-99" }, "HEAD");
    expect(partial.statusCode).toBe(206);
    expect(partial.headers["content-range"]).toBe(`bytes 0-99/${wav.length}`);
  });

  it("answers 404 for a validly signed missing key or a key that is not one, 403 for a forged link", async () => {
    const secret = world.h.deps.jwtSecret;
    for (const key of ["audios/gone.wav", "no-folder.wav", "audios/x..y.wav"]) {
      const res = await get(signFileUrl(secret, key));
      expect(res.statusCode, key).toBe(404);
      expect(res.json(), key).toEqual({ status: "failed", success: false, message: "File not found." });
    }
    // A path that climbs out is normalised away before routing (to /etc/passwd): never a file answer;
    // the web app's page where the web app is built (the SPA fallback), 404 where it is not.
    const climbed = await get(signFileUrl(secret, "audios/../../etc/passwd"));
    expect(climbed.headers["content-disposition"]).toBeUndefined();
    expect(climbed.body).not.toContain("root:");
    if (climbed.statusCode === 200) expect(climbed.headers["content-type"]).toMatch(/^text\/html/);
    else expect(climbed.statusCode).toBe(404);
    const forged = await get(audioUrl.replace(/signature=[\w-]+/, "signature=AAAA"));
    expect(forged.statusCode).toBe(403);
  });

  it("stores a 12 MB audio (a multipart upload on S3) and serves its last bytes by range", async () => {
    const big = wavOf(12 * 1024 * 1024);
    const { _id } = await uploadAudio(world.h, world.adminToken, { name: "long-interview.wav", content: big });
    const url = (await links(_id)).audioUrl;
    const tail = await get(url, { range: "bytes=-1000" });
    expect(tail.statusCode).toBe(206);
    expect(tail.headers["content-range"]).toBe(`bytes ${big.length - 1000}-${big.length - 1}/${big.length}`);
    expect(tail.rawPayload.equals(big.subarray(big.length - 1000))).toBe(true);
    const whole = await get(url);
    expect(whole.rawPayload.equals(big)).toBe(true);
  });

  it("serves a recording and both kinds of transcript, and a refused upload leaves nothing behind", async () => {
    const { h, adminToken, staffA, tokenA } = world;
    const assigned = await h.call("POST", "/api/createtask", adminToken, { audio_id: audioId, assigned_to: staffA.id });
    expect(assigned.statusCode, assigned.body).toBe(200);

    const mp3 = await fixture("hello.mp3");
    const recording = await h.upload("AUDIOTRANSLATION", tokenA, [
      ["audioId", audioId],
      ["recordedBy", staffA.id],
      ["file", { name: "take.mp3", content: mp3 }],
    ]);
    expect(recording.statusCode, recording.body).toBe(200);
    const stored = await h.caller(staffA).recordings.get({ audioId });
    const recorded = await get(stored.url ?? "", { range: "bytes=0-99" });
    expect(recorded.statusCode).toBe(206);
    expect(recorded.rawPayload.equals(mp3.subarray(0, 100))).toBe(true);

    const initial = await h.upload("INITIAL_TRANSCRIPT", adminToken, [
      ["audioId", audioId],
      ["file", { name: "notes.doc", content: await fixture("initial-transcript.doc") }],
    ]);
    expect(initial.statusCode, initial.body).toBe(200);
    const text = await get((await links(audioId)).transcript ?? "");
    expect(text.statusCode).toBe(200);
    expect(text.headers["content-disposition"]).toBe('attachment; filename="served_INITIALTRANSCRIPT.txt"');
    expect(text.body).toContain("This is the initial transcript.");

    const translated = await h.upload("TRANSLATED_TRANSCRIPT", tokenA, [
      ["audioId", audioId],
      ["file", { name: "served.cha", content: "*PAR: habari\n" }],
    ]);
    expect(translated.statusCode, translated.body).toBe(200);
    expect((await h.caller(staffA).transcripts.get({ audioId })).text).toContain("*PAR: habari");

    const before = await h.snapshot();
    const refused = await h.upload("AUDIO", adminToken, [
      ["category", "Control"],
      ["file", { name: "served.wav", content: wav }],
    ]);
    expect(refused.statusCode).toBe(409);
    const notAudio = await h.upload("AUDIOTRANSLATION", tokenA, [
      ["audioId", audioId],
      ["recordedBy", staffA.id],
      ["file", { name: "take.mp3", content: "I am text, not audio.\n".repeat(20) }],
    ]);
    expect(notAudio.statusCode).toBe(400);
    expect(await h.snapshot()).toEqual(before);
    expect(before.files.filter((f) => f.startsWith(".tmp/"))).toEqual([]);
  });

  it("removes an audio's files from the storage when the audio is deleted", async () => {
    const { h, adminToken } = world;
    const { _id } = await uploadAudio(h, adminToken, { name: "to-delete.wav", content: wav });
    const row = await h.deps.db.selectFrom("audios").select("fileKey").where("id", "=", _id).executeTakeFirstOrThrow();
    expect(await h.deps.storage.exists(row.fileKey)).toBe(true);
    const res = await h.call("DELETE", `/api/audios/delete/${_id}`, adminToken);
    expect(res.statusCode, res.body).toBe(200);
    expect(await h.deps.storage.exists(row.fileKey)).toBe(false);
    expect(await h.storedFiles()).not.toContain(row.fileKey);
  });
});

describe("STORAGE and S3_* settings (decision 014)", () => {
  const s3Env = {
    STORAGE: "s3",
    S3_ENDPOINT: "http://127.0.0.1:9000",
    S3_BUCKET: "tafsiri",
    S3_REGION: "us-east-1",
    S3_ACCESS_KEY_ID: "key",
    S3_SECRET_ACCESS_KEY: "secret",
  };

  it("defaults to local disk under DATA_DIR/files", () => {
    const settings = loadSettings({});
    expect(settings.STORAGE).toBe("local");
    expect(storageConfig(settings, "/srv/tafsiri")).toEqual({ backend: "local", root: "/srv/tafsiri/files" });
  });

  it("reads the S3 settings, with temp files in DATA_DIR/files/.tmp and path-style URLs for an endpoint", () => {
    const settings = loadSettings(s3Env);
    expect(storageConfig(settings, "/srv/tafsiri")).toEqual({
      backend: "s3",
      bucket: "tafsiri",
      region: "us-east-1",
      endpoint: "http://127.0.0.1:9000",
      accessKeyId: "key",
      secretAccessKey: "secret",
      forcePathStyle: undefined,
      tempDir: "/srv/tafsiri/files/.tmp",
    });
    expect(loadSettings({ ...s3Env, S3_FORCE_PATH_STYLE: "false" }).S3_FORCE_PATH_STYLE).toBe(false);
    // Amazon S3 itself: no endpoint.
    expect(loadSettings({ ...s3Env, S3_ENDPOINT: "" }).S3_ENDPOINT).toBeUndefined();
  });

  it("refuses STORAGE=s3 without the bucket, region or keys, naming each, and other bad values", () => {
    expect(() => loadSettings({ STORAGE: "s3" })).toThrow(
      [
        "Invalid settings:",
        "S3_BUCKET: S3_BUCKET is required when STORAGE=s3",
        "S3_REGION: S3_REGION is required when STORAGE=s3",
        "S3_ACCESS_KEY_ID: S3_ACCESS_KEY_ID is required when STORAGE=s3",
        "S3_SECRET_ACCESS_KEY: S3_SECRET_ACCESS_KEY is required when STORAGE=s3",
      ].join("\n"),
    );
    expect(() => loadSettings({ ...s3Env, S3_SECRET_ACCESS_KEY: "" })).toThrow(
      "S3_SECRET_ACCESS_KEY: S3_SECRET_ACCESS_KEY is required when STORAGE=s3",
    );
    expect(() => loadSettings({ STORAGE: "ftp" })).toThrow("STORAGE: STORAGE must be local or s3");
    expect(() => loadSettings({ ...s3Env, S3_ENDPOINT: "minio:9000" })).toThrow(
      "S3_ENDPOINT: S3_ENDPOINT must be an http(s) URL, e.g. http://minio:9000",
    );
    expect(() => loadSettings({ ...s3Env, S3_FORCE_PATH_STYLE: "yes" })).toThrow(
      "S3_FORCE_PATH_STYLE: S3_FORCE_PATH_STYLE must be true or false",
    );
    // The S3 settings are not needed on local disk.
    expect(loadSettings({ STORAGE: "local" }).STORAGE).toBe("local");
  });
});

describe("npm start with STORAGE=s3 (decision 014)", () => {
  let s3: TestS3Server;
  const running: ServerProcess[] = [];
  const cleanups: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    s3 = await startTestS3Server();
  });
  afterAll(async () => {
    await Promise.all(running.map(stopServerProcess));
    for (const cleanup of cleanups) await cleanup();
    await s3?.close();
  });

  /** The child's settings: a temp DATA_DIR, the run's database (a clone on PostgreSQL), the test bucket. */
  async function env(overrides: Record<string, string> = {}): Promise<Record<string, string | undefined>> {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "tafsiri-start-s3-"));
    cleanups.push(() => fs.rm(dataDir, { recursive: true, force: true }));
    const template = inject("dbTemplate");
    let databaseUrl: string | undefined;
    if (template.kind === "postgres") {
      const db = await createTestDb(template);
      cleanups.push(() => db.close());
      databaseUrl = db.url;
    }
    return {
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      ADMIN_EMAIL: "s3-admin@example.test",
      ADMIN_PASSWORD: "Adm1n!strong",
      ...s3Settings(s3),
      RATE_LIMIT_PER_USER: "0",
      RATE_LIMIT_PER_ADDRESS: "0",
      ...overrides,
    };
  }

  it("stores uploads in the bucket and plays them back by range over HTTP", async () => {
    const childEnv = await env();
    const server = await startServerProcess(childEnv);
    running.push(server);
    const login = await fetch(`${server.baseUrl}/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "s3-admin@example.test", password: "Adm1n!strong" }),
    });
    expect(login.status).toBe(200);
    const { token } = (await login.json()) as { token: string };

    const wav = await fixture("hello.wav");
    const form = new FormData();
    form.append("category", "Control");
    form.append("file", new Blob([wav], { type: "audio/wav" }), "over-http.wav");
    const upload = await fetch(`${server.baseUrl}/api/audios/upload/AUDIO`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    expect(upload.status, await upload.clone().text()).toBe(200);
    const { _id } = (await upload.json()) as { _id: string };
    const detail = await fetch(`${server.baseUrl}/api/audios/${_id}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const { audioUrl } = (await detail.json()) as { audioUrl: string };

    const ranged = await fetch(`${server.baseUrl}${audioUrl}`, { headers: { range: "bytes=10-109" } });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get("content-range")).toBe(`bytes 10-109/${wav.length}`);
    expect(Buffer.from(await ranged.arrayBuffer()).equals(wav.subarray(10, 110))).toBe(true);

    // The object is in the bucket; on local disk only the (empty) temp folder.
    const key = audioUrl.split("?")[0]!.replace(/^\/files\//, "");
    const bucket = await openStorage({ backend: "s3", ...s3.config, tempDir: path.join(childEnv.DATA_DIR!, "unused") });
    expect(await bucket.stat(key)).toMatchObject({ sizeBytes: wav.length });
    await bucket.close();
    expect(await listFiles(path.join(childEnv.DATA_DIR!, "files"))).toEqual([]);
    await stopServerProcess(server);
  }, 180_000);

  it("stops at start with a clear message when the bucket does not answer", async () => {
    await expect(startServerProcess(await env({ S3_BUCKET: "no-such-bucket" }))).rejects.toThrow(
      `S3 bucket "no-such-bucket" at ${s3.endpoint} is not reachable: no such bucket`,
    );
  }, 180_000);
});
