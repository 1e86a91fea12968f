import { afterAll, describe, expect, it } from "vitest";
import { appWithUsers, assignOverRest, failed, fixture, uploadAudio } from "./fixtures/app-harness";

const { h, staffA, staffB, adminToken, tokenA, tokenB } = await appWithUsers();
afterAll(() => h.close());

interface RestRow {
  _id: string;
  task_id: { _id: string; audio_id: { _id: string; filename: string }; assigned_to: { _id: string } | null };
  translation_script_approval_status: string;
  comments_count: number;
}
interface RestPage {
  submissions: RestRow[];
  pagination: { totalPages: number };
  counts: { needs_review: number; approved: number; rejected: number; all: number };
}

/** An audio assigned to `staff` over REST with a transcript saved by them; its _id and filename. */
async function submitted(name: string, staff: typeof staffA): Promise<{ audioId: string; filename: string }> {
  const audio = await uploadAudio(h, adminToken, { name: `${name}.wav`, content: await fixture("hello.wav") });
  await assignOverRest(h, adminToken, audio._id, staff);
  await h.caller(staff).transcripts.save({ audioId: audio._id, text: `Transcript of ${name}` });
  return { audioId: audio._id, filename: audio.filename };
}

const a1 = await submitted("list_a1", staffA);
const a2 = await submitted("list_a2", staffA);
const b1 = await submitted("list_b1", staffB);
await h.caller(await h.createUser("Admin")).transcripts.reject({ audioId: a1.audioId, reason: "Line 2 is missing" });
// Durations as the waveform job writes them (seconds); b1's file could not be decoded (null).
await h.deps.db
  .updateTable("audios")
  .set({ durationSeconds: 3723.4, waveformStatus: "ready" })
  .where("id", "=", a1.audioId)
  .execute();
await h.deps.db
  .updateTable("audios")
  .set({ durationSeconds: null, waveformStatus: "failed" })
  .where("id", "=", b1.audioId)
  .execute();

async function list(url: string, token: string | null): Promise<RestPage> {
  const res = await h.call("GET", url, token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<RestPage>();
}

describe("GET /api/submissions (SPEC §2.7, §7.1)", () => {
  it("gives admins every submission, newest change first, with its task's audio and assignee", async () => {
    const page = await list("/api/submissions", adminToken);
    expect(page.submissions.map((s) => s.task_id.audio_id._id)).toEqual([a1.audioId, b1.audioId, a2.audioId]);
    expect(page.submissions[0]).toMatchObject({
      task_id: {
        audio_id: { _id: a1.audioId, filename: a1.filename, category: "Control", duration_seconds: 3723.4 },
        assigned_to: { _id: staffA.id },
      },
      translation_script_approval_status: "Rejected",
      approval_status: "Rejected",
      recorded_audio_approval_status: "No translation audio",
      comments_count: 1,
    });
    expect(page.submissions[1]!.task_id.audio_id).toEqual({
      _id: b1.audioId,
      filename: b1.filename,
      category: "Control",
      duration_seconds: null,
    });
    expect(page.pagination).toEqual({ totalPages: 1 });
    expect(page.counts).toEqual({ needs_review: 2, approved: 0, rejected: 1, all: 3 });
  });

  it("gives staff only their own, and filters by status", async () => {
    const own = await list("/api/submissions", tokenB);
    expect(own.submissions.map((s) => s.task_id.audio_id._id)).toEqual([b1.audioId]);
    expect(own.counts).toEqual({ needs_review: 1, approved: 0, rejected: 0, all: 1 });
    const queue = await list("/api/submissions?status=needs_review", adminToken);
    expect(queue.submissions.map((s) => s.task_id.audio_id._id)).toEqual([b1.audioId, a2.audioId]);
    const rejected = await list("/api/submissions?status=rejected&limit=1", tokenA);
    expect(rejected.submissions.map((s) => s.task_id.audio_id._id)).toEqual([a1.audioId]);
  });

  it("pages with page and limit", async () => {
    const second = await list("/api/submissions?page=2&limit=2", adminToken);
    expect(second.submissions.map((s) => s.task_id.audio_id._id)).toEqual([a2.audioId]);
    expect(second.pagination).toEqual({ totalPages: 2 });
    expect((await list("/api/submissions?page=9&limit=2", adminToken)).submissions).toEqual([]);
  });

  it("refuses a bad page, limit or status and a call without a token", async () => {
    for (const [query, message] of [
      ["page=0", "page must be a positive whole number."],
      ["limit=abc", "limit must be a positive whole number."],
      ["status=pending", "status must be one of needs_review, approved, rejected, all."],
    ] as const) {
      const res = await h.call("GET", `/api/submissions?${query}`, adminToken);
      expect(res.statusCode, query).toBe(400);
      expect(res.json()).toEqual(failed(message));
    }
    expect((await h.call("GET", "/api/submissions?limit=101", adminToken)).statusCode).toBe(400);
    const anonymous = await h.call("GET", "/api/submissions", null);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.body).not.toContain(a1.filename);
  });
});

describe("GET /api/usersubmissions/{userId} (SPEC §7.1)", () => {
  it("gives a staff member their own list, and admins anyone's", async () => {
    const own = await list(`/api/usersubmissions/${staffA.id}`, tokenA);
    expect(own.submissions.map((s) => s.task_id.audio_id._id)).toEqual([a1.audioId, a2.audioId]);
    const byAdmin = await list(`/api/usersubmissions/${staffB.id}?status=needs_review`, adminToken);
    expect(byAdmin.submissions.map((s) => s.task_id.audio_id._id)).toEqual([b1.audioId]);
  });

  it("refuses another staff member's list, malformed ids and calls without a token", async () => {
    const other = await h.call("GET", `/api/usersubmissions/${staffA.id}`, tokenB);
    expect(other.statusCode).toBe(403);
    expect(other.json()).toEqual(failed("You may only list your own submissions."));
    expect(other.body).not.toContain(a1.filename);
    const malformed = await h.call("GET", "/api/usersubmissions/not-an-id", adminToken);
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual(failed("Unknown id."));
    const unknown = await list(`/api/usersubmissions/${crypto.randomUUID()}`, adminToken);
    expect(unknown).toEqual({
      submissions: [],
      pagination: { totalPages: 0 },
      counts: { needs_review: 0, approved: 0, rejected: 0, all: 0 },
    });
    expect((await h.call("GET", `/api/usersubmissions/${staffA.id}`, null)).statusCode).toBe(401);
  });
});
