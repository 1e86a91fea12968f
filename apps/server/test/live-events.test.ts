import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { createTRPCClient, createWSClient, wsLink } from "@trpc/client";
import type { AppRouter } from "@tafsiri/api";
import { TEST_PASSWORD } from "@tafsiri/api/testing/harness";
import type { SessionUser } from "@tafsiri/api";
import { createAppHarness, fixture, uploadAudio, type AppHarness } from "./fixtures/app-harness";
import { liveClient, listen, rawConnect, waitUntil, type LiveClient } from "./fixtures/live-client";

let h: AppHarness;
let baseUrl: string;
let admin: SessionUser;
let staff: SessionUser;
let other: SessionUser;
const clients: LiveClient[] = [];
let uploads = 0;

beforeAll(async () => {
  h = await createAppHarness();
  baseUrl = await listen(h.app);
  admin = await h.createUser("Admin");
  staff = await h.createUser("Staff");
  other = await h.createUser("Staff");
});
afterAll(async () => {
  for (const c of clients) await c.close();
  await h.close();
});

/** A live client signed in as `user`, subscribed to events.onEvent (resolves once the server has started it). */
async function subscribed(user: SessionUser): Promise<LiveClient> {
  const client = liveClient(baseUrl, await h.token(user));
  clients.push(client);
  await h.deps.events.idle(); // earlier changes are out before this subscription starts
  await client.subscribe();
  return client;
}

/** Uploads an audio through REST as the admin and assigns it to `assignee` over tRPC HTTP. */
async function assignedAudio(assignee: SessionUser): Promise<{ id: string; filename: string }> {
  uploads += 1;
  const audio = await uploadAudio(h, await h.token(admin), {
    name: `live_${uploads}_${Date.now()}.wav`,
    content: await fixture("hello.wav"),
    type: "audio/wav",
  });
  await h.caller(admin).tasks.assign({ audioId: audio._id, staffId: assignee.id });
  return { id: audio._id, filename: audio.filename };
}

describe("events.onEvent over WebSocket (decisions 004 and 005)", () => {
  it("brings the admin the staff member's new-transcript notification within 2 s", async () => {
    const audio = await assignedAudio(staff);
    const adminLive = await subscribed(admin);
    const staffLive = liveClient(baseUrl, await h.token(staff));
    clients.push(staffLive);

    await staffLive.trpc.transcripts.save.mutate({ audioId: audio.id, text: "Habari ya asubuhi" });
    const saved = Date.now();
    await waitUntil(() => adminLive.ofKind("notification.created").length === 1, "the admin's notification", 2_000);
    expect(Date.now() - saved).toBeLessThan(2_000);

    const [event] = adminLive.ofKind("notification.created");
    const row = await h.deps.db
      .selectFrom("notifications")
      .selectAll()
      .where("recipientId", "=", admin.id)
      .where("audioId", "=", audio.id)
      .executeTakeFirstOrThrow();
    expect(event).toMatchObject({
      kind: "notification.created",
      audioId: audio.id,
      notification: {
        id: row.id,
        message: `${staff.username} uploaded a new transcript for ${audio.filename}`,
        link: "/audiomanagement/trascript",
        audioId: audio.id,
        audioAvailable: true,
        isRead: false,
      },
    });
    expect(new Date(event!.at).getTime()).toBeGreaterThan(0);
    // The task card's view learns of the change too.
    await waitUntil(
      () => adminLive.ofKind("audio.changed").some((e) => e.audioId === audio.id),
      "the admin's audio.changed",
    );
  });

  it("after a dropped socket, delivers exactly the three missed notifications, in order, once each", async () => {
    const audio = await assignedAudio(staff);
    const adminLive = await subscribed(admin);
    const staffCaller = h.caller(staff);

    await staffCaller.transcripts.save({ audioId: audio.id, text: "before the drop" });
    await waitUntil(() => adminLive.ofKind("notification.created").length === 1, "the first notification");

    await adminLive.drop();
    await staffCaller.transcripts.save({ audioId: audio.id, text: "missed one" });
    await h.caller(admin).transcripts.reject({ audioId: audio.id });
    await staffCaller.transcripts.save({ audioId: audio.id, text: "missed three" });
    await h.deps.events.idle();
    expect(adminLive.ofKind("notification.created")).toHaveLength(1);

    adminLive.reconnect();
    await waitUntil(() => adminLive.ofKind("notification.created").length >= 4, "the missed notifications");
    await new Promise((resolve) => setTimeout(resolve, 300)); // anything duplicated would arrive by now
    expect(adminLive.ofKind("notification.created").map((e) => e.notification?.message)).toEqual([
      `${staff.username} uploaded a new transcript for ${audio.filename}`,
      `${staff.username} updated the transcript for ${audio.filename}`,
      `${admin.username} rejected the transcript for ${audio.filename}`,
      `${staff.username} updated the transcript for ${audio.filename}`,
    ]);
    const ids = adminLive.events.map((e) => BigInt(e.id));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.every((id, i) => i === 0 || id > ids[i - 1]!)).toBe(true);
    expect(adminLive.closeCodes.length).toBeGreaterThanOrEqual(1);
    expect(adminLive.errors).toEqual([]);
  });

  it("never tells a staff member about another staff member's audio", async () => {
    const mine = await assignedAudio(staff);
    const theirs = await assignedAudio(other);
    const adminLive = await subscribed(admin);
    const staffLive = await subscribed(staff);
    const otherLive = await subscribed(other);

    await h.caller(staff).transcripts.save({ audioId: mine.id, text: "mine" });
    await h.caller(admin).transcripts.approve({ audioId: mine.id });
    await h.caller(other).transcripts.save({ audioId: theirs.id, text: "theirs" });

    // Events arrive in id order on each socket: once each has the last change it may see, it
    // would already hold any event about the other audio.
    await waitUntil(() => otherLive.events.some((e) => e.audioId === theirs.id), "the other staff member's own change");
    await waitUntil(
      () => staffLive.events.filter((e) => e.audioId === mine.id).length === 3,
      "the staff member's own changes",
    );
    await waitUntil(
      () => adminLive.events.some((e) => e.audioId === theirs.id && e.kind === "notification.created"),
      "the admin's last notification",
    );

    expect(otherLive.events.filter((e) => e.audioId === mine.id)).toEqual([]);
    expect(staffLive.events.filter((e) => e.audioId === theirs.id)).toEqual([]);
    // The approval also notifies the assignee (beyond SPEC §4's notifications to admins).
    expect(staffLive.events.map((e) => e.kind)).toEqual(["audio.changed", "notification.created", "audio.changed"]);
    expect(adminLive.events.filter((e) => e.audioId === mine.id).map((e) => e.kind)).toEqual([
      "notification.created",
      "audio.changed",
      "notification.created",
      "audio.changed",
    ]);
  });

  it("closes a deactivated user's subscription and socket at once and refuses them from then on", async () => {
    const target = await h.createUser("Staff");
    const token = await h.token(target);
    const targetLive = await subscribed(target);

    const res = await h.call("POST", "/api/update-status", await h.token(admin), {
      userId: target.id,
      status: "deactivate",
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      status: "success",
      success: true,
      message: `Account for ${target.username} has been deactivated.`,
    });

    await waitUntil(() => targetLive.errors.length > 0, "the subscription's end");
    expect(targetLive.ofKind("user.deactivated")).toHaveLength(1);
    expect(targetLive.errors).toEqual([{ code: "UNAUTHORIZED", message: "Your account has been deactivated." }]);
    await waitUntil(() => targetLive.closeCodes.includes(4403), "the socket's close");

    const refused = await rawConnect(baseUrl, { token });
    expect(refused.messages[0]).toMatchObject({
      id: null,
      error: { message: "You must be signed in.", data: { code: "UNAUTHORIZED" } },
    });
    expect(refused.closeCode).not.toBeNull();

    // Reactivated, the old token stays refused (decision 012); a new one opens a subscription.
    await h.call("POST", "/api/update-status", await h.token(admin), { userId: target.id, status: "activate" });
    const stillRefused = await rawConnect(baseUrl, { token });
    expect(stillRefused.messages[0]).toMatchObject({ id: null, error: { message: "You must be signed in." } });
    const accepted = await rawConnect(baseUrl, { token: await h.token(target) }, 500);
    expect(accepted.messages).toEqual([{ id: 1, result: { type: "started" } }]);
    expect(accepted.closeCode).toBeNull();
  });

  it("refuses a connection without a token or with a bad one", async () => {
    const attempts: Array<Record<string, string> | null> = [
      null,
      {},
      { token: "not-a-token" },
      { token: (await h.token(admin)).slice(0, -2) },
    ];
    for (const params of attempts) {
      const outcome = await rawConnect(baseUrl, params);
      // Only refusals come back (the connection's, and the subscription's when it was read first), then the close.
      expect(outcome.messages.length, JSON.stringify(params)).toBeGreaterThan(0);
      for (const message of outcome.messages) {
        expect(message).toMatchObject({ error: { message: "You must be signed in.", data: { code: "UNAUTHORIZED" } } });
      }
      expect(outcome.closeCode).not.toBeNull();
    }
  });
});

describe("the WebSocket serves subscriptions only", () => {
  it("refuses a sign-in or any other query or mutation sent over the socket, so the HTTP sign-in limit cannot be bypassed", async () => {
    const wsClient = createWSClient({
      url: `${baseUrl.replace(/^http/, "ws")}/trpc`,
      connectionParams: { token: await h.token(admin) },
      WebSocket: WebSocket as unknown as typeof globalThis.WebSocket,
    });
    const overSocket = createTRPCClient<AppRouter>({ links: [wsLink<AppRouter>({ client: wsClient })] });
    try {
      await expect(
        overSocket.accounts.login.mutate({ email: admin.email, password: TEST_PASSWORD }),
      ).rejects.toMatchObject({
        data: { code: "METHOD_NOT_SUPPORTED" },
      });
      await expect(overSocket.accounts.me.query()).rejects.toMatchObject({ data: { code: "METHOD_NOT_SUPPORTED" } });
    } finally {
      wsClient.close();
    }
  });
});

describe("POST /api/update-status (SPEC §7.1, ARCHITECTURE)", () => {
  it("answers 400 without a user id or with another status, 401 anonymous, 403 for staff, changing nothing", async () => {
    const target = await h.createUser("Staff");
    const adminToken = await h.token(admin);
    const cases: Array<[string | null, unknown, number, string]> = [
      [adminToken, { status: "deactivate" }, 400, "A user id is required."],
      [adminToken, { userId: target.id, status: "pause" }, 400, "Status must be activate or deactivate."],
      [adminToken, { userId: admin.id, status: "deactivate" }, 400, "You cannot deactivate your own account."],
      [adminToken, { userId: "00000000-0000-4000-8000-000000000000", status: "deactivate" }, 404, "User not found."],
      [null, { userId: target.id, status: "deactivate" }, 401, "You must be signed in."],
      [await h.token(staff), { userId: target.id, status: "deactivate" }, 403, "Only administrators may do this."],
    ];
    for (const [token, body, code, message] of cases) {
      const res = await h.call("POST", "/api/update-status", token, body);
      expect(res.statusCode, res.body).toBe(code);
      expect(res.json()).toEqual({ status: "failed", success: false, message });
    }
    const rows = await h.deps.db
      .selectFrom("users")
      .select("active")
      .where("id", "in", [target.id, admin.id])
      .execute();
    expect(rows.every((r) => r.active)).toBe(true);
  });
});
