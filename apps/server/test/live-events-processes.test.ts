import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, inject, it } from "vitest";
import { createTestDb } from "@tafsiri/db/testing/test-db";
import { createUser, signToken } from "@tafsiri/api/testing/services";
import { liveClient, waitUntil, type LiveClient } from "./fixtures/live-client";
import { startServerProcess, stopServerProcess, type ServerProcess } from "./fixtures/server-process";

const template = inject("dbTemplate");
const onPostgres = template.kind === "postgres";
if (!onPostgres) {
  console.info(
    "live-events-processes.test.ts: needs PostgreSQL; set DATABASE_URL or TEST_DATABASE_URL to run two server processes on it.",
  );
}

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

describe.skipIf(!onPostgres)("two server processes on one PostgreSQL database (decision 004)", () => {
  it("delivers a change made through process A to a subscriber of process B (LISTEN/NOTIFY)", async () => {
    const db = await createTestDb(template);
    cleanups.push(() => db.close());
    const secret = randomBytes(32).toString("hex");
    const password = "Passw0rd!";
    const admin = await createUser(db.db, { username: "boss", email: "boss@example.test", password, role: "Admin" });
    const staff = await createUser(db.db, { username: "amina", email: "amina@example.test", password, role: "Staff" });
    const audio = await db.db
      .insertInto("audios")
      .values({
        filename: "interview_7",
        category: "Control",
        fileKey: "audios/interview_7.wav",
        mimeType: "audio/wav",
        sizeBytes: 44,
        uploadedBy: admin.id,
      })
      .returning(["id", "filename"])
      .executeTakeFirstOrThrow();
    await db.db.insertInto("tasks").values({ audioId: audio.id, assignedTo: staff.id }).execute();

    const servers: ServerProcess[] = [];
    const clients: LiveClient[] = [];
    cleanups.push(async () => {
      for (const c of clients) await c.close();
      await Promise.all(servers.map(stopServerProcess));
    });
    const start = async (name: string) => {
      const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), `tafsiri-live-${name}-`));
      cleanups.push(() => fs.rm(dataDir, { recursive: true, force: true }));
      const server = await startServerProcess({ DATA_DIR: dataDir, DATABASE_URL: db.url, JWT_SECRET: secret });
      servers.push(server);
      return server;
    };
    const [a, b] = await Promise.all([start("a"), start("b")]);
    const key = new TextEncoder().encode(secret);

    const adminOnB = liveClient(b.baseUrl, await signToken(key, admin));
    const staffOnA = liveClient(a.baseUrl, await signToken(key, staff));
    clients.push(adminOnB, staffOnA);
    await adminOnB.subscribe();

    await staffOnA.trpc.transcripts.save.mutate({ audioId: audio.id, text: "Habari ya asubuhi" });
    await waitUntil(
      () => adminOnB.ofKind("notification.created").length === 1,
      "process B's subscriber to hear of A's change",
      10_000,
    );
    expect(adminOnB.ofKind("notification.created")[0]).toMatchObject({
      audioId: audio.id,
      notification: {
        message: "amina uploaded a new transcript for interview_7",
        link: "/audiomanagement/trascript",
        isRead: false,
      },
    });
    await waitUntil(
      () => adminOnB.ofKind("audio.changed").some((e) => e.audioId === audio.id),
      "the audio change on B",
    );
  }, 240_000);
});
