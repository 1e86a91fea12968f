import WebSocket from "ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SessionUser } from "@tafsiri/api";
import { insertEvents, lockEventOrder } from "@tafsiri/db/repositories/events";
import { createAppHarness, type AppHarness } from "../fixtures/app-harness";
import { listen, rawSocket, waitUntil, type RawFrame, type RawSocket } from "../fixtures/live-client";

/**
 * Hostile suite (decision 013), attack: a WebSocket flood. One frame of 5,000 subscription requests, each
 * reading its backlog, kept `/healthz` from answering for 18 s. A connection now runs at most 10
 * subscriptions, a frame carries at most 20 messages (more closes the socket with 1008), and
 * backlog reads are bounded and shared, so other clients and `/healthz` keep answering.
 */

/** Events in the staff member's backlog, so that every resumed subscription has reading to do. */
const BACKLOG = 2_000;

let h: AppHarness;
let baseUrl: string;
let staff: SessionUser;
let token: string;

beforeAll(async () => {
  h = await createAppHarness();
  baseUrl = await listen(h.app);
  staff = await h.createUser("Staff");
  token = await h.token(staff);
  await h.deps.db.transaction().execute(async (trx) => {
    await lockEventOrder(trx);
    await insertEvents(
      trx,
      Array.from({ length: BACKLOG }, () => ({
        audience: "user" as const,
        recipientId: staff.id,
        audioId: null,
        kind: "audio.changed",
        payload: {},
      })),
    );
  });
});
afterAll(() => h.close());

/** A subscription request for `events.onEvent` resuming from the first event. */
const resume = (id: number) => ({
  id,
  method: "subscription",
  params: { path: "events.onEvent", input: { lastEventId: "0" } },
});

const isStarted = (id: number) => (f: RawFrame) =>
  typeof f === "object" && f.id === id && (f.result as { type?: string } | undefined)?.type === "started";
const isError = (id: number) => (f: RawFrame) => typeof f === "object" && f.id === id && f.error !== undefined;
const dataOf = (socket: RawSocket, id: number) =>
  socket.frames.filter(
    (f) => typeof f === "object" && f.id === id && (f.result as { type?: string } | undefined)?.type === "data",
  ).length;

/**
 * A bare socket that only counts the frames it gets (parsing 200,000 of them would slow the test
 * process, which is also the server's). Resolves once the connection params are sent.
 */
async function countingSocket(): Promise<{ ws: WebSocket; frames: number }> {
  const ws = new WebSocket(`${baseUrl.replace(/^http/, "ws")}/trpc?connectionParams=1`);
  const counter = { ws, frames: 0 };
  ws.on("message", () => {
    counter.frames += 1;
  });
  await new Promise((resolve, reject) => {
    ws.once("open", resolve);
    ws.once("error", reject);
  });
  ws.send(JSON.stringify({ method: "connectionParams", data: { token } }));
  return counter;
}

/** Times `/healthz` `count` times in a row over HTTP; returns the 99th percentile in ms. */
async function healthzP99(count: number): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < count; i += 1) {
    const started = performance.now();
    const res = await fetch(`${baseUrl}/healthz`);
    expect(res.status).toBe(200);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[Math.ceil(times.length * 0.99) - 1]!;
}

describe("a WebSocket flood", () => {
  it("closes a socket that sends 5,000 subscription requests in one frame (1008) and /healthz stays fast", async () => {
    const flooder = await rawSocket(baseUrl, { token });
    const healthz = healthzP99(100);
    flooder.send(Array.from({ length: 5_000 }, (_, i) => resume(i + 1)));
    expect(await flooder.closed).toBe(1008);
    expect(await healthz).toBeLessThan(200);
    // Nothing of the frame ran: no subscription was started.
    expect(flooder.frames.filter((f) => typeof f === "object" && f.result !== undefined)).toEqual([]);
  });

  it("refuses an 11th subscription on one connection with an error and keeps the first ten", async () => {
    const socket = await rawSocket(baseUrl, { token });
    for (let id = 1; id <= 10; id += 1) socket.send(resume(id));
    for (let id = 1; id <= 10; id += 1) await socket.next(isStarted(id));
    socket.send(resume(11));
    const refused = (await socket.next(isError(11))) as { error: { message: string; data?: { code?: string } } };
    expect(refused.error.data?.code).toBe("TOO_MANY_REQUESTS");
    expect(refused.error.message).toBe("A connection can run at most 10 subscriptions at once.");
    // The first ten each read the whole backlog.
    await waitUntil(() => [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].every((id) => dataOf(socket, id) === BACKLOG), "backlogs");
    // Stopping one frees its place.
    socket.send({ id: 3, method: "subscription.stop" });
    await waitUntil(
      () =>
        socket.frames.some(
          (f) => typeof f === "object" && f.id === 3 && (f.result as { type?: string } | undefined)?.type === "stopped",
        ),
      "stopped",
    );
    socket.send(resume(12));
    await socket.next(isStarted(12));
    socket.close();
  });

  it("keeps /healthz and other clients answering while one client resumes 100 subscriptions on 10 connections", async () => {
    const flooders = await Promise.all(Array.from({ length: 10 }, () => countingSocket()));
    const other = await rawSocket(baseUrl, { token });
    const healthz = healthzP99(100);
    for (const flooder of flooders) for (let id = 1; id <= 10; id += 1) flooder.ws.send(JSON.stringify(resume(id)));
    // Another client starting a subscription without a backlog is answered while the flood runs.
    other.send({ id: 1, method: "subscription", params: { path: "events.onEvent", input: {} } });
    await other.next(isStarted(1));
    expect(await healthz).toBeLessThan(200);
    // Every flooding subscription still gets its whole backlog.
    await waitUntil(() => flooders.every((f) => f.frames === 10 * (BACKLOG + 1)), "every backlog", 60_000);
    for (const f of flooders) f.ws.close();
    other.close();
  }, 90_000);
});
