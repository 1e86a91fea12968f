import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { WebSocket, WebSocketServer } from "ws";
import { initTRPC } from "@trpc/server";
import type { SessionUser } from "@tafsiri/api";
import { INVALID_EVENT_ID, ZLiveEvent } from "@tafsiri/api/testing/services";
import { appWithUsers, fixture, uploadAudio, type AppHarness } from "./fixtures/app-harness";
import { listen, rawSocket, waitUntil, type RawFrame, type RawSocket } from "./fixtures/live-client";
import { trpcWebSocketHandler } from "../src/live/trpc-websocket";

// The WebSocket at /trpc frame by frame, as an integrator writing their own client would see it
// (live/trpc-websocket.ts serves tRPC v11's protocol; live-events.test.ts drives it with @trpc/client).

let h: AppHarness;
let baseUrl: string;
let admin: SessionUser;
let staff: SessionUser;
const sockets: RawSocket[] = [];
let uploads = 0;

beforeAll(async () => {
  ({ h, admin, staffA: staff } = await appWithUsers());
  baseUrl = await listen(h.app);
});
afterAll(async () => {
  for (const socket of sockets) socket.close();
  await h.close();
});

async function adminSocket(): Promise<RawSocket> {
  const socket = await rawSocket(baseUrl, { token: await h.token(admin) });
  sockets.push(socket);
  return socket;
}

/** A change the admin hears of: the staff member saves a transcript of a new audio assigned to them. */
async function saveTranscript(): Promise<{ id: string; filename: string }> {
  uploads += 1;
  const audio = await uploadAudio(h, await h.token(admin), {
    name: `ws_${uploads}_${Date.now()}.wav`,
    content: await fixture("hello.wav"),
    type: "audio/wav",
  });
  await h.caller(admin).tasks.assign({ audioId: audio._id, staffId: staff.id });
  await h.caller(staff).transcripts.save({ audioId: audio._id, text: "Habari ya asubuhi." });
  await h.deps.events.idle();
  return { id: audio._id, filename: audio.filename };
}

/**
 * Counts the bus's live subscribers (each socket holds one, each running subscription one more)
 * while `run` runs.
 */
async function countingBusSubscribers(run: (active: () => number) => Promise<void>): Promise<void> {
  const bus = h.deps.events;
  const subscribe = bus.subscribe.bind(bus);
  let active = 0;
  bus.subscribe = (subscriber) => {
    active += 1;
    const unsubscribe = subscribe(subscriber);
    let done = false;
    return () => {
      if (!done) active -= 1;
      done = true;
      unsubscribe();
    };
  };
  try {
    await run(() => active);
  } finally {
    bus.subscribe = subscribe;
  }
}

const isResult = (id: unknown, type: string) => (frame: RawFrame) =>
  typeof frame === "object" && frame.id === id && (frame.result as { type?: string } | undefined)?.type === type;
const isError = (id: unknown) => (frame: RawFrame) =>
  typeof frame === "object" && frame.id === id && frame.error !== undefined;

describe("the tRPC WebSocket at /trpc", () => {
  it("starts a subscription, sends each event as a tracked data frame, answers PING, and stops on subscription.stop", async () => {
    await h.deps.events.idle();
    const socket = await adminSocket();
    socket.send("PING");
    await socket.next((frame) => frame === "PONG");
    socket.send({ id: "live", method: "subscription", params: { path: "events.onEvent", input: {} } });
    await socket.next(isResult("live", "started"));

    const audio = await saveTranscript();
    // Uploading and assigning are changes too; the save is the notification and the audio.changed after it.
    await waitUntil(
      () => socket.frames.some((frame) => JSON.stringify(frame).includes("uploaded a new transcript")),
      "the save's notification",
    );
    await waitUntil(
      () =>
        isResult("live", "data")(socket.frames.at(-1)!) &&
        JSON.stringify(socket.frames.at(-1)).includes('"audio.changed"'),
      "the save's audio.changed",
    );
    const trackingIds = socket.frames
      .filter(isResult("live", "data"))
      .map((frame) => BigInt((frame as { result: { id: string } }).result.id));
    expect(trackingIds).toEqual([...trackingIds].sort((a, b) => (a < b ? -1 : 1)));
    expect(new Set(trackingIds).size).toBe(trackingIds.length);
    const events = socket.frames
      .filter(isResult("live", "data"))
      .slice(-2)
      .map((frame) => {
        const result = (frame as { result: { id: string; data: { id: string; data: unknown } } }).result;
        expect(result.data.id).toBe(result.id);
        const event = ZLiveEvent.parse(result.data.data);
        expect(event.id).toBe(result.id);
        return event;
      });
    expect(events.map((e) => [e.kind, e.audioId])).toEqual([
      ["notification.created", audio.id],
      ["audio.changed", audio.id],
    ]);
    expect(events[0]?.notification?.message).toBe(`${staff.username} uploaded a new transcript for ${audio.filename}`);

    socket.send({ id: "live", method: "subscription.stop" });
    await socket.next(isResult("live", "stopped"));
    const heard = socket.frames.length;
    await saveTranscript();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(socket.frames.slice(heard)).toEqual([]);
  });

  it("answers malformed and refused requests with tRPC errors and keeps the connection usable", async () => {
    const socket = await adminSocket();
    socket.send("{not json");
    // tRPC's PARSE_ERROR, answered as BAD_REQUEST by the errorFormatter (describeError).
    expect(await socket.next(isError(null))).toMatchObject({ id: null, error: { data: { code: "BAD_REQUEST" } } });

    socket.send({ id: 1, method: "subscription", params: { path: "events.onEvent", input: { lastEventId: "abc" } } });
    expect(await socket.next(isError(1))).toMatchObject({
      error: { message: INVALID_EVENT_ID, data: { code: "BAD_REQUEST" } },
    });
    socket.send({ id: 2, method: "subscription", params: { path: "events.noSuchThing", input: {} } });
    expect(await socket.next(isError(2))).toMatchObject({ error: { data: { code: "NOT_FOUND" } } });
    socket.send({ id: 3, method: "query", params: { path: "accounts.me", input: undefined } });
    expect(await socket.next(isError(3))).toMatchObject({ error: { data: { code: "METHOD_NOT_SUPPORTED" } } });

    socket.send({ id: 4, method: "subscription", params: { path: "events.onEvent", input: {} } });
    await socket.next(isResult(4, "started"));
    const from = socket.frames.length;
    socket.send({ id: 4, method: "subscription", params: { path: "events.onEvent", input: {} } });
    expect(await socket.next(isError(4), from)).toMatchObject({
      error: { message: "Duplicate id 4", data: { code: "BAD_REQUEST" } },
    });
    // Neither the errors nor the duplicate disturbed the running subscription.
    const audio = await saveTranscript();
    const frame = await socket.next(isResult(4, "data"), from);
    expect(ZLiveEvent.parse((frame as { result: { data: { data: unknown } } }).result.data.data).audioId).toBe(
      audio.id,
    );
  });

  it("refuses connectionParams that are not strings, then closes the socket", async () => {
    const socket = await rawSocket(baseUrl, { token: 42 });
    sockets.push(socket);
    socket.send({ id: 1, method: "subscription", params: { path: "events.onEvent", input: {} } });
    expect(await socket.next(isError(null))).toMatchObject({
      error: { message: "Malformed TRPCConnectionParamsMessage", data: { code: "BAD_REQUEST" } },
    });
    await socket.closed;
    expect(socket.frames.some(isResult(1, "started"))).toBe(false);
  });

  it("releases a subscription's hold on the event bus when it is stopped or its socket closes", async () => {
    await countingBusSubscribers(async (active) => {
      const opened = await Promise.all([adminSocket(), adminSocket(), adminSocket()]);
      for (const socket of opened) {
        socket.send({ id: 1, method: "subscription", params: { path: "events.onEvent", input: {} } });
        await socket.next(isResult(1, "started"));
      }
      expect(active()).toBe(6);
      opened[0]!.send({ id: 1, method: "subscription.stop" });
      await opened[0]!.next(isResult(1, "stopped"));
      await waitUntil(() => active() === 5, "the stopped subscription to let go");
      for (const socket of opened) socket.close();
      await waitUntil(() => active() === 0, "every closed socket to let go");
    });
  });

  it("logs a socket error, releases the connection's subscriptions and keeps serving others", async () => {
    const warn = vi.spyOn(h.app.log, "warn");
    try {
      await countingBusSubscribers(async (active) => {
        const socket = await adminSocket();
        socket.send({ id: 1, method: "subscription", params: { path: "events.onEvent", input: {} } });
        await socket.next(isResult(1, "started"));
        expect(active()).toBe(2);
        // A text frame that is not UTF-8: the server's `ws` fails the connection (an 'error' event, then 1007).
        socket.ws.send(Buffer.from([0xff, 0xfe, 0xfd]), { binary: false });
        await socket.closed;
        await waitUntil(() => active() === 0, "the failed socket to let go");
        expect(warn).toHaveBeenCalledWith(
          expect.objectContaining({ err: expect.objectContaining({ code: "WS_ERR_INVALID_UTF8" }) }),
          expect.any(String),
        );
      });
      const other = await adminSocket();
      other.send({ id: 1, method: "subscription", params: { path: "events.onEvent", input: {} } });
      await other.next(isResult(1, "started"));
    } finally {
      warn.mockRestore();
    }
  });
});

describe("a socket error in the loop itself", () => {
  it("stops the connection's subscriptions at once, as a close does, and reports the error", async () => {
    // A subscription that runs until its signal aborts, under our loop on a plain `ws` server.
    const t = initTRPC.create();
    let aborted = false;
    const router = t.router({
      wait: t.procedure.subscription(async function* ({ signal }) {
        await new Promise((resolve) => signal?.addEventListener("abort", resolve, { once: true }));
        aborted = true;
        yield* [];
      }),
    });
    const socketErrors: Error[] = [];
    const onConnection = trpcWebSocketHandler({
      router,
      createContext: async () => ({}),
      onSocketError: (error) => socketErrors.push(error),
    });
    const wss = new WebSocketServer({ host: "127.0.0.1", port: 0 });
    const served: WebSocket[] = [];
    wss.on("connection", (socket, req) => {
      served.push(socket);
      onConnection(socket, req);
    });
    await once(wss, "listening");
    const client = await rawSocket(`http://127.0.0.1:${(wss.address() as AddressInfo).port}`, {});
    try {
      client.send({ id: 1, method: "subscription", params: { path: "wait" } });
      await client.next(isResult(1, "started"));
      const failure = new Error("connection reset");
      served[0]!.emit("error", failure);
      expect(socketErrors).toEqual([failure]);
      await waitUntil(() => aborted, "the subscription to stop");
      // Stopped by the error itself: the socket has not closed.
      expect(served[0]!.readyState).toBe(WebSocket.OPEN);
    } finally {
      client.close();
      await new Promise((resolve) => wss.close(resolve));
    }
  });
});
