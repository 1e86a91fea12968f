import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sweepResumableUploads } from "@tafsiri/api";
import { wavFile } from "@tafsiri/api/testing/wav";
import {
  appWithUsers,
  assignOverRest,
  fixture,
  listFiles,
  uploadAudio,
  type AppWithUsers,
} from "./fixtures/app-harness";

// Decision 020: resumable uploads over the tus 1.0 protocol, then `finish`.
// tus reads the request body as a real socket delivers it, so its requests go over HTTP (not app.inject).
// Both storage backends: local disk, and a bucket of a real S3-compatible server (@tus/s3-store there).
describe.each(["local", "s3"] as const)("resumable uploads on %s storage", (backend) => {
  let h: AppWithUsers["h"];
  let staffA: AppWithUsers["staffA"];
  let adminToken = "";
  let tokenA = "";
  let tokenB = "";
  let origin = "";
  beforeAll(async () => {
    ({ h, staffA, adminToken, tokenA, tokenB } = await appWithUsers({
      maxUploadBytes: 12 * 1024 * 1024,
      storage: backend,
    }));
    await h.app.listen({ port: 0, host: "127.0.0.1" });
    origin = `http://127.0.0.1:${(h.app.server.address() as { port: number }).port}`;
  });
  afterAll(() => h?.close());

  /** An answer as the tests read it. */
  interface Answer {
    statusCode: number;
    headers: Record<string, string>;
    body: string;
    json<T = unknown>(): T;
  }

  async function send(method: string, path: string, headers: Record<string, string>, body?: Buffer): Promise<Answer> {
    const res = await fetch(origin + path, { method, headers, body });
    const text = await res.text();
    return {
      statusCode: res.status,
      headers: Object.fromEntries(res.headers),
      body: text,
      json: <T>() => JSON.parse(text) as T,
    };
  }

  const TUS = { "tus-resumable": "1.0.0" };
  const b64 = (value: string) => Buffer.from(value, "utf8").toString("base64");
  const metadata = (fields: Record<string, string>) =>
    Object.entries(fields)
      .map(([key, value]) => `${key} ${b64(value)}`)
      .join(",");
  const auth = (token: string | null): Record<string, string> => (token ? { authorization: `Bearer ${token}` } : {});

  /** Starts an upload; returns the answer and the upload's path (from Location). */
  async function create(token: string | null, fields: Record<string, string>, length: number | null) {
    const res = await send("POST", "/api/uploads", {
      ...TUS,
      ...auth(token),
      ...(length === null ? {} : { "upload-length": String(length) }),
      "upload-metadata": metadata(fields),
    });
    const location = res.headers.location;
    return { res, path: location ? new URL(location, "http://localhost").pathname : "" };
  }

  function patch(token: string | null, path: string, offset: number, bytes: Buffer) {
    return send(
      "PATCH",
      path,
      { ...TUS, ...auth(token), "upload-offset": String(offset), "content-type": "application/offset+octet-stream" },
      bytes,
    );
  }

  const head = (token: string | null, path: string) => send("HEAD", path, { ...TUS, ...auth(token) });
  const remove = (token: string | null, path: string) => send("DELETE", path, { ...TUS, ...auth(token) });

  const finish = (token: string | null, path: string) => h.call("POST", `${path}/finish`, token);

  /** Sends a whole file in two PATCHes and returns the upload's path. */
  async function sendAll(token: string, fields: Record<string, string>, bytes: Buffer): Promise<string> {
    const { res, path } = await create(token, fields, bytes.length);
    expect(res.statusCode, res.body).toBe(201);
    const half = Math.floor(bytes.length / 2);
    expect((await patch(token, path, 0, bytes.subarray(0, half))).statusCode).toBe(204);
    const rest = await patch(token, path, half, bytes.subarray(half));
    expect(rest.statusCode, rest.body).toBe(204);
    expect(rest.headers["upload-offset"]).toBe(String(bytes.length));
    return path;
  }

  const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

  describe("a resumable upload of an audio", () => {
    it("continues from the offset HEAD answers, and finishes into the same audio the multipart path makes", async () => {
      const wav = await fixture("hello.wav");
      const fields = { kind: "AUDIO", filename: "resumed-interview.wav", category: "Dementia" };
      const { res, path } = await create(adminToken, fields, wav.length);
      expect(res.statusCode, res.body).toBe(201);
      expect(path).toMatch(/^\/api\/uploads\/[0-9a-f]{32}$/);

      // A connection that dropped after 1,000 bytes: HEAD tells where to go on from.
      expect((await patch(adminToken, path, 0, wav.subarray(0, 1000))).statusCode).toBe(204);
      const offset = await head(adminToken, path);
      expect(offset.statusCode).toBe(200);
      expect(offset.headers["upload-offset"]).toBe("1000");
      expect(offset.headers["upload-length"]).toBe(String(wav.length));
      // Nothing is stored before `finish`.
      expect(
        await h.deps.db.selectFrom("audios").select("id").where("filename", "=", "resumed-interview").execute(),
      ).toEqual([]);
      const wrongOffset = await patch(adminToken, path, 0, wav.subarray(0, 10));
      expect(wrongOffset.statusCode).toBe(409);
      expect((await patch(adminToken, path, 1000, wav.subarray(1000))).statusCode).toBe(204);

      const done = await finish(adminToken, path);
      expect(done.statusCode, done.body).toBe(200);
      const answer = done.json<{ _id: string; filename: string }>();
      expect(answer).toMatchObject({
        status: "success",
        success: true,
        filename: "resumed-interview",
        message: "resumed-interview has been uploaded successfully.",
      });
      const audio = await h.deps.db
        .selectFrom("audios")
        .select(["id", "category", "mimeType", "fileKey"])
        .where("filename", "=", "resumed-interview")
        .execute();
      expect(audio).toEqual([expect.objectContaining({ id: answer._id, category: "Dementia", mimeType: "audio/wav" })]);
      const stored = await h.deps.storage.read(audio[0]!.fileKey);
      const chunks: Buffer[] = [];
      for await (const chunk of stored) chunks.push(chunk as Buffer);
      expect(sha256(Buffer.concat(chunks))).toBe(sha256(wav));

      // A repeat (an answer lost on the way) gets the same answer and stores nothing more.
      const again = await finish(adminToken, path);
      expect(again.statusCode).toBe(200);
      expect(again.json()).toEqual(done.json());
      expect(
        await h.deps.db.selectFrom("audios").select("id").where("filename", "=", "resumed-interview").execute(),
      ).toHaveLength(1);
      // A client that reloads and asks again hears that every byte is there.
      const after = await head(adminToken, path);
      expect(after.headers["upload-offset"]).toBe(String(wav.length));
      expect(await h.resumableUploadObjects()).toEqual([]);
      expect(await listFiles(`${h.filesDir}/.tmp`)).toEqual([]);
    });

    it("goes on across the store's parts: 9 MB of 10 MB, HEAD, then the rest (on S3, 8 MiB parts and a 1 MiB incomplete one)", async () => {
      const wav = wavFile(10 * 1024 * 1024, (i) => i * 7 + (i >> 12));
      const fields = { kind: "AUDIO", filename: "long-interview.wav", category: "Control" };
      const { res, path } = await create(adminToken, fields, wav.length);
      expect(res.statusCode, res.body).toBe(201);
      const first = 9 * 1024 * 1024;
      expect((await patch(adminToken, path, 0, wav.subarray(0, first))).statusCode).toBe(204);
      expect((await head(adminToken, path)).headers["upload-offset"]).toBe(String(first));
      expect((await patch(adminToken, path, first, wav.subarray(first))).statusCode).toBe(204);
      const done = await finish(adminToken, path);
      expect(done.statusCode, done.body).toBe(200);
      const { fileKey } = await h.deps.db
        .selectFrom("audios")
        .select("fileKey")
        .where("id", "=", done.json<{ _id: string }>()._id)
        .executeTakeFirstOrThrow();
      const chunks: Buffer[] = [];
      for await (const chunk of await h.deps.storage.read(fileKey)) chunks.push(chunk as Buffer);
      expect(sha256(Buffer.concat(chunks))).toBe(sha256(wav));
      expect(await h.resumableUploadObjects()).toEqual([]);
    });

    it("runs the multipart path's checks on the finished file: a text file is refused, and stays refused", async () => {
      const before = await h.snapshot();
      const bytes = Buffer.from("not audio at all\n".repeat(100));
      const path = await sendAll(adminToken, { kind: "AUDIO", filename: "fake.wav", category: "Control" }, bytes);
      const refused = await finish(adminToken, path);
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toEqual({
        status: "failed",
        success: false,
        message: "The selected file is not a valid audio file.",
      });
      const again = await finish(adminToken, path);
      expect(again.statusCode).toBe(400);
      expect(again.json()).toEqual(refused.json());
      expect(await h.snapshot()).toEqual(before);
    });

    it("names its participant and session day in the metadata, checked before the first byte (decision 024)", async () => {
      const made = await h.call("POST", "/api/participants", adminToken, { code: "TUS-1", group: "Control" });
      expect(made.statusCode, made.body).toBe(201);
      const audio = { kind: "AUDIO", filename: "tus-linked.wav", category: "Control" };
      const refused = async (fields: Record<string, string>, message: string) => {
        const { res } = await create(adminToken, fields, 100);
        expect(res.statusCode, res.body).toBe(400);
        expect(res.json()).toEqual({ status: "failed", success: false, message });
      };
      await refused({ ...audio, participant_code: "TUS-404" }, "Unknown participant code TUS-404.");
      await refused(
        { ...audio, category: "Dementia", participant_code: "tus-1" },
        "This audio is labelled Dementia but participant TUS-1 is in the Control group.",
      );
      expect(await h.resumableUploadObjects()).toEqual([]);

      const path = await sendAll(
        adminToken,
        { ...audio, participant_code: "tus-1", session_date: "2026-05-02" },
        await fixture("hello.wav"),
      );
      const done = await finish(adminToken, path);
      expect(done.statusCode, done.body).toBe(200);
      const linked = await h.deps.db
        .selectFrom("audios")
        .innerJoin("participants", "participants.id", "audios.participantId")
        .select(["participants.code", "audios.sessionDate"])
        .where("audios.id", "=", done.json<{ _id: string }>()._id)
        .execute();
      expect(linked).toEqual([{ code: "TUS-1", sessionDate: "2026-05-02" }]);
    });

    it("refuses before the first byte what the upload would refuse", async () => {
      const before = await h.snapshot();
      const expectRefusal = async (
        token: string | null,
        fields: Record<string, string>,
        length: number | null,
        status: number,
        message: string,
      ) => {
        const { res } = await create(token, fields, length);
        expect(res.statusCode, res.body).toBe(status);
        expect(res.json()).toEqual({ status: "failed", success: false, message });
      };
      const audio = { kind: "AUDIO", filename: "x.wav", category: "Control" };
      await expectRefusal(null, audio, 100, 401, "You must be signed in.");
      await expectRefusal(tokenA, audio, 100, 403, "Only administrators may do this.");
      await expectRefusal(
        adminToken,
        { ...audio, kind: "VIDEO" },
        100,
        400,
        expect.stringMatching(/^Unknown upload kind/) as never,
      );
      await expectRefusal(adminToken, audio, null, 400, "Upload-Length is required: the file's size in bytes.");
      await expectRefusal(adminToken, audio, 12 * 1024 * 1024 + 1, 413, "File is too large. The limit is 12 MB.");
      await expectRefusal(adminToken, { kind: "AUDIO", filename: "x.wav" }, 100, 400, "Please select a category.");
      const existing = await uploadAudio(h, adminToken, {
        name: "taken-name.wav",
        content: await fixture("hello.wav"),
      });
      await expectRefusal(adminToken, { ...audio, filename: "taken-name.wav" }, 100, 409, "taken-name already exists.");
      // Staff may upload a recording only for an audio they may work on.
      await expectRefusal(
        tokenA,
        { kind: "AUDIOTRANSLATION", filename: "take.wav", audioId: existing._id, recordedBy: staffA.id },
        100,
        403,
        "You do not have access to this audio.",
      );
      await expectRefusal(
        adminToken,
        { kind: "TRANSLATED_TRANSCRIPT", filename: "t.pdf", audioId: existing._id },
        100,
        415,
        "Please select a .cha or .txt file.",
      );
      const bad = await send("POST", "/api/uploads", {
        ...TUS,
        ...auth(adminToken),
        "upload-length": "10",
        "upload-metadata": "kind !!!,filename",
      });
      expect(bad.statusCode).toBe(400);
      expect(await h.snapshot()).toEqual({ ...before, audios: before.audios + 1, files: expect.any(Array) as never });
      expect(await h.resumableUploadObjects()).toEqual([]);
    });
  });

  describe("a resumable upload of a translated recording", () => {
    it("is its owner's alone, and finishing it twice at once stores one recording", async () => {
      const { _id: audioId } = await uploadAudio(h, adminToken, {
        name: "for-recording.wav",
        content: await fixture("hello.wav"),
      });
      await assignOverRest(h, adminToken, audioId, staffA);
      const take = await fixture("hello.mp3");
      const fields = { kind: "AUDIOTRANSLATION", filename: "take.mp3", audioId, recordedBy: staffA.id };
      const { res, path } = await create(tokenA, fields, take.length);
      expect(res.statusCode, res.body).toBe(201);

      // Another staff member's token, a malformed id and an unknown id all answer 404, and change nothing.
      const notFound = { status: "failed", success: false, message: "Upload not found." };
      expect((await head(tokenB, path)).statusCode).toBe(404);
      const foreignPatch = await patch(tokenB, path, 0, take);
      expect(foreignPatch.statusCode).toBe(404);
      expect(foreignPatch.json()).toEqual(notFound);
      expect((await finish(tokenB, path)).json()).toEqual(notFound);
      const foreignDelete = await remove(tokenB, path);
      expect(foreignDelete.statusCode).toBe(404);
      expect((await finish(tokenA, "/api/uploads/not-an-id")).statusCode).toBe(404);
      expect((await finish(tokenA, `/api/uploads/${"0".repeat(32)}`)).statusCode).toBe(404);
      expect((await head(null, path)).statusCode).toBe(401);
      expect((await head(tokenA, path)).headers["upload-offset"]).toBe("0");

      const early = await finish(tokenA, path);
      expect(early.statusCode).toBe(409);
      expect(early.json()).toMatchObject({ message: "The upload is not complete yet." });

      expect((await patch(tokenA, path, 0, take)).statusCode).toBe(204);
      const [first, second] = await Promise.all([finish(tokenA, path), finish(tokenA, path)]);
      expect(first.statusCode, first.body).toBe(200);
      expect(second.json()).toEqual(first.json());
      expect(first.json()).toMatchObject({
        message: "Translation Audio file uploaded successfully.",
        recorded_audio_approval_status: "Pending",
      });
      const recordings = await h.deps.db
        .selectFrom("translatedRecordings")
        .innerJoin("submissions", "submissions.id", "translatedRecordings.submissionId")
        .innerJoin("tasks", "tasks.id", "submissions.taskId")
        .select(["translatedRecordings.fileKey", "translatedRecordings.recordedBy"])
        .where("tasks.audioId", "=", audioId)
        .execute();
      expect(recordings).toEqual([expect.objectContaining({ recordedBy: staffA.id })]);
    });
  });

  describe("cancelling and sweeping", () => {
    it("DELETE removes an unfinished upload's bytes; the sweep removes those left for 24 hours", async () => {
      const wav = await fixture("hello.wav");
      const cancelled = await create(
        adminToken,
        { kind: "AUDIO", filename: "cancel-me.wav", category: "Control" },
        wav.length,
      );
      await patch(adminToken, cancelled.path, 0, wav.subarray(0, 500));
      const del = await remove(adminToken, cancelled.path);
      expect(del.statusCode).toBe(204);
      expect((await head(adminToken, cancelled.path)).statusCode).toBe(404);

      const left = await create(
        adminToken,
        { kind: "AUDIO", filename: "left-behind.wav", category: "Control" },
        wav.length,
      );
      await patch(adminToken, left.path, 0, wav.subarray(0, 500));
      expect(await h.resumableUploadObjects()).toHaveLength(2); // its bytes and its tus info
      const id = left.path.split("/").pop()!;

      expect(await sweepResumableUploads(h.deps, { now: new Date(Date.now() + 23 * 60 * 60 * 1000) })).toEqual([]);
      // A day later every upload of this file is swept, the finished ones' records included; what they stored stays.
      const audiosBefore = (await h.snapshot()).audios;
      expect(await sweepResumableUploads(h.deps, { now: new Date(Date.now() + 25 * 60 * 60 * 1000) })).toContain(id);
      expect((await h.snapshot()).audios).toBe(audiosBefore);
      expect(await h.resumableUploadObjects()).toEqual([]);
      expect((await head(adminToken, left.path)).statusCode).toBe(404);
    });
  });
});
