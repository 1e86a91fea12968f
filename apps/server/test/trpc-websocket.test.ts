import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SessionUser } from "@tafsiri/api";
import { INVALID_EVENT_ID, ZLiveEvent } from "@tafsiri/api/schemas/events";
import { appWithUsers, fixture, uploadAudio, type AppHarness } from "./fixtures/app-harness";
import { listen, rawSocket, waitUntil, type RawFrame, type RawSocket } from "./fixtures/live-client";

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
  const audio = await uploadAudio(h, await h.token(admin), { name: `ws_${uploads}_${Date.now()}.wav`, content: await fixture("hello.wav"), type: "audio/wav" });
  await h.caller(admin).tasks.assign({ audioId: audio._id, staffId: staff.id });
  await h.caller(staff).transcripts.save({ audioId: audio._id, text: "Habari ya asubuhi." });
  await h.deps.events.idle();
  return { id: audio._id, filename: audio.filename };
}

const isResult = (id: unknown, type: string) => (frame: RawFrame) => typeof frame === "object" && frame.id === id && (frame.result as { type?: string } | undefined)?.type === type;
const isError = (id: unknown) => (frame: RawFrame) => typeof frame === "object" && frame.id === id && frame.error !== undefined;

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
    await waitUntil(() => socket.frames.some((frame) => JSON.stringify(frame).includes("uploaded a new transcript")), "the save's notification");
    await waitUntil(() => isResult("live", "data")(socket.frames.at(-1)!) && JSON.stringify(socket.frames.at(-1)).includes('"audio.changed"'), "the save's audio.changed");
    const trackingIds = socket.frames.filter(isResult("live", "data")).map((frame) => BigInt((frame as { result: { id: string } }).result.id));
    expect(trackingIds).toEqual([...trackingIds].sort((a, b) => (a < b ? -1 : 1)));
    expect(new Set(trackingIds).size).toBe(trackingIds.length);
    const events = socket.frames.filter(isResult("live", "data")).slice(-2).map((frame) => {
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
    expect(await socket.next(isError(null))).toMatchObject({ id: null, error: { data: { code: "PARSE_ERROR" } } });

    socket.send({ id: 1, method: "subscription", params: { path: "events.onEvent", input: { lastEventId: "abc" } } });
    expect(await socket.next(isError(1))).toMatchObject({ error: { message: INVALID_EVENT_ID, data: { code: "BAD_REQUEST" } } });
    socket.send({ id: 2, method: "subscription", params: { path: "events.noSuchThing", input: {} } });
    expect(await socket.next(isError(2))).toMatchObject({ error: { data: { code: "NOT_FOUND" } } });
    socket.send({ id: 3, method: "query", params: { path: "accounts.me", input: undefined } });
    expect(await socket.next(isError(3))).toMatchObject({ error: { data: { code: "METHOD_NOT_SUPPORTED" } } });

    socket.send({ id: 4, method: "subscription", params: { path: "events.onEvent", input: {} } });
    await socket.next(isResult(4, "started"));
    const from = socket.frames.length;
    socket.send({ id: 4, method: "subscription", params: { path: "events.onEvent", input: {} } });
    expect(await socket.next(isError(4), from)).toMatchObject({ error: { message: "Duplicate id 4", data: { code: "BAD_REQUEST" } } });
    // Neither the errors nor the duplicate disturbed the running subscription.
    const audio = await saveTranscript();
    const frame = await socket.next(isResult(4, "data"), from);
    expect(ZLiveEvent.parse((frame as { result: { data: { data: unknown } } }).result.data.data).audioId).toBe(audio.id);
  });

  it("refuses connectionParams that are not strings, then closes the socket", async () => {
    const socket = await rawSocket(baseUrl, { token: 42 });
    sockets.push(socket);
    socket.send({ id: 1, method: "subscription", params: { path: "events.onEvent", input: {} } });
    expect(await socket.next(isError(null))).toMatchObject({ error: { data: { code: "PARSE_ERROR" } } });
    await socket.closed;
    expect(socket.frames.some(isResult(1, "started"))).toBe(false);
  });

  it("releases a subscription's hold on the event bus when it is stopped or its socket closes", async () => {
    // Counts the bus's live subscribers (each socket holds one, each running subscription one more).
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
      const opened = await Promise.all([adminSocket(), adminSocket(), adminSocket()]);
      for (const socket of opened) {
        socket.send({ id: 1, method: "subscription", params: { path: "events.onEvent", input: {} } });
        await socket.next(isResult(1, "started"));
      }
      expect(active).toBe(6);
      opened[0]!.send({ id: 1, method: "subscription.stop" });
      await opened[0]!.next(isResult(1, "stopped"));
      await waitUntil(() => active === 5, "the stopped subscription to let go");
      for (const socket of opened) socket.close();
      await waitUntil(() => active === 0, "every closed socket to let go");
    } finally {
      bus.subscribe = subscribe;
    }
  });
});
