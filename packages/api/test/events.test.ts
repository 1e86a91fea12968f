import { afterAll, describe, expect, it } from "vitest";
import { isTrackedEnvelope } from "@trpc/server";
import { linkToParticipant } from "@tafsiri/db/testing/participants";
import type { SessionUser } from "../src/context";
import { appRouter } from "../src/root";
import type { LiveEvent } from "../src/schemas/events";
import { authenticate } from "../src/services/auth";
import { exportJobsIdle } from "../src/services/exports";
import { createCallerFactory } from "../src/trpc";
import { uploadRecording } from "../src/uploads/store-upload";
import {
  approvedWork,
  assignedAudio,
  harnessWithUsers,
  inactiveUser,
  newAudio,
  recommend,
  tempWav,
} from "./workflow-fixtures";

const { h, admin, staff, other } = await harnessWithUsers();
afterAll(() => h.close());
const admin2 = await h.createUser("Admin");
await inactiveUser(h, "Admin"); // a retired admin: gets no notices

/** Every stored event, oldest first, as (audience, recipient, kind, audio). */
async function eventsSince(afterId: string) {
  const rows = await h.deps.db
    .selectFrom("events")
    .select(["id", "audience", "recipientId", "kind", "audioId", "payload"])
    .where("id", ">", afterId)
    .orderBy("id")
    .execute();
  return rows.map((r) => ({ ...r, id: String(r.id) }));
}

async function latestId(): Promise<string> {
  const row = await h.deps.db
    .selectFrom("events")
    .select((eb) => eb.fn.max("id").as("id"))
    .executeTakeFirstOrThrow();
  return String(row.id ?? 0);
}

/** The event of one yielded value: server-side callers yield the raw tracked envelope [id, data]. */
function eventOf(value: unknown): LiveEvent | undefined {
  return isTrackedEnvelope<LiveEvent>(value) ? value[1] : undefined;
}

/** Reads `count` events from `events.onEvent` as `user` (server-side caller), then stops it. */
async function take(user: SessionUser, count: number, lastEventId?: string | null): Promise<LiveEvent[]> {
  const iterable = await h.caller(user).events.onEvent({ lastEventId });
  const out: LiveEvent[] = [];
  if (count === 0) return out;
  for await (const value of iterable) {
    const event = eventOf(value);
    if (event) out.push(event);
    if (out.length === count) break;
  }
  return out;
}

describe("recordEvent in the workflow's transactions (decision 004)", () => {
  it("writes one 'notification.created' per active admin and 'audio.changed' for admins and the audio's staff", async () => {
    const audio = await assignedAudio(h, admin, staff);
    await recommend(h, audio.id, other, admin);
    const before = await latestId();
    await h.caller(staff).transcripts.save({ audioId: audio.id, text: "Habari" });
    const rows = await eventsSince(before);

    const notices = rows.filter((r) => r.kind === "notification.created");
    expect(notices.map((r) => r.recipientId).sort()).toEqual([admin.id, admin2.id].sort());
    expect(notices.every((r) => r.audience === "user" && r.audioId === audio.id)).toBe(true);
    expect(notices[0]!.payload).toMatchObject({
      message: `${staff.username} uploaded a new transcript for ${audio.filename}`,
      isRead: false,
    });

    const changes = rows.filter((r) => r.kind === "audio.changed");
    expect(changes.map((r) => r.recipientId ?? "admins").sort()).toEqual(["admins", staff.id, other.id].sort());
    // Ids are increasing in commit order.
    expect(rows.map((r) => BigInt(r.id))).toEqual([...rows.map((r) => BigInt(r.id))].sort((a, b) => (a < b ? -1 : 1)));
  });

  it("reaches the previous assignee on reassignment, and everyone who could open a deleted audio", async () => {
    const audio = await assignedAudio(h, admin, staff);
    let before = await latestId();
    await h.caller(admin).tasks.reassign({ audioId: audio.id, staffId: other.id });
    let rows = await eventsSince(before);
    expect(rows.map((r) => `${r.kind}:${r.recipientId ?? "admins"}`).sort()).toEqual(
      [`audio.changed:admins`, `audio.changed:${staff.id}`, `audio.changed:${other.id}`].sort(),
    );

    before = await latestId();
    await h.caller(admin).audios.delete({ audioId: audio.id });
    rows = await eventsSince(before);
    expect(rows.map((r) => `${r.kind}:${r.recipientId ?? "admins"}`).sort()).toEqual(
      [`audio.deleted:admins`, `audio.deleted:${other.id}`].sort(),
    );
  });

  it("records nothing when the change is refused", async () => {
    const audio = await assignedAudio(h, admin, staff);
    await h.caller(staff).transcripts.save({ audioId: audio.id, text: "first" });
    await h.caller(admin).transcripts.approve({ audioId: audio.id });
    const before = await latestId();
    await expect(h.caller(staff).transcripts.save({ audioId: audio.id, text: "late" })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    await expect(h.caller(other).transcripts.save({ audioId: audio.id, text: "not mine" })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    expect(await eventsSince(before)).toEqual([]);
  });
});

describe("events.onEvent (decision 004)", () => {
  it("resumes after lastEventId with exactly the caller's missed events, in order", async () => {
    const audio = await assignedAudio(h, admin, staff);
    const mark = await latestId();
    await h.caller(staff).transcripts.save({ audioId: audio.id, text: "one" });
    await h.caller(staff).transcripts.save({ audioId: audio.id, text: "two" });
    await h.caller(admin).transcripts.approve({ audioId: audio.id });

    const missed = await take(admin, 6, mark);
    expect(missed.map((e) => e.kind)).toEqual([
      "notification.created",
      "audio.changed",
      "notification.created",
      "audio.changed",
      "notification.created",
      "audio.changed",
    ]);
    expect(missed.filter((e) => e.notification).map((e) => e.notification!.message)).toEqual([
      `${staff.username} uploaded a new transcript for ${audio.filename}`,
      `${staff.username} updated the transcript for ${audio.filename}`,
      `${admin.username} approved the transcript for ${audio.filename}`,
    ]);
    expect(missed.every((e) => e.audioId === audio.id)).toBe(true);
    const ids = missed.map((e) => BigInt(e.id));
    expect(ids.every((id, i) => i === 0 || id > ids[i - 1]!)).toBe(true);
    expect(ids[0]! > BigInt(mark)).toBe(true);

    // The staff member's own history: the audio changes, and the approval's notification to the
    // assignee (beyond SPEC §4; the save notifications went to admins).
    const staffMissed = await take(staff, 4, mark);
    expect(staffMissed.map((e) => e.kind)).toEqual([
      "audio.changed",
      "audio.changed",
      "notification.created",
      "audio.changed",
    ]);
    // Another staff member has nothing about this audio.
    const otherRows = await h.deps.db
      .selectFrom("events")
      .select("id")
      .where("recipientId", "=", other.id)
      .where("id", ">", mark)
      .execute();
    expect(otherRows).toEqual([]);
  });

  it("marks a replayed notification whose audio was deleted as no longer available", async () => {
    const audio = await assignedAudio(h, admin, staff);
    const mark = await latestId();
    await h.caller(staff).transcripts.save({ audioId: audio.id, text: "soon gone" });
    await h.caller(admin).audios.delete({ audioId: audio.id });
    const [created] = await take(admin, 1, mark);
    expect(created).toMatchObject({
      kind: "notification.created",
      audioId: audio.id,
      notification: { audioId: audio.id, audioAvailable: false, isRead: false },
    });
  });

  it("delivers live events and ends with UNAUTHORIZED when the caller is deactivated", async () => {
    const target = await h.createUser("Staff");
    const audio = await assignedAudio(h, admin, target);
    await h.deps.events.idle(); // the assignment's own event is out before we subscribe
    const iterable = await h.caller(target).events.onEvent({});
    const iterator = iterable[Symbol.asyncIterator]();
    const first = iterator.next();
    await h.caller(admin).transcripts.save({ audioId: audio.id, text: "by the admin" });
    expect(eventOf((await first).value)).toMatchObject({
      kind: "audio.changed",
      audioId: audio.id,
      notification: null,
    });

    const second = iterator.next();
    await h.caller(admin).accounts.setActive({ userId: target.id, active: false });
    expect(eventOf((await second).value)).toMatchObject({ kind: "user.deactivated", audioId: null });
    await expect(iterator.next()).rejects.toMatchObject({
      code: "UNAUTHORIZED",
      message: "Your account has been deactivated.",
    });
  });

  it("refuses a malformed lastEventId and anonymous callers", async () => {
    await expect(h.caller(admin).events.onEvent({ lastEventId: "12; drop table events" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
    await expect(h.caller(null).events.onEvent({})).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });
});

describe("accounts.setActive (SPEC §2.10)", () => {
  it("deactivates and reactivates an account, with audit entries; the old token stays refused", async () => {
    const target = await h.createUser("Staff");
    const token = await h.token(target);
    const before = await latestId();
    await expect(h.caller(admin).accounts.setActive({ userId: target.id, active: false })).resolves.toEqual({
      message: `Account for ${target.username} has been deactivated.`,
    });
    const row = await h.deps.db
      .selectFrom("users")
      .select("active")
      .where("id", "=", target.id)
      .executeTakeFirstOrThrow();
    expect(row.active).toBe(false);
    expect((await eventsSince(before)).map((r) => [r.kind, r.recipientId])).toEqual([["user.deactivated", target.id]]);
    // Their token no longer opens a session (HTTP or WebSocket).
    expect(await authenticate(h.deps.db, h.deps.jwtSecret, token)).toBeNull();

    const mid = await latestId();
    await h.caller(admin).accounts.setActive({ userId: target.id, active: true });
    expect(
      (await h.deps.db.selectFrom("users").select("active").where("id", "=", target.id).executeTakeFirstOrThrow())
        .active,
    ).toBe(true);
    expect(await eventsSince(mid)).toEqual([]);
    // Reactivation does not revive the tokens issued before (decision 012); a new sign-in works.
    expect(await authenticate(h.deps.db, h.deps.jwtSecret, token)).toBeNull();
    expect(await authenticate(h.deps.db, h.deps.jwtSecret, await h.token(target))).toMatchObject({ id: target.id });
    const audits = await h.deps.db
      .selectFrom("auditLog")
      .select("action")
      .where("entityId", "=", target.id)
      .orderBy("id")
      .execute();
    expect(audits.map((a) => a.action)).toEqual(["deactivate", "activate"]);
  });

  it("refuses staff, an admin deactivating themself and unknown users, changing nothing", async () => {
    const before = await latestId();
    await expect(h.caller(staff).accounts.setActive({ userId: other.id, active: false })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    await expect(h.caller(admin).accounts.setActive({ userId: admin.id, active: false })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: "You cannot deactivate your own account.",
    });
    await expect(
      h.caller(admin).accounts.setActive({ userId: "00000000-0000-4000-8000-000000000000", active: false }),
    ).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: "User not found.",
    });
    const rows = await h.deps.db
      .selectFrom("users")
      .select(["id", "active"])
      .where("id", "in", [other.id, admin.id])
      .execute();
    expect(rows.every((r) => r.active)).toBe(true);
    expect(await eventsSince(before)).toEqual([]);
  });
});

/** How long a change may take to reach an open page here (live.spec.ts allows the browser 2 s). */
const LIVE_WITHIN_MS = 5_000;

/**
 * What a page open for `watcher` hears while `change` runs: subscribes as the page does (live
 * events only, no lastEventId), makes the change, and waits at most LIVE_WITHIN_MS until the events
 * that reached the subscription satisfy `heard`; answers them. They come through the process's
 * event bus: on PGlite only its poke after the commit, on PostgreSQL the NOTIFY as well.
 */
async function liveWhile(
  watcher: SessionUser,
  change: () => Promise<unknown>,
  heard: (events: LiveEvent[]) => boolean,
): Promise<LiveEvent[]> {
  await h.deps.events.idle(); // what earlier changes announced is out before the page opens
  const stop = new AbortController();
  const caller = createCallerFactory(appRouter)({ ...h.deps, user: watcher }, { signal: stop.signal });
  const iterator = (await caller.events.onEvent({}))[Symbol.asyncIterator]();
  const events: LiveEvent[] = [];
  let arrived = () => {};
  const reading = (async () => {
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
      const event = eventOf(next.value);
      if (event) events.push(event);
      arrived();
    }
  })();
  await new Promise((resolve) => setImmediate(resolve)); // subscribed before the change
  try {
    await change();
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new Error(`not heard in ${LIVE_WITHIN_MS} ms; heard ${JSON.stringify(events.map((e) => e.kind))}`));
      }, LIVE_WITHIN_MS);
      arrived = () => {
        if (!heard(events)) return;
        clearTimeout(timer);
        resolve();
      };
      arrived();
    });
    return events;
  } finally {
    stop.abort();
    await reading.catch(() => undefined);
  }
}

/** Whether `events` hold one of `kind` about `audioId`. */
const about = (events: LiveEvent[], kind: LiveEvent["kind"], audioId: string) =>
  events.some((e) => e.kind === kind && e.audioId === audioId);

// The browser specs see these changes reach an open page without a reload, on PGlite only; here
// both databases' passes see each reach its subscriber (decision 004).
describe("what an open page follows live (the browser specs' live steps, decision 004)", () => {
  it("a saved transcript reaches the admins' bell and Submissions (live, review-loop, announcements)", async () => {
    const audio = await assignedAudio(h, admin, staff);
    const message = `${staff.username} uploaded a new transcript for ${audio.filename}`;
    await liveWhile(
      admin,
      () => h.caller(staff).transcripts.save({ audioId: audio.id, text: "Habari" }),
      (events) => about(events, "audio.changed", audio.id) && events.some((e) => e.notification?.message === message),
    );
  });

  it("an approval reaches the assignee's Tasks page and the other admins' screens (live, bulk-review, dashboard)", async () => {
    const audio = await assignedAudio(h, admin, staff);
    await h.caller(staff).transcripts.save({ audioId: audio.id, text: "Habari" });
    await uploadRecording(h.deps, staff, { audioId: audio.id, recordedBy: staff.id, file: await tempWav(h) });
    const approve = () => h.caller(admin2).transcripts.approve({ audioId: audio.id });
    await liveWhile(staff, approve, (events) => about(events, "audio.changed", audio.id));
    const approveRecording = () => h.caller(admin2).recordings.approve({ audioId: audio.id });
    await liveWhile(admin, approveRecording, (events) => about(events, "audio.changed", audio.id));
  });

  it("a recommendation reaches the recipient's bell and Recommended Recordings (recordings, announcements)", async () => {
    const audio = await assignedAudio(h, admin, staff);
    await h.caller(staff).transcripts.save({ audioId: audio.id, text: "Habari" });
    const message = `${staff.username} recommended an audio for recording.`;
    await liveWhile(
      other,
      () => h.caller(staff).recommendations.create({ audioId: audio.id, staffId: other.id }),
      (events) => about(events, "audio.changed", audio.id) && events.some((e) => e.notification?.message === message),
    );
  });

  it("a comment reaches the other side's Feedback screen (feedback, review-loop)", async () => {
    const audio = await assignedAudio(h, admin, staff);
    const fromStaff = () => h.caller(staff).comments.add({ audioId: audio.id, text: "A question." });
    await liveWhile(admin, fromStaff, (events) => about(events, "audio.changed", audio.id));
    const fromAdmin = () => h.caller(admin).comments.add({ audioId: audio.id, text: "An answer." });
    await liveWhile(staff, fromAdmin, (events) => about(events, "audio.changed", audio.id));
  });

  it("an assignment reaches the staff member's Tasks page; a deletion reaches review mode (announcements, review-mode)", async () => {
    const audio = await newAudio(h, admin);
    const assign = () => h.caller(admin).tasks.assign({ audioId: audio.id, staffId: staff.id });
    await liveWhile(staff, assign, (events) => about(events, "audio.changed", audio.id));
    const remove = () => h.caller(admin2).audios.delete({ audioId: audio.id });
    await liveWhile(admin, remove, (events) => about(events, "audio.deleted", audio.id));
  });

  it("an export's start, its end and a consent withdrawal reach the Export page (dataset-export, corpus)", async () => {
    const audio = await approvedWork(h, admin, staff);
    const participant = await linkToParticipant(h.deps.db, audio.id);
    /** The id of the newest 'export.changed' stored. */
    const newestExportEvent = async () =>
      String(
        (
          await h.deps.db
            .selectFrom("events")
            .select((eb) => eb.fn.max("id").as("id"))
            .where("kind", "=", "export.changed")
            .executeTakeFirstOrThrow()
        ).id,
      );
    let finished = "";
    await liveWhile(
      admin2,
      async () => {
        await h.caller(admin).exports.create({ category: "Control" });
        await exportJobsIdle();
        finished = await newestExportEvent();
      },
      // The first says 'running', the last (written as the export became ready) brings 'Download'.
      (events) =>
        events.filter((e) => e.kind === "export.changed").length >= 2 && events.some((e) => e.id === finished),
    );
    const withdraw = () =>
      h.caller(admin).participants.update({
        participantId: participant.id,
        code: participant.code,
        group: "Control",
        consentStatus: "withdrawn",
      });
    const [superseded] = await liveWhile(admin2, withdraw, (events) => events.some((e) => e.kind === "export.changed"));
    expect(superseded!.id).toBe(await newestExportEvent());
  });
});
