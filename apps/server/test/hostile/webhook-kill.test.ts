import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { Webhook } from "standardwebhooks";
import { wavFile } from "@tafsiri/api/testing/wav";
import { multipart } from "../fixtures/app-harness";
import { serverDataPlace, startServerProcess, stopServerProcess, type ServerProcess } from "../fixtures/server-process";

/**
 * Attack (a power cut, as `kill -9` plays it) on decision 037's promise that nothing acknowledged
 * is lost: an admin approves a transcript, the server answers 200, and is killed at once, before
 * the webhook receiver (down at that moment) could take the event. The restarted server delivers
 * that approval's event, signed (the receiver verifies it with `standardwebhooks`), once it is
 * back. The outbox row was written in the approval's own transaction, so the acknowledgement and
 * the event stand or fall together. Runs on PGlite (DATA_DIR/db) and, with DATABASE_URL /
 * TEST_DATABASE_URL, on a fresh PostgreSQL database.
 */

const ADMIN = { ADMIN_EMAIL: "boss@example.test", ADMIN_USERNAME: "boss", ADMIN_PASSWORD: "Adm1n!strong" };
const STAFF = { username: "amina", email: "amina@example.test", password: "Str0ng-pass!" };

const running: ServerProcess[] = [];
const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  await Promise.all(running.map(stopServerProcess));
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function start(env: Record<string, string | undefined>): Promise<ServerProcess> {
  const server = await startServerProcess(env);
  running.push(server);
  return server;
}

/** SIGKILL to the server's node process (one process: SOURCE_SERVER_COMMAND), then its exit. */
async function killHard(server: ServerProcess): Promise<void> {
  const exited = new Promise<void>((resolve) => server.child.once("exit", () => resolve()));
  expect(server.child.kill("SIGKILL")).toBe(true);
  await exited;
}

/** Resolves once `check` holds (polled every 100 ms); throws `what` after `ms`. */
async function until(check: () => boolean | Promise<boolean>, what: string, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

interface Received {
  id: string;
  type: string;
  data: Record<string, Record<string, unknown>>;
}

/** A receiver on 127.0.0.1 that keeps every delivery it verified with `secret()`; it can go down and come back on its port. */
async function receiver(secret: () => string) {
  const got: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const headers = {
        "webhook-id": String(req.headers["webhook-id"]),
        "webhook-timestamp": String(req.headers["webhook-timestamp"]),
        "webhook-signature": String(req.headers["webhook-signature"]),
      };
      try {
        got.push(new Webhook(secret()).verify(Buffer.concat(chunks).toString("utf8"), headers) as Received);
        res.writeHead(204).end();
      } catch {
        res.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return {
    got,
    url: `http://127.0.0.1:${port}/hooks`,
    down: () => new Promise<void>((resolve) => server.close(() => resolve())),
    up: () => new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve)),
  };
}

/** A JSON request to the server; answers the status and the parsed body. */
async function call(base: string, method: string, url: string, token: string | null, body?: unknown) {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, text, json: <T>() => JSON.parse(text) as T };
}

/** A multipart upload to /api/audios/upload/{kind}; expects 200 and answers the body. */
async function upload(base: string, token: string, kind: string, parts: Parameters<typeof multipart>[0]) {
  const form = await multipart(parts);
  const res = await fetch(`${base}/api/audios/upload/${kind}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": form.contentType },
    body: form.body,
  });
  const text = await res.text();
  expect(res.status, text).toBe(200);
  return JSON.parse(text) as { _id: string };
}

async function signIn(base: string, email: string, password: string): Promise<string> {
  const res = await call(base, "POST", "/auth/login", null, { email, password });
  expect(res.status, res.text).toBe(200);
  return res.json<{ token: string }>().token;
}

describe("a server killed with -9 right after an acknowledged approval", () => {
  it("delivers that approval's webhook event after it restarts", async () => {
    const place = await serverDataPlace("tafsiri-webhook-kill-", cleanups);
    const env = { ...ADMIN, ...place, WEBHOOK_ALLOWED_HOSTS: "127.0.0.1" };

    let secret = "";
    const hooks = await receiver(() => secret);
    const first = await start(env);
    const base = first.baseUrl;
    const admin = await signIn(base, ADMIN.ADMIN_EMAIL, ADMIN.ADMIN_PASSWORD);
    const registered = await call(base, "POST", "/api/webhooks", admin, {
      url: hooks.url,
      eventTypes: ["transcript.approved"],
      description: "the lab's pipeline",
    });
    expect(registered.status, registered.text).toBe(201);
    secret = registered.json<{ secret: string }>().secret;

    // The work: an audio, assigned to a staff member, who submits a translation.
    const made = await call(base, "POST", "/auth/register", admin, {
      ...STAFF,
      role: "Staff",
      adminpassword: ADMIN.ADMIN_PASSWORD,
    });
    expect(made.status, made.text).toBe(200);
    const staffId = made.json<{ user: { _id: string } }>().user._id;
    const staff = await signIn(base, STAFF.email, STAFF.password);
    const audio = await upload(base, admin, "AUDIO", [
      ["category", "Control"],
      ["file", { name: "killed-approval.wav", content: wavFile(64_000, (i) => i), type: "audio/wav" }],
    ]);
    const assigned = await call(base, "POST", "/api/createtask", admin, { audio_id: audio._id, assigned_to: staffId });
    expect(assigned.status, assigned.text).toBe(200);
    const taskId = assigned.json<{ task: { _id: string } }>().task._id;
    await upload(base, staff, "TRANSLATED_TRANSCRIPT", [
      ["audioId", audio._id],
      ["file", { name: "translation.txt", content: Buffer.from("Habari ya asubuhi\n"), type: "text/plain" }],
    ]);
    const task = await call(base, "GET", `/api/tasks/${taskId}`, admin);
    const submissionId = task.json<{ submission: { _id: string } }>().submission._id;
    const adminId = decodeSubject(admin);

    // The receiver is down; the approval is acknowledged, and the server dies at once.
    await hooks.down();
    const approved = await call(base, "PUT", `/api/updatesubmissions/${submissionId}/${adminId}`, admin, {
      translation_script_approval_status: "Approved",
    });
    expect(approved.status, approved.text).toBe(200);
    await killHard(first);
    expect(hooks.got).toEqual([]);

    await hooks.up();
    await start(env);
    await until(() => hooks.got.length > 0, "the approval's event after the restart");
    expect(hooks.got).toHaveLength(1);
    expect(hooks.got[0]).toMatchObject({ type: "transcript.approved" });
    expect(hooks.got[0]!.data.submission).toMatchObject({
      _id: submissionId,
      task_id: taskId,
      translation_script_approval_status: "Approved",
    });
    // Two server starts and the first retry (10 s after the failed attempt) on a loaded machine.
  }, 180_000);
});

/** The user id (`sub`) of a session token. */
function decodeSubject(token: string): string {
  const payload = JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString("utf8")) as { sub: string };
  return payload.sub;
}
