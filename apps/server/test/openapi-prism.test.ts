import { spawn, type ChildProcess } from "node:child_process";
import { promises as fs } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { exportJobsIdle, signFileUrl } from "@tafsiri/api";
import { linkToParticipant } from "@tafsiri/db/testing/participants";
import { approvedWork } from "../../../packages/api/test/workflow-fixtures";
import { TEST_PASSWORD } from "@tafsiri/api/testing/harness";
import { appWithUsers, fixture, uploadAudio } from "./fixtures/app-harness";

/**
 * The OpenAPI document (SPEC §7.1, §7.3; served at GET /api/openapi.json) as a validator that is
 * not ours reads it: Stoplight Prism's validation proxy (`prism proxy`, decision 003 for its
 * version) stands between the REST flows and the real server, and checks every request against the
 * document before forwarding it and every answer (path, status, content type, body) after. With
 * `--errors` it refuses an invalid request (422) and turns an answer that breaks the document into
 * a 500, both as `application/problem+json` with the `sl-violations` header; a path or method the
 * document lacks answers 404/405 problem+json. The server itself never answers problem+json, so
 * any such answer, or the header, is a violation, listed with its request in the failure message.
 *
 * Set-up that is not under test goes beside the proxy: uploads (Prism reads a multipart body as
 * text, which would corrupt the audio it forwards) and the workflow fixtures' procedure calls.
 */

const require = createRequire(import.meta.url);
const PRISM_CLI = path.join(path.dirname(require.resolve("@stoplight/prism-cli/package.json")), "dist/index.js");

const { h, admin, staffA, staffB, adminToken, tokenA } = await appWithUsers();
const upstream = await h.app.listen({ host: "127.0.0.1", port: 0 });
const workDir = await fs.mkdtemp(path.join(os.tmpdir(), "tafsiri-prism-"));
const documentPath = path.join(workDir, "openapi.json");
await fs.writeFile(documentPath, (await h.app.inject({ method: "GET", url: "/api/openapi.json" })).body);

/** A port nothing listens on now, for Prism. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const prismPort = await freePort();
const prismLog: string[] = [];
const prism: ChildProcess = spawn(
  process.execPath,
  [PRISM_CLI, "proxy", documentPath, upstream, "--host", "127.0.0.1", "--port", String(prismPort), "--errors"],
  { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" } },
);
await new Promise<void>((resolve, reject) => {
  const timer = setTimeout(() => reject(new Error(`prism did not start:\n${prismLog.join("")}`)), 30_000);
  const onData = (chunk: Buffer) => {
    prismLog.push(chunk.toString());
    if (/Prism is listening/.test(prismLog.join(""))) {
      clearTimeout(timer);
      resolve();
    }
  };
  prism.stdout!.on("data", onData);
  prism.stderr!.on("data", onData);
  prism.once("exit", (code) => {
    clearTimeout(timer);
    reject(new Error(`prism exited (${code}):\n${prismLog.join("")}`));
  });
});
const prismExited = new Promise((resolve) => prism.once("exit", resolve));

afterAll(async () => {
  prism.kill();
  await prismExited;
  await h.close();
  await fs.rm(workDir, { recursive: true, force: true });
});

/** Every request sent through the proxy, with what Prism said about it. */
const seen: Array<{ request: string; status: number; violations: string | null }> = [];

interface Answer {
  status: number;
  headers: Headers;
  text: string;
  json<T = Record<string, unknown>>(): T;
}

/**
 * `method url` through Prism with a Bearer token (when given) and a JSON body (when given, or a
 * raw one with its own content type in `headers`); records any violation Prism reports.
 */
async function send(
  method: string,
  url: string,
  token: string | null,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const raw = typeof body === "string";
  const res = await fetch(`http://127.0.0.1:${prismPort}${url}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined || raw ? {} : { "content-type": "application/json" }),
      ...headers,
    },
    body: body === undefined ? undefined : raw ? body : JSON.stringify(body),
  });
  const text = await res.text();
  const problem = (res.headers.get("content-type") ?? "").startsWith("application/problem+json");
  const violations = res.headers.get("sl-violations") ?? (problem ? text : null);
  seen.push({ request: `${method} ${url.split("?")[0]} → ${res.status}`, status: res.status, violations });
  return { status: res.status, headers: res.headers, text, json: <T>() => JSON.parse(text) as T };
}

/** Sends and expects `status`, with the body in the message otherwise. */
async function expectStatus(status: number, ...args: Parameters<typeof send>): Promise<Answer> {
  const res = await send(...args);
  expect(res.status, `${args[0]} ${args[1]}: ${res.text.slice(0, 500)}`).toBe(status);
  return res;
}

const wav = await fixture("hello.wav");

describe("the REST flows through Prism's validation proxy (SPEC §7.1, §7.3)", () => {
  let audioId = "";
  let taskId = "";
  let submissionId = "";

  it("sign-in, profile and staff list", async () => {
    const login = await expectStatus(200, "POST", "/auth/login", null, { email: admin.email, password: TEST_PASSWORD });
    expect(login.json<{ token: string }>().token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    await expectStatus(200, "GET", `/auth/profile/${staffA.id}`, adminToken);
    await expectStatus(200, "GET", "/auth/staff", adminToken);
    await expectStatus(200, "GET", "/auth/users", adminToken);
    await expectStatus(200, "GET", "/healthz", null);
  });

  it("audios, tasks and a saved transcript's submission", async () => {
    audioId = (await uploadAudio(h, adminToken, { name: `prism_${Date.now()}.wav`, content: wav }, "Dementia"))._id;
    await expectStatus(200, "GET", `/api/audios/${audioId}`, adminToken);
    await expectStatus(200, "GET", "/api/audios/dementia", adminToken);
    await expectStatus(200, "GET", "/api/audios/dementiawithouttasks", adminToken);
    const task = await expectStatus(200, "POST", "/api/createtask", adminToken, {
      audio_id: audioId,
      assigned_to: staffA.id,
    });
    taskId = task.json<{ task: { _id: string } }>().task._id;
    await expectStatus(200, "GET", "/api/tasks", tokenA);
    await expectStatus(200, "GET", `/api/tasks/${taskId}`, tokenA);
    await expectStatus(200, "GET", `/api/tasks/user/${staffA.id}`, tokenA);
    await expectStatus(200, "PUT", `/api/updateaudios/${audioId}/${staffA.id}`, tokenA);

    await h.caller(staffA).transcripts.save({ audioId, text: "Habari ya leo? Nzuri sana!" });
    const withSubmission = await expectStatus(200, "GET", `/api/tasks/${taskId}`, adminToken);
    submissionId = withSubmission.json<{ submission: { _id: string } }>().submission._id;
    await expectStatus(200, "GET", "/api/submissions?page=1&limit=5", adminToken);
    await expectStatus(200, "GET", `/api/submissions/${submissionId}`, adminToken);
    await expectStatus(200, "GET", `/api/usersubmissions/${staffA.id}`, tokenA);
    await expectStatus(200, "GET", `/api/checksubmissions/${taskId}`, tokenA);
    await expectStatus(200, "POST", `/api/submissions/${submissionId}/comments`, adminToken, {
      comments: { text: "Please check the second sentence.", postedBy: admin.id },
    });
    await expectStatus(200, "GET", "/api/search?q=prism", adminToken);
  });

  it("file links: whole, a range, unchanged, expired, missing, past the end", async () => {
    const link = await expectStatus(200, "POST", "/api/fetch-files", adminToken, {
      fileUrl: await audioKey(audioId),
      folder: "audios",
    });
    const url = link.json<{ url: string }>().url;
    const whole = await expectStatus(200, "GET", url, null);
    expect(whole.headers.get("content-type")).toBe("audio/wav");
    const range = await expectStatus(206, "GET", url, null, undefined, { range: "bytes=0-99" });
    expect(range.headers.get("content-range")).toBe(`bytes 0-99/${wav.length}`);
    // fetch adds `Cache-Control: no-cache` to a conditional request unless it carries its own.
    await expectStatus(304, "GET", url, null, undefined, {
      "if-none-match": whole.headers.get("etag")!,
      "cache-control": "max-age=0",
    });
    await expectStatus(416, "GET", url, null, undefined, { range: `bytes=${wav.length + 10}-` });
    await expectStatus(403, "GET", signFileUrl(h.deps.jwtSecret, await audioKey(audioId), -10), null);
    await expectStatus(404, "GET", signFileUrl(h.deps.jwtSecret, "audios/gone.wav"), null);
  });

  it("notifications", async () => {
    await expectStatus(200, "POST", "/api/createnotification", adminToken, {
      senderId: admin.id,
      message: "Please review interview 7.",
      link: "/audiomanagement/trascript",
      recipientId: staffA.id,
    });
    const list = await expectStatus(200, "GET", `/api/fetchnotifications/${staffA.id}`, tokenA);
    const [first] = list.json<Array<{ _id: string }>>();
    await expectStatus(200, "PUT", `/api/markNotificationAsRead/${first!._id}`, tokenA);
    await expectStatus(200, "PUT", "/api/markAllNotificationsAsRead", tokenA);
  });

  it("statistics", async () => {
    await expectStatus(200, "GET", "/api/statistics", adminToken);
    await expectStatus(200, "GET", "/api/user-engagement-overview", adminToken);
    await expectStatus(200, "GET", "/api/team-performance-report", adminToken);
    await expectStatus(200, "GET", "/api/statistics/reviewers", adminToken);
  });

  it("participants", async () => {
    const made = await expectStatus(201, "POST", "/api/participants", adminToken, {
      code: "P0900",
      group: "Dementia",
      sex: "female",
      age_months: 866,
      consent_status: "given",
      consent_date: "2026-03-02",
    });
    const id = made.json<{ participant: { _id: string } }>().participant._id;
    await expectStatus(200, "GET", "/api/participants?page=1&limit=5", adminToken);
    await expectStatus(200, "GET", `/api/participants/${id}`, adminToken);
    await expectStatus(200, "PUT", `/api/participants/${id}`, adminToken, {
      code: "P0900",
      group: "Dementia",
      notes: "Prefers mornings.",
    });
    await expectStatus(200, "GET", "/api/participants/export", adminToken);
    await expectStatus(200, "POST", "/api/participants/import", adminToken, {
      csv: "code,group,sex,age_years\nP0901,Control,male,70\n",
    });
    await expectStatus(200, "POST", `/api/audios/${audioId}/participant`, adminToken, { participant_id: id });
  });

  // POST /api/participants/import accepts a raw text/csv body (200), and the document says so.
  it("a participants import as a raw text/csv body", async () => {
    await expectStatus(200, "POST", "/api/participants/import", adminToken, "code,group\nP0902,Control\n", {
      "content-type": "text/csv",
    });
  });

  it("bulk review, then an export and its zip's link", async () => {
    const bulk = await expectStatus(200, "POST", "/api/reviews/bulk", adminToken, {
      submission_ids: [submissionId],
      outputs: ["transcript"],
      action: "approve",
    });
    expect(bulk.json<{ done: unknown[] }>().done).toHaveLength(1);

    const finished = await approvedWork(h, admin, staffB, { category: "Control" });
    await linkToParticipant(h.deps.db, finished.id, { sex: "male", ageMonths: 840 });
    await expectStatus(202, "POST", "/api/exports", adminToken, { category: "Control", corpus: "prism" });
    await exportJobsIdle();
    const list = await expectStatus(200, "GET", "/api/exports?page=1&limit=5", adminToken);
    const [ready] = list.json<{ exports: Array<{ _id: string; download_url: string | null }> }>().exports;
    expect(ready!.download_url).toMatch(/^\/files\/exports\/[0-9a-f-]+\.zip\?/);
    const zip = await expectStatus(200, "GET", ready!.download_url!, null);
    expect(zip.headers.get("content-type")).toBe("application/zip");

    // Every other folder a link names: the finished work's recording and saved transcript, and an initial transcript.
    const recording = await h.deps.db
      .selectFrom("translatedRecordings")
      .select("fileKey")
      .where("fileKey", "like", `recordings/${finished.id}/%`)
      .executeTakeFirstOrThrow();
    const version = await h.deps.db
      .selectFrom("transcriptVersions")
      .select("fileKey")
      .where("fileKey", "like", `transcripts/${finished.id}/%`)
      .executeTakeFirstOrThrow();
    const attached = await h.upload("INITIAL_TRANSCRIPT", adminToken, [
      ["audioId", finished.id],
      ["file", { name: "initial.txt", content: "Habari ya leo?" }],
    ]);
    expect(attached.statusCode, attached.body).toBe(200);
    const detail = await expectStatus(200, "GET", `/api/audios/${finished.id}`, adminToken);
    const initial = detail.json<{ transcript: string | null }>().transcript;
    expect(initial).toMatch(/^\/files\/initial-transcripts\//);
    for (const key of [recording.fileKey, version.fileKey]) {
      const link = await expectStatus(200, "POST", "/api/fetch-files", adminToken, { fileUrl: key });
      await expectStatus(200, "GET", link.json<{ url: string }>().url, null);
    }
    await expectStatus(200, "GET", initial!, null);
  });

  it("failures: 401, 403, 404 and 400", async () => {
    // Without any Bearer token Prism answers 401 itself (the document asks for one); a token that is no
    // session's reaches the server, which answers its documented 401.
    await expectStatus(401, "GET", "/api/tasks", "not-a-session-token");
    await expectStatus(401, "POST", "/auth/login", null, { email: admin.email, password: "Wrong-pass1!" });
    await expectStatus(403, "GET", "/auth/users", tokenA);
    await expectStatus(404, "GET", `/api/tasks/${randomUUID()}`, adminToken);
    await expectStatus(400, "POST", "/api/createnotification", adminToken, {
      senderId: admin.id,
      message: "Hello",
      link: "/dashboard",
      recipientId: randomUUID(),
    });
  });

  it("Prism found no violation in any of them", () => {
    expect(seen.length).toBeGreaterThan(40);
    const violations = seen
      .filter((s) => s.violations !== null)
      .map((s) => `${s.request}: ${s.violations!.slice(0, 2000)}`);
    expect(violations, violations.join("\n")).toEqual([]);
  });
});

/** The storage key of an audio's own file. */
async function audioKey(id: string): Promise<string> {
  const row = await h.deps.db.selectFrom("audios").select("fileKey").where("id", "=", id).executeTakeFirstOrThrow();
  return row.fileKey;
}
