import { afterAll, describe, expect, it } from "vitest";
import type { SessionUser } from "@tafsiri/api";
import { appWithUsers, assignOverRest, failed, fixture, uploadAudio } from "./fixtures/app-harness";

const { h, admin, staffA, staffB, adminToken, tokenA, tokenB } = await appWithUsers();
afterAll(() => h.close());

/** Uploads an audio, assigns it to staffA and saves a transcript (admins are notified); returns its id. */
async function audioWithTranscript(filename: string): Promise<string> {
  const audioId = (await uploadAudio(h, adminToken, { name: `${filename}.wav`, content: await fixture("hello.wav") }))
    ._id;
  await assignOverRest(h, adminToken, audioId, staffA);
  await h.caller(staffA).transcripts.save({ audioId, text: "Habari" });
  return audioId;
}

/** The stored notifications of a user: id, is_read. */
async function stored(user: SessionUser) {
  return h.deps.db
    .selectFrom("notifications")
    .select(["id", "isRead"])
    .where("recipientId", "=", user.id)
    .orderBy("id")
    .execute();
}

describe("GET /api/fetchnotifications/{userId}", () => {
  it("answers the caller's notifications in the SPEC §3 shape, newest first", async () => {
    const audioId = await audioWithTranscript("fetch_me");
    const res = await h.call("GET", `/api/fetchnotifications/${admin.id}`, adminToken);
    expect(res.statusCode, res.body).toBe(200);
    const list = res.json<Array<Record<string, unknown>>>();
    expect(list).toEqual([
      {
        _id: expect.any(String),
        message: `${staffA.username} uploaded a new transcript for fetch_me`,
        link: "/audiomanagement/trascript",
        audioId,
        is_read: false,
        created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T.*Z$/),
        audioAvailable: true,
      },
    ]);
    const none = await h.call("GET", `/api/fetchnotifications/${staffA.id}`, tokenA);
    expect(none.statusCode).toBe(200);
    expect(none.json()).toEqual([]);
  });

  it("refuses another user's list (admins included) and anonymous callers", async () => {
    const other = await h.call("GET", `/api/fetchnotifications/${admin.id}`, tokenA);
    expect(other.statusCode).toBe(403);
    expect(other.json()).toEqual(failed("You may only read your own notifications."));
    const byAdmin = await h.call("GET", `/api/fetchnotifications/${staffA.id}`, adminToken);
    expect(byAdmin.statusCode).toBe(403);
    const anonymous = await h.call("GET", `/api/fetchnotifications/${admin.id}`, null);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual(failed("You must be signed in."));
  });
});

describe("PUT /api/markNotificationAsRead/{id}", () => {
  it("marks the recipient's notification read; anyone else gets 404 and nothing changes", async () => {
    await audioWithTranscript("mark_me");
    const [first] = (await h.call("GET", `/api/fetchnotifications/${admin.id}`, adminToken)).json<
      Array<{ _id: string }>
    >();
    const before = await stored(admin);
    for (const token of [tokenA, tokenB]) {
      const res = await h.call("PUT", `/api/markNotificationAsRead/${first!._id}`, token);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(failed("Notification not found."));
    }
    const malformed = await h.call("PUT", "/api/markNotificationAsRead/nope", adminToken);
    expect(malformed.statusCode).toBe(400);
    expect(await stored(admin)).toEqual(before);

    const ok = await h.call("PUT", `/api/markNotificationAsRead/${first!._id}`, adminToken);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ status: "success", success: true, message: "Notification marked as read." });
    const list = (await h.call("GET", `/api/fetchnotifications/${admin.id}`, adminToken)).json<
      Array<{ _id: string; is_read: boolean }>
    >();
    expect(list.find((n) => n._id === first!._id)!.is_read).toBe(true);
  });
});

describe("POST /api/createnotification", () => {
  it("sends to a recipient or to every admin; refuses a forged sender and unknown recipients", async () => {
    const direct = await h.call("POST", "/api/createnotification", tokenA, {
      senderId: staffA.id,
      message: "Can you record this?",
      link: "/Recordings/",
      audioId: null,
      recipientId: staffB.id,
    });
    expect(direct.statusCode, direct.body).toBe(200);
    expect(direct.json()).toEqual({ status: "success", success: true, message: "Notification sent.", count: 1 });
    const inbox = (await h.call("GET", `/api/fetchnotifications/${staffB.id}`, tokenB)).json<
      Array<Record<string, unknown>>
    >();
    expect(inbox).toEqual([
      expect.objectContaining({
        message: "Can you record this?",
        link: "/Recordings/",
        audioId: null,
        is_read: false,
        audioAvailable: false,
      }),
    ]);

    const toAdmins = await h.call("POST", "/api/createnotification", adminToken, {
      senderId: admin.id,
      message: "For admins",
      link: "/",
      toAdmins: true,
    });
    expect(toAdmins.json()).toMatchObject({ status: "success", count: 1 });

    const count = async () =>
      Number(
        (
          await h.deps.db
            .selectFrom("notifications")
            .select((eb) => eb.fn.countAll<string>().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    const forged = await h.call("POST", "/api/createnotification", tokenA, {
      senderId: admin.id,
      message: "x",
      link: "/",
      recipientId: staffB.id,
    });
    expect(forged.statusCode).toBe(403);
    expect(forged.json()).toEqual(failed("You may only send notifications as yourself."));
    const nobody = await h.call("POST", "/api/createnotification", tokenA, {
      senderId: staffA.id,
      message: "x",
      link: "/",
      recipientId: crypto.randomUUID(),
    });
    expect(nobody.statusCode).toBe(400);
    expect(nobody.json()).toEqual(failed("The recipient does not exist."));
    const noRecipient = await h.call("POST", "/api/createnotification", tokenA, {
      senderId: staffA.id,
      message: "x",
      link: "/",
    });
    expect(noRecipient.json()).toEqual(failed("Choose the recipients: toAdmins or recipientId."));
    const outside = await h.call("POST", "/api/createnotification", tokenA, {
      senderId: staffA.id,
      message: "x",
      link: "javascript:alert(1)",
      recipientId: staffB.id,
    });
    expect(outside.statusCode).toBe(400);
    expect(outside.json()).toEqual(failed("The link must be a path inside the app."));
    const badFlag = await h.call("POST", "/api/createnotification", tokenA, {
      senderId: staffA.id,
      message: "x",
      link: "/",
      toAdmins: "yes",
    });
    expect(badFlag.json()).toEqual(failed("toAdmins must be true or false."));
    expect(await count()).toBe(before);
  });
});

describe("older notifications over REST (SPEC §2.3 'Show older')", () => {
  it("pages by cursor: the Link header's rel=next URL gives the next page until the list ends", async () => {
    for (let i = 0; i < 7; i += 1) {
      await h.caller(admin).notifications.create({
        senderId: admin.id,
        message: `page me ${i}`,
        link: "/Audios",
        recipientId: staffB.id,
      });
    }
    const all = (await h.call("GET", `/api/fetchnotifications/${staffB.id}?limit=100`, tokenB)).json<
      Array<{ _id: string }>
    >();
    const seen: string[] = [];
    let url: string | null = `/api/fetchnotifications/${staffB.id}?limit=3`;
    while (url) {
      const res = await h.call("GET", url, tokenB);
      expect(res.statusCode, res.body).toBe(200);
      seen.push(...res.json<Array<{ _id: string }>>().map((n) => n._id));
      const link = res.headers.link as string | undefined;
      url = link ? /^<([^>]+)>; rel="next"$/.exec(link)![1]! : null;
      if (url) expect(url).toMatch(new RegExp(`^/api/fetchnotifications/${staffB.id}\\?limit=3&cursor=[\\w-]+$`));
    }
    expect(seen).toEqual(all.map((n) => n._id));
    expect(seen.length).toBeGreaterThan(6);
  });

  it("answers 400 for a malformed cursor", async () => {
    const res = await h.call("GET", `/api/fetchnotifications/${staffB.id}?cursor=nope`, tokenB);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(failed("The cursor is malformed."));
  });
});

describe("PUT /api/markAllNotificationsAsRead", () => {
  it("marks the caller's unread notifications read and nobody else's", async () => {
    await audioWithTranscript("mark_all");
    const unread = async (user: SessionUser) => (await stored(user)).filter((n) => !n.isRead).length;
    const adminUnread = await unread(admin);
    expect(adminUnread).toBeGreaterThan(0);
    const res = await h.call("PUT", "/api/markAllNotificationsAsRead", tokenB);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      status: "success",
      success: true,
      message: "All notifications marked as read.",
      count: expect.any(Number),
    });
    expect(await unread(staffB)).toBe(0);
    expect(await unread(admin)).toBe(adminUnread);
    const again = await h.call("PUT", "/api/markAllNotificationsAsRead", tokenB);
    expect(again.json()).toMatchObject({ count: 0 });
  });
});
