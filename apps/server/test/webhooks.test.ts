import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { Webhook, WebhookVerificationError } from "standardwebhooks";
import { exportJobsIdle, openJobLocks, startWebhookJob } from "@tafsiri/api";
import { WEBHOOK_EVENT_TYPES } from "../../../packages/api/src/webhooks/event-types";
import { appWithUsers, assignOverRest, fixture, uploadAudio } from "./fixtures/app-harness";

// Decision 037: signed webhooks that never lose an event. A real receiver on 127.0.0.1 verifies every
// delivery with the `standardwebhooks` package. The delivery job runs as the server runs it, with shorter
// times so the test takes seconds: retries start at 50 ms (10 s in production) and are at most 500 ms apart
// (1 h), an attempt times out after 3 s (10 s), the job polls every 100 ms (1 s); "down for two minutes" is
// down for about one second, across several failed attempts; attempts start at least 40 ms apart (2 ms),
// so that their spreading can be seen.

const { h, admin, staffA, adminToken } = await appWithUsers();
const ALLOWED = ["127.0.0.1", "localhost"];
const locks = openJobLocks({ db: h.deps.db });
/** Starts the delivery job as the server does, with the times above. */
const startJob = () =>
  startWebhookJob(
    { db: h.deps.db, events: h.deps.events, locks, log: { info: () => undefined, error: () => undefined } },
    {
      allowedHosts: ALLOWED,
      // Long enough that a loaded CI machine's slow 204 is not taken for a failure (and retried: a second copy).
      timeoutMs: 3000,
      retryBaseMs: 50,
      retryMaxDelayMs: 500,
      retryForMs: 60_000,
      disableAfterMs: 3 * 24 * 3_600_000,
      pollMs: 100,
      startGapMs: 40,
    },
  );
let job = startJob();
h.deps.webhooks = { allowedHosts: ALLOWED, wake: () => job.wake() };
afterAll(async () => {
  await job.stop();
  await locks.close();
  await h.close();
});

interface Received {
  id: string;
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
}

/** A receiver on 127.0.0.1: answers with `answer` (200 by default) and keeps every body it verified. */
async function receiver(secret: () => string) {
  const got: Received[] = [];
  const raw: Array<{ body: string; headers: Record<string, string> }> = [];
  /** When each request arrived (performance.now(), ms), in arrival order. */
  const arrivals: number[] = [];
  let answer: (res: http.ServerResponse) => void = (res) => res.writeHead(204).end();
  const server = http.createServer((req, res) => {
    arrivals.push(performance.now());
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const headers = {
        "webhook-id": String(req.headers["webhook-id"]),
        "webhook-timestamp": String(req.headers["webhook-timestamp"]),
        "webhook-signature": String(req.headers["webhook-signature"]),
      };
      raw.push({ body, headers });
      try {
        got.push(new Webhook(secret()).verify(body, headers) as Received);
      } catch {
        res.writeHead(400).end();
        return;
      }
      answer(res);
    });
  });
  let connections = 0;
  server.on("connection", () => {
    connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    got,
    raw,
    arrivals,
    /** How many connections were opened to the receiver so far. */
    connections: () => connections,
    url: `http://127.0.0.1:${port}/hooks`,
    answerWith(fn: (res: http.ServerResponse) => void) {
      answer = fn;
    },
    down: () => new Promise<void>((resolve) => server.close(() => resolve())),
    up: () => new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve)),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Waits until `check` holds (polling every 50 ms), failing after `ms`. */
async function until(check: () => boolean | Promise<boolean>, ms = 10_000, what = "the condition") {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}.`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Every event type an endpoint may want. */
const ALL_TYPES = [...WEBHOOK_EVENT_TYPES];

/** Registers an endpoint over REST; answers its id and secret. */
async function register(url: string, eventTypes = ALL_TYPES) {
  const res = await h.call("POST", "/api/webhooks", adminToken, { url, eventTypes, description: "test receiver" });
  expect(res.statusCode, res.body).toBe(201);
  const created = res.json<{ endpoint: { id: string }; secret: string }>();
  expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
  return { id: created.endpoint.id, secret: created.secret };
}

/** The endpoint's delivery log over REST. */
async function deliveries(endpointId: string) {
  const res = await h.call("GET", `/api/webhooks/${endpointId}/deliveries?limit=100`, adminToken);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{
    deliveries: Array<{
      id: string;
      eventType: string;
      status: string;
      attempts: number;
      lastStatusCode: number | null;
      lastError: string | null;
    }>;
    total: number;
  }>();
}

/** Stops every endpoint registered so far, so later tests' events reach only their own receiver. */
async function disableAll() {
  const list = (await h.call("GET", "/api/webhooks", adminToken)).json<{ endpoints: Array<{ id: string }> }>();
  for (const e of list.endpoints) {
    const res = await h.call("PUT", `/api/webhooks/${e.id}`, adminToken, { enabled: false });
    expect(res.statusCode, res.body).toBe(200);
  }
}

const review = (submissionId: string, status: "Approved" | "Rejected", reason?: string) =>
  h.call("PUT", `/api/updatesubmissions/${submissionId}/${admin.id}`, adminToken, {
    translation_script_approval_status: status,
    ...(reason ? { reason } : {}),
  });

describe("webhooks (decision 037)", () => {
  it("delivers every event of a workflow once, signed, with ids unique per event", async () => {
    let secret = "";
    const r = await receiver(() => secret);
    const endpoint = await register(r.url);
    secret = endpoint.secret;

    const audio = await uploadAudio(h, adminToken, { name: "hook_flow.wav", content: await fixture("hello.wav") });
    const taskId = await assignOverRest(h, adminToken, audio._id, staffA);
    await h.caller(staffA).transcripts.save({ audioId: audio._id, text: "Habari ya asubuhi" });
    const task = await h.call("GET", `/api/tasks/${taskId}`, adminToken);
    const submissionId = task.json<{ submission: { _id: string } }>().submission._id;
    expect((await review(submissionId, "Rejected", "Missing a line.")).statusCode).toBe(200);
    await h.caller(staffA).transcripts.save({ audioId: audio._id, text: "Habari ya asubuhi, rafiki" });
    expect((await review(submissionId, "Approved")).statusCode).toBe(200);
    const started = await h.call("POST", "/api/exports", adminToken, {});
    expect(started.statusCode, started.body).toBe(202);
    await exportJobsIdle();

    const expected = [
      "audio.uploaded",
      "task.assigned",
      "transcript.submitted",
      // The rejection's reason is stored as a comment, but by the review, not through 'add comment'.
      "transcript.rejected",
      "transcript.submitted",
      "transcript.approved",
      "export.ready",
    ];
    await until(() => r.got.length >= expected.length, 10_000, "every event");
    await new Promise((resolve) => setTimeout(resolve, 300)); // nothing more arrives
    expect([...r.got].sort((a, b) => a.timestamp.localeCompare(b.timestamp)).map((e) => e.type)).toEqual(expected);
    expect(new Set(r.got.map((e) => e.id)).size).toBe(expected.length);
    for (const e of r.got) expect(r.raw.find((x) => x.headers["webhook-id"] === e.id)).toBeDefined();
    const rejected = r.got.find((e) => e.type === "transcript.rejected")!;
    // Each event carries its thing as REST shows it (SPEC §3 field names), as committed by its change.
    expect(rejected.data).toMatchObject({
      submission: {
        _id: submissionId,
        task_id: taskId,
        audio_id: audio._id,
        translation_script_approval_status: "Rejected",
        recorded_audio_approval_status: "No translation audio",
      },
      review: { status: "Rejected", reason: "Missing a line.", reviewed_by: admin.id, reassigned_to: null },
    });
    const rest = (await h.call("GET", `/api/submissions/${submissionId}`, adminToken)).json<{
      submission: Record<string, unknown>;
    }>();
    const approvedEvent = r.got.find((e) => e.type === "transcript.approved")!;
    const { comments: _comments, ...restSubmission } = rest.submission;
    expect(approvedEvent.data.submission).toEqual({ ...restSubmission, audio_id: audio._id });
    expect(r.got[0]!.data).toMatchObject({
      audio: { _id: audio._id, filename: "hook_flow", category: "Control", assigned_to: null },
    });
    expect(r.got.find((e) => e.type === "task.assigned")!.data).toEqual({
      task: { _id: taskId, audio_id: audio._id, assigned_to: staffA.id },
    });

    // The log shows each delivery delivered on its first attempt with the receiver's 204.
    await until(
      async () => (await deliveries(endpoint.id)).deliveries.every((d) => d.status === "delivered"),
      5000,
      "every delivery logged",
    );
    const log = await deliveries(endpoint.id);
    expect(log.total).toBe(expected.length);
    for (const d of log.deliveries) expect(d).toMatchObject({ status: "delivered", attempts: 1, lastStatusCode: 204 });

    // A tampered body, and a replay of a genuine delivery five minutes later, fail verification.
    const genuine = r.raw[0]!;
    const wh = new Webhook(secret);
    expect(() => wh.verify(genuine.body.replace("hook_flow", "hook_flaw"), genuine.headers)).toThrow(
      WebhookVerificationError,
    );
    const old = new Date(Date.now() - 10 * 60_000);
    const oldHeaders = {
      ...genuine.headers,
      "webhook-timestamp": String(Math.floor(old.getTime() / 1000)),
      "webhook-signature": wh.sign(genuine.headers["webhook-id"]!, old, genuine.body),
    };
    expect(() => wh.verify(genuine.body, oldHeaders)).toThrow(/too old/i);
    expect(() => wh.verify(genuine.body, genuine.headers)).not.toThrow();

    // Redeliver: the same event (same id, same body) arrives again, freshly signed.
    const first = log.deliveries.find((d) => d.eventType === "audio.uploaded")!;
    const before = r.got.length;
    const again = await h.call("POST", `/api/webhooks/${endpoint.id}/deliveries/${first.id}/redeliver`, adminToken);
    expect(again.statusCode, again.body).toBe(200);
    await until(() => r.got.length === before + 1, 5000, "the redelivery");
    expect(r.got.at(-1)!.id).toBe(r.got.find((e) => e.type === "audio.uploaded")!.id);
    await until(
      async () => (await deliveries(endpoint.id)).deliveries.find((d) => d.id === first.id)?.attempts === 2,
      5000,
      "the redelivery logged",
    );
    expect((await deliveries(endpoint.id)).deliveries.find((d) => d.id === first.id)).toMatchObject({
      status: "delivered",
      attempts: 2,
    });

    // Send test event: a webhook.test event to this endpoint only.
    const test = await h.call("POST", `/api/webhooks/${endpoint.id}/test`, adminToken);
    expect(test.statusCode, test.body).toBe(200);
    await until(() => r.got.some((e) => e.type === "webhook.test"), 5000, "the test event");
    expect(r.got.find((e) => e.type === "webhook.test")!.id).toBe(test.json<{ eventId: string }>().eventId);
    await disableAll();
    await r.close();
  });

  it("keeps every event while the receiver is down and delivers them all once it is back", async () => {
    let secret = "";
    const r = await receiver(() => secret);
    const endpoint = await register(r.url, ["audio.uploaded", "task.assigned"]);
    secret = endpoint.secret;
    await r.down();
    const names = ["down_1", "down_2", "down_3"];
    for (const name of names) {
      const audio = await uploadAudio(h, adminToken, { name: `${name}.wav`, content: await fixture("hello.wav") });
      await assignOverRest(h, adminToken, audio._id, staffA);
    }
    // Failed attempts are logged with their error and a next retry while it is down.
    await until(
      async () => (await deliveries(endpoint.id)).deliveries.every((d) => d.attempts >= 2),
      10_000,
      "retries",
    );
    const failing = await deliveries(endpoint.id);
    expect(failing.total).toBe(6);
    for (const d of failing.deliveries) {
      expect(d.status).toBe("pending");
      expect(d.lastStatusCode).toBeNull();
      expect(d.lastError).toMatch(/ECONNREFUSED/);
    }
    expect(r.got).toEqual([]);
    const failingSince = async () => {
      const list = (await h.call("GET", "/api/webhooks", adminToken)).json<{
        endpoints: Array<{ id: string; failingSince: string | null }>;
      }>();
      return list.endpoints.find((e) => e.id === endpoint.id)!.failingSince;
    };
    expect(await failingSince()).not.toBeNull();
    await r.up();
    await until(() => r.got.length >= 6, 10_000, "the backlog");
    expect(r.got.map((e) => e.type).sort()).toEqual([
      ...Array(3).fill("audio.uploaded"),
      ...Array(3).fill("task.assigned"),
    ]);
    expect(new Set(r.got.map((e) => e.id)).size).toBe(6);
    // The log says so once each attempt is recorded (just after the receiver answered).
    await until(
      async () => (await deliveries(endpoint.id)).deliveries.every((d) => d.status === "delivered"),
      5000,
      "every delivery logged as delivered",
    );
    // A success ends the endpoint's failing time.
    expect(await failingSince()).toBeNull();
    await disableAll();
    await r.close();
  });

  it("records a redirect as a failure and never follows it", async () => {
    let secret = "";
    const r = await receiver(() => secret);
    let followed = 0;
    const elsewhere = http.createServer((_req, res) => {
      followed += 1;
      res.writeHead(200).end();
    });
    await new Promise<void>((resolve) => elsewhere.listen(0, "127.0.0.1", resolve));
    r.answerWith((res) =>
      res.writeHead(307, { location: `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}/` }).end(),
    );
    const endpoint = await register(r.url, ["audio.uploaded"]);
    secret = endpoint.secret;
    await uploadAudio(h, adminToken, { name: "redirected.wav", content: await fixture("hello.wav") });
    await until(async () => (await deliveries(endpoint.id)).deliveries[0]?.attempts === 2, 5000, "two attempts");
    const [d] = (await deliveries(endpoint.id)).deliveries;
    expect(d).toMatchObject({ status: "pending", lastStatusCode: 307 });
    expect(d!.lastError).toMatch(/redirect/);
    expect(followed).toBe(0);
    await disableAll();
    await r.close();
    await new Promise<void>((resolve) => elsewhere.close(() => resolve()));
  });

  it("sends an endpoint's deliveries one after another over the connection it kept open", async () => {
    let secret = "";
    const r = await receiver(() => secret);
    const endpoint = await register(r.url, ["audio.uploaded"]);
    secret = endpoint.secret;
    for (const [i, name] of ["kept-1.wav", "kept-2.wav", "kept-3.wav"].entries()) {
      await uploadAudio(h, adminToken, { name, content: await fixture("hello.wav") });
      await until(() => r.got.length === i + 1, 5000, `delivery ${i + 1}`);
    }
    expect(r.got.map((e) => e.type)).toEqual(["audio.uploaded", "audio.uploaded", "audio.uploaded"]);
    expect(r.connections()).toBe(1);
    await disableAll();
    await r.close();
  });

  it("sends a delivery again at once over a new connection when the receiver had closed the kept one", async () => {
    let secret = "";
    const r = await receiver(() => secret);
    // Each connection's second request is answered by closing the connection, as a receiver closing
    // an idle kept connection does.
    const requestsOn = new Map<object, number>();
    r.answerWith((res) => {
      const n = (requestsOn.get(res.socket!) ?? 0) + 1;
      requestsOn.set(res.socket!, n);
      if (n === 2) res.socket!.destroy();
      else res.writeHead(204).end();
    });
    const endpoint = await register(r.url, ["audio.uploaded"]);
    secret = endpoint.secret;
    for (const [i, name] of ["stale-1.wav", "stale-2.wav"].entries()) {
      await uploadAudio(h, adminToken, { name, content: await fixture("hello.wav") });
      const delivered = async () =>
        (await deliveries(endpoint.id)).deliveries.filter((d) => d.status === "delivered").length === i + 1;
      await until(delivered, 5000, `delivery ${i + 1}`);
    }
    const log = await deliveries(endpoint.id);
    expect(log.deliveries.map((d) => [d.status, d.attempts])).toEqual([
      ["delivered", 1],
      ["delivered", 1],
    ]);
    expect(r.connections()).toBe(2);
    // The dropped request and the one sent again carry the same webhook-id, which receivers dedupe on.
    expect(new Set(r.got.map((e) => e.id)).size).toBe(2);
    await disableAll();
    await r.close();
  });

  it("spreads the attempts that fall due together rather than sending them in one burst", async () => {
    let secret = "";
    const r = await receiver(() => secret);
    const endpoint = await register(r.url, ["audio.uploaded"]);
    secret = endpoint.secret;
    // Eight deliveries written while no job runs (as while the sending instance restarts), then due together.
    await job.stop();
    for (let i = 1; i <= 8; i++) {
      await uploadAudio(h, adminToken, { name: `burst-${i}.wav`, content: await fixture("hello.wav") });
    }
    expect((await deliveries(endpoint.id)).total).toBe(8);
    job = startJob();
    await until(() => r.got.length === 8, 10_000, "the eight deliveries");
    // Sent one after another, 40 ms apart: the last at least 7 × 40 ms after the first. Sent in one
    // burst, the eight arrive within a few milliseconds, four at a time.
    expect(r.arrivals.at(-1)! - r.arrivals[0]!).toBeGreaterThan(7 * 40 * 0.75);
    await disableAll();
    await r.close();
  });

  it("gives up on a slow receiver at the time limit", async () => {
    let secret = "";
    const r = await receiver(() => secret);
    r.answerWith((res) => setTimeout(() => res.writeHead(200).end(), 8000));
    const endpoint = await register(r.url, ["audio.uploaded"]);
    secret = endpoint.secret;
    await uploadAudio(h, adminToken, { name: "slow.wav", content: await fixture("hello.wav") });
    await until(async () => ((await deliveries(endpoint.id)).deliveries[0]?.attempts ?? 0) >= 1, 15_000, "an attempt");
    const attempt = await h.deps.db
      .selectFrom("webhookAttempts")
      .innerJoin("webhookDeliveries", "webhookDeliveries.id", "webhookAttempts.deliveryId")
      .select(["webhookAttempts.statusCode", "webhookAttempts.durationMs", "webhookAttempts.error"])
      .where("webhookDeliveries.endpointId", "=", endpoint.id)
      .orderBy("webhookAttempts.attempt")
      .executeTakeFirstOrThrow();
    expect(attempt.statusCode).toBeNull();
    expect(attempt.error).toBe("No answer within 3 s.");
    expect(attempt.durationMs).toBeGreaterThanOrEqual(2950);
    expect(attempt.durationMs).toBeLessThan(6000);
    await disableAll();
    await r.close();
  });

  it("lets a receiver that does not answer hold up only its own deliveries, not another endpoint's", async () => {
    let slowSecret = "";
    let fastSecret = "";
    const slow = await receiver(() => slowSecret);
    const fast = await receiver(() => fastSecret);
    slow.answerWith((res) => setTimeout(() => res.writeHead(204).end(), 8000));
    const slowEndpoint = await register(slow.url, ["audio.uploaded"]);
    const fastEndpoint = await register(fast.url, ["audio.uploaded"]);
    slowSecret = slowEndpoint.secret;
    fastSecret = fastEndpoint.secret;
    const first = await uploadAudio(h, adminToken, { name: "held-1.wav", content: await fixture("hello.wav") });
    await until(() => slow.raw.length === 1, 5000, "the slow receiver's first request");
    // While the slow receiver holds its attempt (3 s until the time limit), a second event goes out.
    const second = await uploadAudio(h, adminToken, { name: "held-2.wav", content: await fixture("hello.wav") });
    const secondSentAt = Date.now();
    // Held behind the slow attempt, it would go out only when that attempt times out, about 2.7 s from now.
    await until(() => fast.got.length === 2, 2000, "the fast receiver's second event");
    expect(Date.now() - secondSentAt).toBeLessThan(2000);
    const filenames = fast.got.map((e) => (e.data["audio"] as { filename: string }).filename);
    expect(filenames.sort()).toEqual([first.filename, second.filename].sort());
    // The fast endpoint's log is written without waiting for the slow attempt.
    await until(
      async () => (await deliveries(fastEndpoint.id)).deliveries.every((d) => d.status === "delivered"),
      500,
      "the fast endpoint's log",
    );
    await disableAll();
    await slow.close();
    await fast.close();
  });

  it("gives a delivery up after its retry window, and disables an endpoint failing for 3 days, telling the admins", async () => {
    let secret = "";
    const r = await receiver(() => secret);
    r.answerWith((res) => res.writeHead(500).end());
    const endpoint = await register(r.url, ["audio.uploaded"]);
    secret = endpoint.secret;
    await uploadAudio(h, adminToken, { name: "failing.wav", content: await fixture("hello.wav") });
    await until(async () => ((await deliveries(endpoint.id)).deliveries[0]?.attempts ?? 0) >= 1, 5000, "an attempt");
    // As if the first attempt had been 25 hours ago and the endpoint had failed since 4 days ago (paused
    // meanwhile, so no attempt in flight writes over it).
    await h.deps.db.updateTable("webhookEndpoints").set({ enabled: false }).where("id", "=", endpoint.id).execute();
    await new Promise((resolve) => setTimeout(resolve, 300));
    await h.deps.db
      .updateTable("webhookDeliveries")
      .set({ firstAttemptAt: new Date(Date.now() - 25 * 3_600_000) })
      .where("endpointId", "=", endpoint.id)
      .execute();
    await h.deps.db
      .updateTable("webhookEndpoints")
      .set({ enabled: true, failingSince: new Date(Date.now() - 4 * 24 * 3_600_000) })
      .where("id", "=", endpoint.id)
      .execute();
    await until(async () => (await deliveries(endpoint.id)).deliveries[0]?.status === "failed", 5000, "giving up");
    expect((await deliveries(endpoint.id)).deliveries[0]).toMatchObject({ lastStatusCode: 500, nextAttemptAt: null });
    const list = (await h.call("GET", "/api/webhooks", adminToken)).json<{
      endpoints: Array<{ id: string; enabled: boolean; disabledReason: string | null }>;
    }>();
    expect(list.endpoints.find((e) => e.id === endpoint.id)).toMatchObject({
      enabled: false,
      disabledReason: "Its deliveries failed for 72 hours without a success.",
    });
    const notices = await h.deps.db
      .selectFrom("notifications")
      .select(["message", "link"])
      .where("recipientId", "=", admin.id)
      .where("message", "like", "The webhook to %")
      .execute();
    expect(notices).toEqual([
      {
        message: `The webhook to ${r.url} was disabled: Its deliveries failed for 72 hours without a success. Enable it again under Management → Webhooks.`,
        link: "/management/webhooks",
      },
    ]);
    // Enabling it again clears why it was disabled.
    const enabled = await h.call("PUT", `/api/webhooks/${endpoint.id}`, adminToken, { enabled: true });
    expect(
      enabled.json<{ endpoint: { enabled: boolean; disabledReason: null; failingSince: null } }>().endpoint,
    ).toMatchObject({
      enabled: true,
      disabledReason: null,
      failingSince: null,
    });
    await disableAll();
    await r.close();
  });

  it("refuses an endpoint on a private, loopback or link-local address unless its host is allowed", async () => {
    for (const url of [
      "http://10.1.2.3/hook",
      "http://169.254.169.254/latest/meta-data",
      "http://[::1]:8080/hook",
      "http://192.168.0.10/hook",
      "http://[fd00::1]/hook",
      "http://127.0.0.2/hook",
    ]) {
      const res = await h.call("POST", "/api/webhooks", adminToken, { url, eventTypes: ["audio.uploaded"] });
      expect(res.statusCode, url).toBe(400);
      expect(res.json<{ message: string }>().message, url).toMatch(
        /resolves to .*a private, loopback or link-local address; such receivers are refused unless the host is listed in WEBHOOK_ALLOWED_HOSTS\./,
      );
    }
    const bad = await h.call("POST", "/api/webhooks", adminToken, {
      url: "ftp://example.org/",
      eventTypes: ["audio.uploaded"],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ message: string }>().message).toBe(
      "The webhook URL must be an http or https URL, at most 2000 characters.",
    );
    const none = await h.call("POST", "/api/webhooks", adminToken, { url: "http://127.0.0.1/x", eventTypes: [] });
    expect(none.statusCode).toBe(400);
    // Staff may not manage webhooks.
    const staffToken = await h.token(staffA);
    expect((await h.call("GET", "/api/webhooks", staffToken)).statusCode).toBe(403);
  });

  it("never writes an event that its change rolled back, nor one no endpoint wants", async () => {
    await disableAll();
    const before = await h.deps.db
      .selectFrom("webhookEvents")
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .executeTakeFirstOrThrow();
    await uploadAudio(h, adminToken, { name: "unwanted.wav", content: await fixture("hello.wav") });
    // A refused change (a second upload of the same name) writes nothing either.
    const dup = await h.upload("AUDIO", adminToken, [
      ["category", "Control"],
      ["file", { name: "unwanted.wav", content: await fixture("hello.wav") }],
    ]);
    expect(dup.statusCode).toBe(409);
    const after = await h.deps.db
      .selectFrom("webhookEvents")
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
  });
});
