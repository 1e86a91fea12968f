import { afterAll, describe, expect, inject, it } from "vitest";
import { sql } from "kysely";
import { explainSubmissionList } from "@tafsiri/db/repositories/submission-list";
import type { SessionUser } from "../src/context";
import { assignedAudio, harnessWithUsers, workState } from "./workflow-fixtures";

const { h, admin, staff, other } = await harnessWithUsers();
afterAll(() => h.close());

/** A new staff member with `n` audios assigned, each with a saved transcript (Pending); their audio ids, oldest first. */
async function staffWithTranscripts(n: number): Promise<{ user: SessionUser; audioIds: string[] }> {
  const user = await h.createUser("Staff");
  const audioIds: string[] = [];
  for (let i = 0; i < n; i++) {
    const audio = await assignedAudio(h, admin, user);
    await h.caller(user).transcripts.save({ audioId: audio.id, text: `transcript ${i}` });
    audioIds.push(audio.id);
  }
  return { user, audioIds };
}

describe("submissions.list (SPEC §2.7, §5)", () => {
  it("shows staff their own submissions with audio, assignee, outputs, statuses and comment count", async () => {
    const audio = await assignedAudio(h, admin, staff, { category: "Dementia" });
    await h.caller(staff).transcripts.save({ audioId: audio.id, text: "Habari ya asubuhi" });
    await h.caller(admin).comments.add({ audioId: audio.id, text: "Looks good" });
    const { task, submission } = await workState(h, audio.id);

    const page = await h.caller(staff).submissions.list({});
    expect(page.items).toEqual([
      {
        id: submission!.id,
        taskId: task.id,
        audioId: audio.id,
        filename: audio.filename,
        category: "Dementia",
        durationSeconds: null,
        staff: { id: staff.id, username: staff.username },
        submissionDate: submission!.submissionDate.toISOString(),
        updatedAt: submission!.updatedAt.toISOString(),
        translationScript: submission!.translationScript,
        recordedAudio: null,
        transcriptStatus: "Pending",
        recordingApprovalStatus: "No translation audio",
        approvalStatus: "Pending",
        recordedBy: null,
        commentCount: 1,
      },
    ]);
    expect(page.totalPages).toBe(1);
    expect(page.counts).toEqual({ needsReview: 1, approved: 0, rejected: 0, all: 1 });
    expect(await h.caller(staff).submissions.list({ userId: staff.id })).toEqual(page);
    // Once the waveform job has decoded the audio, the row carries its duration in seconds.
    await h.deps.db.updateTable("audios").set({ durationSeconds: 3723.4 }).where("id", "=", audio.id).execute();
    expect((await h.caller(staff).submissions.list({})).items[0]).toMatchObject({ durationSeconds: 3723.4 });
  });

  it("never shows staff another staff member's submissions; naming another user is refused", async () => {
    const audio = await assignedAudio(h, admin, other);
    await h.caller(other).transcripts.save({ audioId: audio.id, text: "not yours" });
    const own = await h.caller(staff).submissions.list({ status: "all", limit: 100 });
    expect(own.items.map((s) => s.audioId)).not.toContain(audio.id);
    expect(own.items.every((s) => s.staff?.id === staff.id)).toBe(true);
    for (const userId of [other.id, admin.id]) {
      await expect(h.caller(staff).submissions.list({ userId })).rejects.toMatchObject({
        code: "FORBIDDEN",
        message: "You may only list your own submissions.",
      });
    }
    await expect(h.caller(staff).submissions.list({ userId: "not-an-id" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
  });

  it("shows admins every submission, or one user's, newest change first, 20 per page", async () => {
    const { user, audioIds } = await staffWithTranscripts(22);
    const first = await h.caller(admin).submissions.list({ userId: user.id });
    expect(first.items).toHaveLength(20);
    expect(first.totalPages).toBe(2);
    expect(first.items.map((s) => s.audioId)).toEqual(audioIds.slice(2).reverse());
    const second = await h.caller(admin).submissions.list({ userId: user.id, page: 2 });
    expect(second.items.map((s) => s.audioId)).toEqual(audioIds.slice(0, 2).reverse());
    expect(await h.caller(admin).submissions.list({ userId: user.id, page: 3 })).toMatchObject({
      items: [],
      totalPages: 2,
    });

    // Reviewing an older one moves it to the top.
    await h.caller(admin).transcripts.approve({ audioId: audioIds[0]! });
    const after = await h.caller(admin).submissions.list({ userId: user.id });
    expect(after.items[0]?.audioId).toBe(audioIds[0]);

    const all = await h.caller(admin).submissions.list({ limit: 100 });
    expect(all.counts.all).toBeGreaterThanOrEqual(23);
    expect(all.items[0]?.audioId).toBe(audioIds[0]);
  });

  it("gives a staff member's every page, from either end of their list, as one long page does", async () => {
    // A page past the middle is read from the far end of the staff member's index (pageFromNearerEnd).
    const { user, audioIds } = await staffWithTranscripts(7);
    await h.caller(admin).transcripts.approve({ audioId: audioIds[1]! });
    await h.caller(admin).transcripts.approve({ audioId: audioIds[5]! });
    await h.caller(admin).transcripts.reject({ audioId: audioIds[3]!, reason: "Line 1 is missing" });
    for (const status of ["all", "needsReview", "approved", "rejected"] as const) {
      const whole = await h.caller(user).submissions.list({ status, limit: 100 });
      expect(whole.items.length).toBe(whole.counts[status]);
      for (const limit of [1, 2, 3]) {
        const pages = Math.ceil(whole.items.length / limit);
        const seen: string[] = [];
        for (let page = 1; page <= pages + 1; page++) {
          const out = await h.caller(user).submissions.list({ status, page, limit });
          expect(out.totalPages).toBe(pages);
          seen.push(...out.items.map((s) => s.id));
        }
        expect(seen).toEqual(whole.items.map((s) => s.id));
      }
    }
  });

  it("filters by 'Needs review', Approved and Rejected, with the counts of each filter", async () => {
    const { user, audioIds } = await staffWithTranscripts(4);
    const [approved, rejected, recorded, pending] = audioIds as [string, string, string, string];
    await h.caller(admin).transcripts.approve({ audioId: approved });
    await h.deps.db
      .updateTable("submissions")
      .set({ recordedAudioApprovalStatus: "Approved", approvalStatus: "Approved" })
      .where("taskId", "=", (await workState(h, approved)).task.id)
      .execute();
    await h.caller(admin).transcripts.reject({ audioId: rejected, reason: "Line 2 is missing" });
    await h.caller(admin).transcripts.approve({ audioId: recorded });
    await h.deps.db
      .updateTable("submissions")
      .set({ recordedAudioApprovalStatus: "Pending" })
      .where("taskId", "=", (await workState(h, recorded)).task.id)
      .execute();

    const list = (status: "needsReview" | "approved" | "rejected" | "all") =>
      h.caller(admin).submissions.list({ userId: user.id, status });
    const ids = async (status: "needsReview" | "approved" | "rejected" | "all") =>
      (await list(status)).items.map((s) => s.audioId).sort();
    expect(await ids("needsReview")).toEqual([recorded, pending].sort());
    expect(await ids("approved")).toEqual([approved]);
    expect(await ids("rejected")).toEqual([rejected]);
    expect(await ids("all")).toEqual([...audioIds].sort());
    const counts = { needsReview: 2, approved: 1, rejected: 1, all: 4 };
    expect((await list("rejected")).counts).toEqual(counts);
    expect((await list("needsReview")).counts).toEqual(counts);
    expect((await list("needsReview")).totalPages).toBe(1);
    const rejectedRow = (await list("rejected")).items[0];
    expect(rejectedRow).toMatchObject({ transcriptStatus: "Rejected", approvalStatus: "Rejected", commentCount: 1 });
  });

  it("answers an empty page and zero counts for a user without submissions", async () => {
    const fresh = await h.createUser("Staff");
    expect(await h.caller(fresh).submissions.list({})).toEqual({
      items: [],
      totalPages: 0,
      counts: { needsReview: 0, approved: 0, rejected: 0, all: 0 },
    });
  });

  it("refuses a bad page, limit or status", async () => {
    await expect(h.caller(admin).submissions.list({ page: 0 })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(h.caller(admin).submissions.list({ limit: 101 })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(h.caller(admin).submissions.list({ status: "pending" as unknown as "all" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
  });
});

const onPostgres = inject("dbTemplate").kind === "postgres";
if (!onPostgres) {
  console.info(
    "submission-list.test.ts: the index test needs PostgreSQL (PGlite's planner statistics differ); set DATABASE_URL to run it.",
  );
}

describe.skipIf(!onPostgres)("submissions.list on 100,000 audios (PostgreSQL)", () => {
  // 26 s alone; several times that while the rest of the suite runs beside it.
  it("reads each filter's page through its index, not by sorting every submission", { timeout: 360_000 }, async () => {
    const db = h.deps.db;
    await sql`
      insert into audios (filename, category, file_key, mime_type, size_bytes)
      select 'sublist_' || g, 'Control', 'audios/sublist_' || g || '.wav', 'audio/wav', 10
      from generate_series(1, 100000) g`.execute(db);
    await sql`
      insert into tasks (audio_id, assigned_to)
      select a.id, ${staff.id} from audios a where a.filename like 'sublist_%'`.execute(db);
    // One in ten Pending, one in three Approved, the rest Rejected; spread over a year of changes.
    await sql`
      insert into submissions (task_id, created_by, translation_script_approval_status, approval_status, updated_at)
      select t.id, t.assigned_to,
             case when n % 10 = 0 then 'Pending' when n % 3 = 0 then 'Approved' else 'Rejected' end,
             case when n % 10 = 0 then 'Pending' when n % 3 = 0 then 'Approved' else 'Rejected' end,
             now() - (n || ' minutes')::interval
      from (select t.*, row_number() over () as n from tasks t
            join audios a on a.id = t.audio_id where a.filename like 'sublist_%') t`.execute(db);
    await sql`analyze`.execute(db);
    const plan = async (filter: "needsReview" | "approved" | "rejected" | "all") =>
      (await explainSubmissionList(db, { filter, page: 1, limit: 20 })).join("\n");
    // The page walks an index in the list's order: the partial index for the selective 'Needs
    // review', the order's own index (or the status index) for the others.
    const indexWalk =
      /Index (Only )?Scan Backward using (submissions_updated_at_id_idx|submissions_approval_status_idx)/;
    expect(await plan("needsReview")).toMatch(/Index (Only )?Scan Backward using submissions_needs_review_idx/);
    expect(await plan("all")).toMatch(/Index (Only )?Scan Backward using submissions_updated_at_id_idx/);
    expect(await plan("approved")).toMatch(indexWalk);
    expect(await plan("rejected")).toMatch(indexWalk);
    const page = await h.caller(admin).submissions.list({ status: "needsReview" });
    expect(page.items).toHaveLength(20);
    expect(page.items.every((s) => s.transcriptStatus === "Pending" || s.recordingApprovalStatus === "Pending")).toBe(
      true,
    );
    expect(page.counts.needsReview).toBeGreaterThanOrEqual(10_000);
  });
});
