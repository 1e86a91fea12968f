/**
 * Pieces of the live-delivery benchmarks (bench/live.ts, bench/scale-out.ts): pacing changes,
 * opening and closing many sockets, recording receipts per (change, subscriber), and seeding a
 * fresh server through its own API with audios assigned to one staff member.
 */
import { performance } from "node:perf_hooks";
import WebSocket from "ws";
import { createTRPCClient, httpLink, type TRPCClient } from "@trpc/client";
import type { AppRouter, LiveEvent } from "@tafsiri/api";
import { subscribe } from "./trpc-subscriber";
import { silentWav } from "./wav";

/** How long a phase may wait for its last delivery after its last send. */
const DELIVERY_TIMEOUT_MS = 30_000;
/** Sockets opened at once while connecting. */
const CONNECT_BATCH = 50;
/** The first admin the server creates at start (ADMIN_* settings); every subscriber signs in as it. */
export const ADMIN = { email: "bench-admin@example.test", username: "benchadmin", password: "Bench#2026-admin" };
/** The staff member seedLiveAudios registers; every change is a transcript this account saves. */
const STAFF = { username: "benchstaff", email: "bench-staff@example.test", password: "Bench#2026-staff" };

/** Resolves after `ms` milliseconds. */
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `done` every 10 ms; throws `what` once `timeoutMs` has passed. */
export async function waitFor(done: () => boolean, what: string, timeoutMs = DELIVERY_TIMEOUT_MS): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!done()) {
    if (performance.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(10);
  }
}

/**
 * Calls `fire(i)` for i = 0..count-1, the i-th at start + i × `intervalMs` (not waiting for
 * earlier ones), then awaits them all; rejects when one of them does.
 */
export async function paced(count: number, intervalMs: number, fire: (i: number) => Promise<void>): Promise<void> {
  const start = performance.now();
  const pending: Array<Promise<void>> = [];
  for (let i = 0; i < count; i++) {
    const wait = start + i * intervalMs - performance.now();
    if (wait > 0) await sleep(wait);
    pending.push(fire(i));
  }
  await Promise.all(pending);
}

/** Opens `count` connections, CONNECT_BATCH at a time; `open(i)` resolves once connection i is ready. */
async function connectAll(count: number, open: (i: number) => Promise<void>): Promise<void> {
  for (let s = 0; s < count; s += CONNECT_BATCH) {
    await Promise.all(Array.from({ length: Math.min(CONNECT_BATCH, count - s) }, (_, i) => open(s + i)));
  }
}

/** Closes the sockets and waits until every one is closed. */
export async function closeAll(sockets: WebSocket[]): Promise<void> {
  const closed = sockets.map((ws) => new Promise((resolve) => ws.once("close", resolve)));
  for (const ws of sockets) ws.close();
  await Promise.all(closed);
}

/** Receipts of one message kind per (change, subscriber): this process's clock and wall-clock time, ms. */
export class Receipts {
  /** performance.now() at receipt; 0 = not received. */
  readonly times: Float64Array;
  /** Date.now() at receipt. */
  readonly wall: Float64Array;
  duplicates = 0;
  constructor(
    readonly changes: number,
    readonly subscribers: number,
  ) {
    this.times = new Float64Array(changes * subscribers);
    this.wall = new Float64Array(changes * subscribers);
  }
  /** Notes the receipt of `change` by `subscriber` now (a second one counts as a duplicate). */
  record(change: number, subscriber: number): void {
    const slot = change * this.subscribers + subscriber;
    if (this.times[slot] !== 0) {
      this.duplicates++;
      return;
    }
    this.times[slot] = performance.now();
    this.wall[slot] = Date.now();
  }
  /** How many receipts changes [from, to) have. */
  count(from: number, to: number): number {
    let n = 0;
    for (let i = from * this.subscribers; i < to * this.subscribers; i++) if (this.times[i] !== 0) n++;
    return n;
  }
  /** Receipt − start[change] over changes [from, to), on this process's clock (`wall`: on the wall clock). */
  latencies(start: Float64Array, from: number, to: number, wall = false): number[] {
    const at = wall ? this.wall : this.times;
    const out: number[] = [];
    for (let i = from * this.subscribers; i < to * this.subscribers; i++) {
      if (this.times[i] !== 0) out.push(at[i]! - start[Math.floor(i / this.subscribers)]!);
    }
    return out;
  }
}

/**
 * `method route` on `baseUrl` with a JSON (or multipart, for FormData) body and the Bearer
 * `token`; resolves to the parsed JSON answer, or throws with the status and message when it is
 * not 2xx.
 */
export async function restJson<T>(
  baseUrl: string,
  method: string,
  route: string,
  token: string | null,
  body: FormData | object,
): Promise<T> {
  const isForm = body instanceof FormData;
  const res = await fetch(`${baseUrl}${route}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(isForm ? {} : { "content-type": "application/json" }),
    },
    body: isForm ? body : JSON.stringify(body),
  });
  const json = (await res.json()) as T & { message?: string };
  if (!res.ok) throw new Error(`${method} ${route} answered ${res.status}: ${json.message ?? ""}`);
  return json;
}

/** Signs in through POST /auth/login; resolves to the token and the user's id. */
async function signIn(baseUrl: string, email: string, password: string): Promise<{ token: string; userId: string }> {
  const out = await restJson<{ token: string; user: { _id: string } }>(baseUrl, "POST", "/auth/login", null, {
    email,
    password,
  });
  return { token: out.token, userId: out.user._id };
}

/** A tRPC client of `baseUrl` over plain HTTP (one request per call) that sends `token` as Bearer. */
export function httpClient(baseUrl: string, token: string): TRPCClient<AppRouter> {
  return createTRPCClient<AppRouter>({
    links: [httpLink({ url: `${baseUrl}/trpc`, headers: { authorization: `Bearer ${token}` } })],
  });
}

/**
 * Through the server's own API: signs the first admin in, registers a staff member
 * (POST /auth/register), uploads `count` small WAV audios (POST /api/audios/upload/AUDIO) and
 * assigns each to the staff member (tRPC tasks.assign), then waits until the waveform job has
 * decoded each (tRPC audios.get: no longer 'pending'). Returns the tokens and the audio ids, in
 * upload order. Throws when the server refuses a step or a waveform stays pending for 30 s.
 */
export async function seedLiveAudios(
  baseUrl: string,
  count: number,
): Promise<{ adminToken: string; staffToken: string; audioIds: string[] }> {
  const admin = await signIn(baseUrl, ADMIN.email, ADMIN.password);
  await restJson(baseUrl, "POST", "/auth/register", admin.token, {
    ...STAFF,
    role: "Staff",
    adminpassword: ADMIN.password,
  });
  const staff = await signIn(baseUrl, STAFF.email, STAFF.password);
  const asAdmin = httpClient(baseUrl, admin.token);
  const wav = silentWav();
  const audioIds: string[] = [];
  for (let i = 0; i < count; i++) {
    const form = new FormData();
    form.append("category", i % 2 === 0 ? "Control" : "Dementia");
    form.append("file", new Blob([wav], { type: "audio/wav" }), `bench_live_${i}.wav`);
    const audio = await restJson<{ _id: string }>(baseUrl, "POST", "/api/audios/upload/AUDIO", admin.token, form);
    await asAdmin.tasks.assign.mutate({ audioId: audio._id, staffId: staff.userId });
    audioIds.push(audio._id);
  }
  // The waveform job announces each decoded upload with an 'audio.changed' of its own: wait for
  // all of them, so none arrives during the measurement and passes for a change's event.
  for (const audioId of audioIds) {
    for (const deadline = performance.now() + DELIVERY_TIMEOUT_MS; ; await sleep(100)) {
      const { status } = (await asAdmin.audios.get.query({ audioId })).waveform;
      if (status !== "pending") break;
      if (performance.now() > deadline) throw new Error(`the waveform of ${audioId} is still pending`);
    }
  }
  return { adminToken: admin.token, staffToken: staff.token, audioIds };
}

/** What subscribeToChanges opened and kept. */
export interface ChangeSubscribers {
  sockets: WebSocket[];
  /** Every text frame subscriber 0 received, as sent (to size a floor's messages by). */
  frames: string[];
  /** Error messages the subscriptions answered after they started. */
  errors: Set<string>;
}

/**
 * Opens `count` subscriptions to `events.onEvent` at `url` (ws://…/trpc) signed in with `token`,
 * CONNECT_BATCH at a time, each resolved once the server answers `started`. For every event about
 * the audio `audioIds[change]`, calls `onReceipt(kind, change, subscriber, atMs)`: kind 0 for
 * 'notification.created', 1 for 'audio.changed' (the transaction's last event), `atMs` the event's
 * `at` in ms since the epoch. Rejects when a subscription is refused.
 */
export async function subscribeToChanges(opts: {
  url: string;
  count: number;
  token: string;
  audioIds: string[];
  onReceipt: (kind: 0 | 1, change: number, subscriber: number, atMs: number) => void;
}): Promise<ChangeSubscribers> {
  const changeOf = new Map(opts.audioIds.map((id, i) => [id, i]));
  const out: ChangeSubscribers = { sockets: [], frames: [], errors: new Set() };
  await connectAll(opts.count, async (s) => {
    const ws = await subscribe<LiveEvent>({
      url: opts.url,
      connectionParams: { token: opts.token },
      path: "events.onEvent",
      input: {},
      onData: ({ data: event }, text) => {
        if (s === 0) out.frames.push(text);
        const change = changeOf.get(event.audioId ?? "");
        if (change === undefined) return;
        if (event.kind === "notification.created") opts.onReceipt(0, change, s, Date.parse(event.at));
        else if (event.kind === "audio.changed") opts.onReceipt(1, change, s, Date.parse(event.at));
      },
      onError: (message) => out.errors.add(message),
    });
    out.sockets.push(ws);
  });
  return out;
}

/** The byte sizes of the frames in `frames` that are about the audio `audioId`, in order. */
export function messageSizesOf(frames: string[], audioId: string): number[] {
  return frames.filter((text) => text.includes(`"audioId":"${audioId}"`)).map((text) => Buffer.byteLength(text));
}

/**
 * Opens `count` plain `ws` clients of a floor server (bench/support/floor-server.ts) at `url`
 * (ws://…/ws), CONNECT_BATCH at a time; for every message calls `onMessage(kind, seq, subscriber,
 * atMs)` with the message's index within its broadcast, the broadcast's seq and its stamp in ms
 * since the epoch. Resolves to the sockets once all are open; rejects when one fails to open.
 */
export async function connectFloorClients(
  url: string,
  count: number,
  onMessage: (kind: number, seq: number, subscriber: number, atMs: number) => void,
): Promise<WebSocket[]> {
  const sockets: WebSocket[] = [];
  await connectAll(
    count,
    (s) =>
      new Promise<void>((resolve, reject) => {
        const ws = new WebSocket(url);
        sockets.push(ws);
        ws.once("open", () => resolve());
        ws.once("error", reject);
        ws.on("message", (data) => {
          const message = JSON.parse(String(data)) as { seq: number; i: number; at: string };
          onMessage(message.i, message.seq, s, Date.parse(message.at));
        });
      }),
  );
  return sockets;
}
