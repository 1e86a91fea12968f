import { afterAll, describe, expect, it } from "vitest";
import { appWithUsers, assignOverRest, failed, fixture, uploadAudio } from "./fixtures/app-harness";

const { h, admin, staffA, staffB, adminToken, tokenA, tokenB } = await appWithUsers();
afterAll(() => h.close());

const NO_ACCESS = failed("You do not have access to this audio.");
const FEEDBACK = "/audiomanagement/feedback";

/** Uploads an audio, assigns it to staffA; returns the audio's id and filename and the task's id. */
async function assignedTask(name: string): Promise<{ audioId: string; filename: string; taskId: string }> {
  const audio = await uploadAudio(h, adminToken, { name: `${name}.wav`, content: await fixture("hello.wav") });
  const taskId = await assignOverRest(h, adminToken, audio._id, staffA);
  return { audioId: audio._id, filename: audio.filename, taskId };
}

/** Creates the task's submission over REST as staffA; returns its _id. */
async function createdSubmission(taskId: string): Promise<string> {
  const res = await h.call("POST", "/api/createsubmissions", tokenA, { task_id: taskId, by: staffA.id });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ submission: { _id: string } }>().submission._id;
}

/** Rows in comments and submissions: what a refused request must not change. */
async function counts() {
  const db = h.deps.db;
  const count = async (table: "comments" | "submissions") =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<string>().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return { comments: await count("comments"), submissions: await count("submissions") };
}

describe("GET /api/checksubmissions/{taskId}", () => {
  it("answers exists false and a null submission until the task has one, then the submission", async () => {
    const { taskId } = await assignedTask("check_me");
    const none = await h.call("GET", `/api/checksubmissions/${taskId}`, tokenA);
    expect(none.statusCode, none.body).toBe(200);
    expect(none.json()).toEqual({ exists: false, submission: null });
    const id = await createdSubmission(taskId);
    const some = await h.call("GET", `/api/checksubmissions/${taskId}`, adminToken);
    expect(some.json()).toMatchObject({ exists: true, submission: { _id: id, task_id: taskId, comments: [] } });
  });

  it("refuses other staff, unknown and malformed ids and calls without a token", async () => {
    const { taskId } = await assignedTask("check_hostile");
    const outsider = await h.call("GET", `/api/checksubmissions/${taskId}`, tokenB);
    expect(outsider.statusCode).toBe(403);
    expect(outsider.json()).toEqual(NO_ACCESS);
    const unknown = await h.call("GET", `/api/checksubmissions/${crypto.randomUUID()}`, adminToken);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual(failed("Task not found."));
    const malformed = await h.call("GET", "/api/checksubmissions/not-an-id", adminToken);
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual(failed("Unknown id."));
    expect((await h.call("GET", `/api/checksubmissions/${taskId}`, null)).statusCode).toBe(401);
  });
});

describe("POST /api/createsubmissions", () => {
  it("creates the task's one submission as the caller, whatever `by` says, with the first comment", async () => {
    const { taskId, filename, audioId } = await assignedTask("create_me");
    const res = await h.call("POST", "/api/createsubmissions", tokenA, {
      task_id: taskId,
      by: staffB.id,
      comments: "  Started on the translation.  ",
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<{ submission: { _id: string } }>();
    expect(body).toEqual({
      status: "success",
      success: true,
      submission: {
        _id: expect.any(String),
        task_id: taskId,
        submission_date: expect.any(String),
        translation_script: null,
        recorded_audio: null,
        translation_script_approval_status: "No transcript",
        recorded_audio_approval_status: "No translation audio",
        approval_status: "Pending",
        recordedBy: null,
        comments: [
          {
            _id: expect.any(String),
            text: "Started on the translation.",
            postedBy: { _id: staffA.id, username: staffA.username },
            postedAt: expect.any(String),
          },
        ],
      },
    });
    const row = await h.deps.db
      .selectFrom("submissions")
      .select(["createdBy"])
      .where("id", "=", body.submission._id)
      .executeTakeFirstOrThrow();
    expect(row.createdBy).toBe(staffA.id);
    const bell = await h.call("GET", `/api/fetchnotifications/${admin.id}`, adminToken);
    expect(bell.json<Array<{ message: string; link: string; audioId: string }>>()).toContainEqual(
      expect.objectContaining({ message: `${staffA.username} commented on ${filename}`, link: FEEDBACK, audioId }),
    );

    const again = await h.call("POST", "/api/createsubmissions", adminToken, { task_id: taskId, by: admin.id });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toEqual(body);
  });

  it("refuses other staff, unknown and malformed tasks, over-long comments and calls without a token", async () => {
    const { taskId } = await assignedTask("create_hostile");
    const before = await counts();
    const outsider = await h.call("POST", "/api/createsubmissions", tokenB, { task_id: taskId, by: staffA.id });
    expect(outsider.statusCode).toBe(403);
    expect(outsider.json()).toEqual(NO_ACCESS);
    const unknown = await h.call("POST", "/api/createsubmissions", adminToken, { task_id: crypto.randomUUID() });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual(failed("Task not found."));
    const malformed = await h.call("POST", "/api/createsubmissions", adminToken, { task_id: "42" });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual(failed("Unknown id."));
    const missing = await h.call("POST", "/api/createsubmissions", adminToken, {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual(failed("Unknown id."));
    const tooLong = await h.call("POST", "/api/createsubmissions", tokenA, {
      task_id: taskId,
      comments: "x".repeat(5001),
    });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json()).toEqual(failed("Comment is too long (at most 5,000 characters)."));
    const anonymous = await h.call("POST", "/api/createsubmissions", null, { task_id: taskId });
    expect(anonymous.statusCode).toBe(401);
    expect(await counts()).toEqual(before);
  });
});

describe("GET /api/submissions/{id}", () => {
  it("answers the submission with its comments and the transcript's storage key", async () => {
    const { taskId, audioId } = await assignedTask("read_me");
    const id = await createdSubmission(taskId);
    await h.caller(staffA).transcripts.save({ audioId, text: "Habari" });
    await h.caller(admin).comments.add({ audioId, text: "Please check the second sentence." });
    const res = await h.call("GET", `/api/submissions/${id}`, tokenA);
    expect(res.statusCode, res.body).toBe(200);
    const { submission } = res.json<{ submission: { translation_script: string } }>();
    expect(submission).toEqual({
      _id: id,
      task_id: taskId,
      submission_date: expect.any(String),
      translation_script: expect.stringMatching(/_TRANSLATEDTRANSCRIPT_.*\.cha$/),
      recorded_audio: null,
      translation_script_approval_status: "Pending",
      recorded_audio_approval_status: "No translation audio",
      approval_status: "Pending",
      recordedBy: null,
      comments: [
        {
          _id: expect.any(String),
          text: "Please check the second sentence.",
          postedBy: { _id: admin.id, username: admin.username },
          postedAt: expect.any(String),
        },
      ],
    });
    const link = await h.call("POST", "/api/fetch-files", tokenA, { fileUrl: submission.translation_script });
    expect(link.statusCode, link.body).toBe(200);
    expect((await h.call("GET", `/api/submissions/${id}`, adminToken)).json()).toEqual({ submission });
  });

  it("answers a deleted author's comment with postedBy null", async () => {
    const { taskId } = await assignedTask("read_orphan");
    const id = await createdSubmission(taskId);
    const gone = await h.createUser("Admin");
    const added = await h.call("POST", `/api/submissions/${id}/comments`, await h.token(gone), {
      comments: { text: "Soon gone", postedBy: gone.id },
    });
    expect(added.statusCode, added.body).toBe(200);
    await h.deps.db.deleteFrom("users").where("id", "=", gone.id).execute();
    const res = await h.call("GET", `/api/submissions/${id}`, tokenA);
    expect(res.json<{ submission: { comments: unknown[] } }>().submission.comments).toEqual([
      { _id: expect.any(String), text: "Soon gone", postedBy: null, postedAt: expect.any(String) },
    ]);
  });

  it("refuses other staff, unknown and malformed ids and calls without a token", async () => {
    const { taskId } = await assignedTask("read_hostile");
    const id = await createdSubmission(taskId);
    const outsider = await h.call("GET", `/api/submissions/${id}`, tokenB);
    expect(outsider.statusCode).toBe(403);
    expect(outsider.json()).toEqual(NO_ACCESS);
    const unknown = await h.call("GET", `/api/submissions/${crypto.randomUUID()}`, adminToken);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual(failed("Submission not found."));
    const malformed = await h.call("GET", "/api/submissions/not-an-id", adminToken);
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual(failed("Unknown id."));
    expect((await h.call("GET", `/api/submissions/${id}`, null)).statusCode).toBe(401);
  });
});

describe("POST /api/submissions/{id}/comments", () => {
  it("adds the caller's comment, ignoring postedBy, and notifies the assignee of an admin's comment", async () => {
    const { taskId, filename, audioId } = await assignedTask("comment_me");
    const id = await createdSubmission(taskId);
    const res = await h.call("POST", `/api/submissions/${id}/comments`, adminToken, {
      comments: { text: "  <i>Looks good</i> & done  ", postedBy: staffB.id },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      status: "success",
      success: true,
      message: "Comment added.",
      comment: {
        _id: expect.any(String),
        text: "<i>Looks good</i> & done",
        postedBy: { _id: admin.id, username: admin.username },
        postedAt: expect.any(String),
      },
    });
    const bell = await h.call("GET", `/api/fetchnotifications/${staffA.id}`, tokenA);
    expect(bell.json()).toContainEqual(
      expect.objectContaining({ message: `${admin.username} commented on ${filename}`, link: FEEDBACK, audioId }),
    );
    const bellB = await h.call("GET", `/api/fetchnotifications/${staffB.id}`, tokenB);
    expect(bellB.json<Array<{ audioId: string }>>().filter((n) => n.audioId === audioId)).toEqual([]);

    const byStaff = await h.call("POST", `/api/submissions/${id}/comments`, tokenA, {
      comments: { text: "Thanks", postedBy: admin.id },
    });
    expect(byStaff.json()).toMatchObject({ comment: { postedBy: { _id: staffA.id, username: staffA.username } } });
    const read = await h.call("GET", `/api/submissions/${id}`, tokenA);
    expect(
      read.json<{ submission: { comments: Array<{ text: string; postedBy: { _id: string } }> } }>().submission.comments,
    ).toMatchObject([
      { text: "<i>Looks good</i> & done", postedBy: { _id: admin.id } },
      { text: "Thanks", postedBy: { _id: staffA.id } },
    ]);
  });

  it("refuses blank and over-long text, other staff, unknown and malformed ids and calls without a token", async () => {
    const { taskId } = await assignedTask("comment_hostile");
    const id = await createdSubmission(taskId);
    const before = await counts();
    for (const body of [
      { comments: { text: "  \n\t ", postedBy: staffA.id } },
      { comments: { text: "" } },
      { comments: {} },
      {},
    ]) {
      const res = await h.call("POST", `/api/submissions/${id}/comments`, tokenA, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toEqual(failed("Comment is empty."));
    }
    const tooLong = await h.call("POST", `/api/submissions/${id}/comments`, tokenA, {
      comments: { text: "x".repeat(5001) },
    });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json()).toEqual(failed("Comment is too long (at most 5,000 characters)."));
    const outsider = await h.call("POST", `/api/submissions/${id}/comments`, tokenB, {
      comments: { text: "Let me in", postedBy: staffA.id },
    });
    expect(outsider.statusCode).toBe(403);
    expect(outsider.json()).toEqual(NO_ACCESS);
    const unknown = await h.call("POST", `/api/submissions/${crypto.randomUUID()}/comments`, adminToken, {
      comments: { text: "Hello" },
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual(failed("Submission not found."));
    const malformed = await h.call("POST", "/api/submissions/42/comments", adminToken, { comments: { text: "Hello" } });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual(failed("Unknown id."));
    const anonymous = await h.call("POST", `/api/submissions/${id}/comments`, null, { comments: { text: "Hello" } });
    expect(anonymous.statusCode).toBe(401);
    expect(await counts()).toEqual(before);
  });
});
