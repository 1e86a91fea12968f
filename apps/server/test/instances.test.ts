import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, inject, it } from "vitest";
import { s3Settings, startTestS3Server } from "@tafsiri/api/testing/s3-server";
import { createTestDb } from "@tafsiri/db/testing/test-db";
import { fixture } from "./fixtures/app-harness";
import { liveClient, waitUntil, type LiveClient } from "./fixtures/live-client";
import { startServerProcess, stopServerProcess, type ServerProcess } from "./fixtures/server-process";

/**
 * Several instances (decision 015): two real server processes on one PostgreSQL database and
 * one S3 bucket (a test s3rver) serve the same users. Started together on an empty database they
 * create one first admin between them; a token from a sign-in on A works on B; an audio uploaded
 * through A plays through B (its signed link, whole and by Range); the live event of that upload
 * reaches a subscriber connected to B; and the hourly jobs (event retention, the shared part of
 * the file sweep) run in one of the two, the other logging that it skipped them.
 */

const template = inject("dbTemplate");
const onPostgres = template.kind === "postgres";
if (!onPostgres) {
  console.info(
    "instances.test.ts: needs PostgreSQL (two processes cannot share the embedded PGlite database); set DATABASE_URL or TEST_DATABASE_URL to run it.",
  );
}

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** How many times `text` occurs in `output`. */
function count(output: string, text: string): number {
  return output.split(text).length - 1;
}

describe.skipIf(!onPostgres)(
  "two server processes on one PostgreSQL database and one bucket (several instances, decision 015)",
  () => {
    it("sign in on A and use B, upload through A and play through B, a live event from A reaches B, the hourly jobs run once", async () => {
      const s3 = await startTestS3Server();
      cleanups.push(() => s3.close());
      // A migrated database with no user yet: both processes will try to create the first admin.
      const db = await createTestDb(template);
      cleanups.push(() => db.close());
      const email = "instances-admin@example.test";
      const password = "Adm1n!strong";
      const shared = {
        DATABASE_URL: db.url,
        JWT_SECRET: randomBytes(32).toString("hex"),
        ADMIN_EMAIL: email,
        ADMIN_PASSWORD: password,
        ...s3Settings(s3),
      };

      const servers: ServerProcess[] = [];
      const clients: LiveClient[] = [];
      cleanups.push(async () => {
        for (const c of clients) await c.close();
        await Promise.all(servers.map(stopServerProcess));
      });
      const start = async (name: string) => {
        // Each instance has its own DATA_DIR (temp files of uploads); the files are in the bucket.
        const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), `tafsiri-instance-${name}-`));
        cleanups.push(() => fs.rm(dataDir, { recursive: true, force: true }));
        const server = await startServerProcess({ ...shared, DATA_DIR: dataDir });
        servers.push(server);
        return server;
      };
      const [a, b] = await Promise.all([start("a"), start("b")]);
      expect(count(a.output() + b.output(), `First admin created: ${email}`)).toBe(1);

      // Sign in on A; the token works on B (one JWT_SECRET, one users table).
      const login = await fetch(`${a.baseUrl}/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email, password }),
      });
      expect(login.status).toBe(200);
      const { token, user } = (await login.json()) as { token: string; user: { _id: string } };
      const bearer = { authorization: `Bearer ${token}` };
      const profile = await fetch(`${b.baseUrl}/auth/profile/${user._id}`, { headers: bearer });
      expect(profile.status, await profile.clone().text()).toBe(200);
      expect(await profile.json()).toMatchObject({ user: { _id: user._id, email } });

      // A subscriber on B, before the change is made on A.
      const adminOnB = liveClient(b.baseUrl, token);
      clients.push(adminOnB);
      await adminOnB.subscribe();

      // Upload through A.
      const wav = await fixture("hello.wav");
      const form = new FormData();
      form.append("category", "Control");
      form.append("file", new Blob([wav], { type: "audio/wav" }), "two-instances.wav");
      const upload = await fetch(`${a.baseUrl}/api/audios/upload/AUDIO`, {
        method: "POST",
        headers: bearer,
        body: form,
      });
      expect(upload.status, await upload.clone().text()).toBe(200);
      const { _id: audioId } = (await upload.json()) as { _id: string };

      // The upload's live event, committed by A, reaches B's subscriber (LISTEN/NOTIFY).
      await waitUntil(
        () => adminOnB.ofKind("audio.changed").some((e) => e.audioId === audioId),
        "B's subscriber to hear of the upload made through A",
        10_000,
      );

      // The link A signs plays through B: whole, and a range as a player seeking asks it.
      const detail = await fetch(`${a.baseUrl}/api/audios/${audioId}`, { headers: bearer });
      expect(detail.status).toBe(200);
      const { audioUrl } = (await detail.json()) as { audioUrl: string };
      const whole = await fetch(`${b.baseUrl}${audioUrl}`);
      expect(whole.status).toBe(200);
      expect(whole.headers.get("content-type")).toBe("audio/wav");
      expect(Buffer.from(await whole.arrayBuffer()).equals(wav)).toBe(true);
      const ranged = await fetch(`${b.baseUrl}${audioUrl}`, { headers: { range: "bytes=10-109" } });
      expect(ranged.status).toBe(206);
      expect(ranged.headers.get("content-range")).toBe(`bytes 10-109/${wav.length}`);
      expect(Buffer.from(await ranged.arrayBuffer()).equals(wav.subarray(10, 110))).toBe(true);

      // B's own listing and link agree with A's.
      const onB = await fetch(`${b.baseUrl}/api/audios/${audioId}`, { headers: bearer });
      expect(onB.status).toBe(200);
      const linkOnB = ((await onB.json()) as { audioUrl: string }).audioUrl;
      const fromA = await fetch(`${a.baseUrl}${linkOnB}`, { headers: { range: "bytes=-44" } });
      expect(fromA.status).toBe(206);
      expect(Buffer.from(await fromA.arrayBuffer()).equals(wav.subarray(wav.length - 44))).toBe(true);

      // The round at start of each hourly job ran in one process; the other skipped it.
      const logs = () => a.output() + b.output();
      await waitUntil(
        () => count(logs(), "live event retention:") === 2 && count(logs(), "file sweep: removed") === 2,
        "both processes to log their first rounds",
        10_000,
      );
      expect(
        count(logs(), "live event retention: deleted 0 event(s) and 0 webhook event(s) older than 30 day(s)"),
      ).toBe(1);
      expect(count(logs(), "live event retention: skipped, another process runs this job")).toBe(1);
      expect(count(logs(), "stored file(s) no row points at")).toBe(1);
      expect(count(logs(), "stored files skipped, another process runs this job")).toBe(1);
    }, 240_000);
  },
);
