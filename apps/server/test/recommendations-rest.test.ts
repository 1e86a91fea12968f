import { afterAll, describe, expect, it } from "vitest";
import { appWithUsers, assignOverRest, failed, fixture, uploadAudio } from "./fixtures/app-harness";

const { h, admin, staffA, staffB, adminToken, tokenA, tokenB } = await appWithUsers();
afterAll(() => h.close());

/** Uploads an audio and assigns it to staffA; returns its id. */
async function assignedAudio(filename: string): Promise<string> {
  const audioId = (
    await uploadAudio(h, adminToken, { name: `${filename}.wav`, content: await fixture("hello.wav") }, "Dementia")
  )._id;
  await assignOverRest(h, adminToken, audioId, staffA);
  return audioId;
}

async function recommendationCount(): Promise<number> {
  const row = await h.deps.db
    .selectFrom("recommendations")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe("GET /api/hasrecommendation/{audioId}", () => {
  it("answers no entry before a transcript is saved and one entry after", async () => {
    const audioId = await assignedAudio("lookup_me");
    const empty = await h.call("GET", `/api/hasrecommendation/${audioId}`, tokenA);
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toEqual([]);
    await h.caller(staffA).transcripts.save({ audioId, text: "Habari" });
    const one = await h.call("GET", `/api/hasrecommendation/${audioId}`, tokenA);
    expect(one.json()).toEqual([
      {
        _id: expect.any(String),
        task_id: expect.any(String),
        translation_script_approval_status: "Pending",
        submission_date: expect.any(String),
      },
    ]);
    const outsider = await h.call("GET", `/api/hasrecommendation/${audioId}`, tokenB);
    expect(outsider.statusCode).toBe(403);
    expect(outsider.json()).toEqual(failed("You do not have access to this audio."));
    const unknown = await h.call("GET", `/api/hasrecommendation/${crypto.randomUUID()}`, adminToken);
    expect(unknown.statusCode).toBe(404);
    expect((await h.call("GET", `/api/hasrecommendation/${audioId}`, null)).statusCode).toBe(401);
  });
});

describe("PUT /api/recommendaudioforrecording/{audioId}", () => {
  it("refuses until the translation stage is done, then recommends and notifies the recipient", async () => {
    const audioId = await assignedAudio("recommend_me");
    const before = await recommendationCount();
    const early = await h.call("PUT", `/api/recommendaudioforrecording/${audioId}`, tokenA, {
      recommended_to: staffB.id,
    });
    expect(early.statusCode).toBe(400);
    expect(early.json()).toEqual(failed("Translation stage has not been completed."));
    const noStaff = await h.call("PUT", `/api/recommendaudioforrecording/${audioId}`, tokenA, {});
    expect(noStaff.statusCode).toBe(400);
    expect(noStaff.json()).toEqual(failed("Please select a staff member"));
    expect(await recommendationCount()).toBe(before);

    await h.caller(staffA).transcripts.save({ audioId, text: "Habari" });
    const toAssignee = await h.call("PUT", `/api/recommendaudioforrecording/${audioId}`, adminToken, {
      recommended_to: staffA.id,
    });
    expect(toAssignee.json()).toEqual(failed("This audio is already assigned to this staff member."));
    const toAdmin = await h.call("PUT", `/api/recommendaudioforrecording/${audioId}`, tokenA, {
      recommended_to: admin.id,
    });
    expect(toAdmin.json()).toEqual(failed("Please select a staff member"));
    const byOutsider = await h.call("PUT", `/api/recommendaudioforrecording/${audioId}`, tokenB, {
      recommended_to: staffB.id,
    });
    expect(byOutsider.statusCode).toBe(403);
    expect(await recommendationCount()).toBe(before);

    expect((await h.call("GET", `/api/audios/${audioId}`, tokenB)).statusCode).toBe(403);
    const ok = await h.call("PUT", `/api/recommendaudioforrecording/${audioId}`, tokenA, { recommended_to: staffB.id });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toEqual({ status: "success", success: true, message: "Recommendation sent successfully!." });
    expect(await recommendationCount()).toBe(before + 1);

    const inbox = (await h.call("GET", `/api/fetchnotifications/${staffB.id}`, tokenB)).json<
      Array<Record<string, unknown>>
    >();
    expect(inbox[0]).toMatchObject({
      message: `${staffA.username} recommended an audio for recording.`,
      link: "/Recordings/",
      audioId,
      is_read: false,
    });
    expect((await h.call("GET", `/api/audios/${audioId}`, tokenB)).statusCode).toBe(200);

    const again = await h.call("PUT", `/api/recommendaudioforrecording/${audioId}`, tokenA, {
      recommended_to: staffB.id,
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual(failed("This audio has already been recommended to this staff member."));
  });
});
