import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocketServer } from "ws";
import { applyWSSHandler } from "@trpc/server/adapters/ws";
import { appRouter, createContextInner, type SessionUser } from "@tafsiri/api";
import { SESSION_ENDED_CLOSE_CODE } from "@tafsiri/domain";
import { authenticateConnection } from "../src/live/socket-session";
import { appWithUsers, fixture, uploadAudio, type AppHarness } from "./fixtures/app-harness";
import {
  listen,
  rawConnect,
  rawSocket,
  waitUntil,
  type RawFrame,
  type RawOutcome,
  type RawSocket,
} from "./fixtures/live-client";

// Decision 008: one scripted frame sequence played through tRPC's own WebSocket handler
// (applyWSSHandler, i.e. getWSConnectionHandler, on a plain `ws` server) and through ours (the real
// app), answers compared frame by frame. Both serve the same router (so the same middleware and
// errorFormatter) over the same deps, with the same context; only the handler differs. When an
// upgrade of @trpc/* changes the protocol, tRPC's side changes and this test fails: ours must follow.
//
// The two sockets play the script in lockstep and hear the same committed change from the same event
// bus, so even event ids and times are equal: nothing is normalized. Frames are compared as parsed
// JSON (our data frames write the same keys in another order).

let h: AppHarness;
let admin: SessionUser;
let staff: SessionUser;
let ours: string;
let theirs: string;
let wss: WebSocketServer;
const sockets: RawSocket[] = [];

beforeAll(async () => {
  ({ h, admin, staffA: staff } = await appWithUsers());
  ours = await listen(h.app);
  wss = new WebSocketServer({ host: "127.0.0.1", port: 0 });
  await once(wss, "listening");
  applyWSSHandler({
    wss,
    router: appRouter,
    // What the app's route does for a connection, less the session's deactivation watch and write
    // batching (which send no frames of their own).
    createContext: async ({ info }) => {
      const session = await authenticateConnection(h.deps, info.connectionParams);
      return createContextInner({ ...h.deps, transport: "ws", user: session.user, session });
    },
  });
  theirs = `http://127.0.0.1:${(wss.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const socket of sockets) socket.close();
  for (const client of wss.clients) client.terminate();
  await new Promise((resolve) => wss.close(resolve));
  await h.close();
});

/** A step of the script: frames sent to both sockets (or one action for both), and how many answers each must get. */
interface Step {
  name: string;
  send?: unknown[];
  /** Runs once for both sockets (a change committed through the API). */
  act?: () => Promise<void>;
  answers: number;
}

/** Both sockets play `steps` in lockstep; returns each step's answers, ours beside tRPC's. */
async function play(steps: Step[], pair: { ours: RawSocket; theirs: RawSocket }) {
  const transcript: Array<{ step: string; theirs: RawFrame[]; ours: RawFrame[] }> = [];
  const start = { ours: pair.ours.frames.length, theirs: pair.theirs.frames.length };
  for (const step of steps) {
    const from = { ours: pair.ours.frames.length, theirs: pair.theirs.frames.length };
    for (const message of step.send ?? []) {
      pair.theirs.send(message);
      pair.ours.send(message);
    }
    await step.act?.();
    for (const side of ["theirs", "ours"] as const) {
      await waitUntil(
        () => pair[side].frames.length >= from[side] + step.answers,
        `${step.answers} answer(s) to "${step.name}" from ${side}`,
      );
    }
    transcript.push({
      step: step.name,
      theirs: pair.theirs.frames.slice(from.theirs),
      ours: pair.ours.frames.slice(from.ours),
    });
  }
  // Nothing more comes after the last step.
  await new Promise((resolve) => setTimeout(resolve, 300));
  const heard = (side: "theirs" | "ours") => start[side] + transcript.reduce((n, step) => n + step[side].length, 0);
  transcript.push({
    step: "(after the script)",
    theirs: pair.theirs.frames.slice(heard("theirs")),
    ours: pair.ours.frames.slice(heard("ours")),
  });
  return transcript;
}

/** What a frame is, in a word: PING/PONG, `<id> <result type>`, or `<id> error <data.code>`. */
function kindOf(frame: RawFrame): string {
  if (typeof frame === "string") return frame;
  if (frame.error) return `${String(frame.id)} error ${frame.error.data?.code}`;
  return `${String(frame.id)} ${(frame.result as { type: string }).type}`;
}

const trackingId = (frame: RawFrame | undefined): string => (frame as { result: { id: string } }).result.id;

describe("our WebSocket loop against tRPC's own handler", () => {
  it("answers one scripted session frame for frame as tRPC's getWSConnectionHandler does", async () => {
    // The change the subscriptions hear: the staff member saves a transcript of an audio assigned to
    // them (the admin hears its notification and its audio.changed). Uploaded and assigned first.
    const audio = await uploadAudio(h, await h.token(admin), {
      name: `protocol_${Date.now()}.wav`,
      content: await fixture("hello.wav"),
      type: "audio/wav",
    });
    await h.caller(admin).tasks.assign({ audioId: audio._id, staffId: staff.id });
    await h.deps.events.idle();

    // connectionParams: the first message, sent by rawSocket on open (no answer).
    const token = await h.token(admin);
    const pair = { theirs: await rawSocket(theirs, { token }), ours: await rawSocket(ours, { token }) };
    sockets.push(pair.theirs, pair.ours);

    const live = { id: 1, method: "subscription", params: { path: "events.onEvent", input: {} } };
    const first = await play(
      [
        { name: "PING", send: ["PING"], answers: 1 },
        { name: "subscription to events.onEvent", send: [live], answers: 1 },
        {
          name: "a change that produces events",
          act: async () => {
            await h.caller(staff).transcripts.save({ audioId: audio._id, text: "Habari ya asubuhi." });
            await h.deps.events.idle();
          },
          answers: 2,
        },
        { name: "subscription.stop", send: [{ id: 1, method: "subscription.stop" }], answers: 1 },
      ],
      pair,
    );
    // Resuming after the change's first event replays the rest of it from the table.
    const resumeAfter = trackingId(first[2]!.theirs[0]);
    const rest = await play(
      [
        {
          name: "a subscription resuming with lastEventId",
          send: [
            { id: 2, method: "subscription", params: { path: "events.onEvent", input: {}, lastEventId: resumeAfter } },
          ],
          answers: 2,
        },
        { name: "its subscription.stop", send: [{ id: 2, method: "subscription.stop" }], answers: 1 },
        { name: "a malformed frame", send: ["{not json"], answers: 1 },
        {
          name: "an unknown procedure",
          send: [{ id: 3, method: "subscription", params: { path: "events.noSuchThing", input: {} } }],
          answers: 1,
        },
        {
          name: "a query over the socket (JSON-RPC 2.0)",
          send: [{ id: 4, jsonrpc: "2.0", method: "query", params: { path: "accounts.me" } }],
          answers: 1,
        },
        { name: "a subscription", send: [{ ...live, id: 5 }], answers: 1 },
        { name: "a duplicate id", send: [{ ...live, id: 5 }], answers: 1 },
        {
          name: "a bad input",
          send: [{ id: 6, method: "subscription", params: { path: "events.onEvent", input: { lastEventId: "abc" } } }],
          answers: 1,
        },
        { name: "subscription.stop of the first", send: [{ id: 5, method: "subscription.stop" }], answers: 1 },
      ],
      pair,
    );
    const transcript = [...first.slice(0, -1), ...rest];

    for (const step of transcript) expect(step.ours, step.step).toEqual(step.theirs);
    // What tRPC answers (and so the protocol docs/rest.md documents), so that the test cannot pass on
    // two empty transcripts.
    expect(transcript.map((step) => [step.step, step.theirs.map(kindOf)])).toEqual([
      ["PING", ["PONG"]],
      ["subscription to events.onEvent", ["1 started"]],
      ["a change that produces events", ["1 data", "1 data"]],
      ["subscription.stop", ["1 stopped"]],
      ["a subscription resuming with lastEventId", ["2 started", "2 data"]],
      ["its subscription.stop", ["2 stopped"]],
      ["a malformed frame", ["null error BAD_REQUEST"]],
      ["an unknown procedure", ["3 error NOT_FOUND"]],
      ["a query over the socket (JSON-RPC 2.0)", ["4 error METHOD_NOT_SUPPORTED"]],
      ["a subscription", ["5 started"]],
      ["a duplicate id", ["5 error BAD_REQUEST"]],
      ["a bad input", ["6 error BAD_REQUEST"]],
      ["subscription.stop of the first", ["5 stopped"]],
      ["(after the script)", []],
    ]);
    const events = transcript[2]!.theirs.map(
      (frame) => (frame as { result: { data: { data: { kind: string; audioId: string } } } }).result.data.data,
    );
    expect(events.map((e) => [e.kind, e.audioId])).toEqual([
      ["notification.created", audio._id],
      ["audio.changed", audio._id],
    ]);
    // The resumed subscription replays the change's audio.changed from the table.
    expect((transcript[4]!.theirs[1] as { result: unknown }).result).toEqual(
      (transcript[2]!.theirs[1] as { result: unknown }).result,
    );
    expect(transcript[8]!.theirs[0]).toMatchObject({ jsonrpc: "2.0" });
  });

  it("refuses a connection as tRPC does, except that tRPC also refuses each request it read meanwhile, and the close code", async () => {
    const token = await h.token(admin);
    const attempts: Array<Record<string, string> | null> = [
      null,
      {},
      { token: "not-a-token" },
      { token: token.slice(0, -2) },
    ];
    for (const params of attempts) {
      const [tRPC, our] = await Promise.all([rawConnect(theirs, params), rawConnect(ours, params)]);
      // Known difference (not the protocol's shape: a refused connection is closed either way):
      // tRPC answers the subscription sent behind the connectionParams with the same refusal, ours
      // answers the connection's refusal only (id null).
      const connection = tRPC.messages.filter((message) => message.id === null);
      for (const request of tRPC.messages.filter((message) => message.id !== null)) {
        expect(request, JSON.stringify(params)).toMatchObject({
          id: 1,
          error: {
            message: connection[0]?.error?.message,
            data: { code: connection[0]?.error?.data?.code, path: "events.onEvent" },
          },
        });
      }
      // Known difference, on purpose: tRPC closes a refused socket with no code (1005), after
      // which its client reconnects forever with the same token; ours closes an UNAUTHORIZED refusal
      // with 4401, as an open socket whose session ended, so a client can stop (refusalCloseCode).
      expect(our, JSON.stringify(params)).toEqual({
        messages: connection,
        closeCode: SESSION_ENDED_CLOSE_CODE,
      } satisfies RawOutcome);
      expect(tRPC.closeCode, "tRPC closed the refused socket, with no code").toBe(1005);
      expect(connection).toMatchObject([
        { id: null, error: { message: "You must be signed in.", data: { code: "UNAUTHORIZED" } } },
      ]);
    }
  });
});
