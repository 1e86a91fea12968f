import { afterAll, describe, expect, it } from "vitest";
import { assignedAudio, harnessWithUsers, workState } from "./workflow-fixtures";

const { h, admin, staff, other } = await harnessWithUsers();
afterAll(() => h.close());
const third = await h.createUser("Staff");

/** An audio assigned to `staff` with a saved transcript, recommended by `staff` to `other` (procedure). */
async function recommendedToOther() {
  const audio = await assignedAudio(h, admin, staff, { category: "Dementia" });
  await h.caller(staff).transcripts.save({ audioId: audio.id, text: "Habari" });
  await h.caller(staff).recommendations.create({ audioId: audio.id, staffId: other.id });
  return audio;
}

/** `n` audios assigned to `staff`, each recommended to `third` at a distinct time (oldest first); their filenames. */
async function recommendedToThird(n: number): Promise<string[]> {
  const names: string[] = [];
  const base = Date.UTC(2026, 0, 1);
  for (let i = 0; i < n; i++) {
    const audio = await assignedAudio(h, admin, staff);
    const { task } = await workState(h, audio.id);
    await h.deps.db
      .insertInto("recommendations")
      .values({
        taskId: task.id,
        recommendedTo: third.id,
        recommendedBy: staff.id,
        createdAt: new Date(base + i * 1000),
      })
      .execute();
    names.push(audio.filename);
  }
  return names;
}

describe("recommendations.list (SPEC §2.9, §6)", () => {
  it("shows the recipient each recommendation made to them with its task, recipient and approval statuses", async () => {
    const audio = await recommendedToOther();
    const { task } = await workState(h, audio.id);
    await h.deps.db.updateTable("audios").set({ durationSeconds: 3723.4 }).where("id", "=", audio.id).execute();
    const page = await h.caller(other).recommendations.list({});
    expect(page).toEqual({
      items: [
        {
          id: expect.any(String),
          task: {
            id: task.id,
            audioId: audio.id,
            filename: audio.filename,
            category: "Dementia",
            durationSeconds: 3723.4,
            assignedTo: { id: staff.id, username: staff.username },
            translationStatus: task.translationStatus,
            recordingStatus: "In Progress",
            isComplete: false,
          },
          recommendedTo: { id: other.id, username: other.username },
          transcriptStatus: "Pending",
          recordingApprovalStatus: "No translation audio",
        },
      ],
      totalPages: 1,
    });
    expect(await h.caller(other).recommendations.list({ recommendedTo: other.id })).toEqual(page);
  });

  it("shows staff nothing recommended to someone else; another user's list is refused", async () => {
    await recommendedToOther();
    const own = await h.caller(staff).recommendations.list({});
    expect(own.items.every((r) => r.recommendedTo?.id === staff.id)).toBe(true);
    expect(own).toEqual({ items: [], totalPages: 0 });
    await expect(h.caller(staff).recommendations.list({ recommendedTo: other.id })).rejects.toMatchObject({
      code: "FORBIDDEN",
      message: "You may only list your own recommendations.",
    });
    await expect(h.caller(other).recommendations.list({ recommendedTo: admin.id })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
  });

  it("shows admins every recommendation, or one user's, newest first, paginated in pages of 10", async () => {
    const names = await recommendedToThird(23);
    const newestFirst = [...names].reverse();

    const first = await h.caller(third).recommendations.list({});
    expect(first.totalPages).toBe(3);
    expect(first.items.map((r) => r.task.filename)).toEqual(newestFirst.slice(0, 10));
    expect(first.items[0]).toMatchObject({
      recommendedTo: { id: third.id, username: third.username },
      transcriptStatus: "No transcript",
      recordingApprovalStatus: "No translation audio",
      task: { translationStatus: "In Progress", isComplete: false },
    });
    const last = await h.caller(third).recommendations.list({ page: 3 });
    expect(last.items.map((r) => r.task.filename)).toEqual(newestFirst.slice(20));
    expect(await h.caller(third).recommendations.list({ page: 4 })).toEqual({ items: [], totalPages: 3 });
    const five = await h.caller(third).recommendations.list({ page: 2, limit: 5 });
    expect(five.totalPages).toBe(5);
    expect(five.items.map((r) => r.task.filename)).toEqual(newestFirst.slice(5, 10));

    const byAdmin = await h.caller(admin).recommendations.list({ recommendedTo: third.id, limit: 100 });
    expect(byAdmin.items.map((r) => r.task.filename)).toEqual(newestFirst);
    const all = await h.caller(admin).recommendations.list({ limit: 100 });
    const total = await h.deps.db
      .selectFrom("recommendations")
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .executeTakeFirstOrThrow();
    expect(all.items).toHaveLength(Number(total.n));
    expect(new Set(all.items.map((r) => r.recommendedTo?.id))).toEqual(new Set([other.id, third.id]));
    const times = await h.deps.db.selectFrom("recommendations").select(["id", "createdAt"]).execute();
    const at = new Map(times.map((t) => [t.id, t.createdAt.getTime()]));
    const order = all.items.map((r) => at.get(r.id)!);
    expect(order).toEqual([...order].sort((a, b) => b - a));
    expect((await h.caller(admin).recommendations.list({ recommendedTo: staff.id })).items).toEqual([]);
  });

  it("refuses callers without a session, malformed ids and bad pages", async () => {
    await expect(h.caller(null).recommendations.list({})).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect(h.caller(admin).recommendations.list({ recommendedTo: "not-a-uuid" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
    for (const bad of [{ page: 0 }, { limit: 0 }, { limit: 101 }, { page: 1.5 }]) {
      await expect(h.caller(admin).recommendations.list(bad)).rejects.toMatchObject({ code: "BAD_REQUEST" });
    }
  });
});
