import { afterAll, describe, expect, it } from "vitest";
import { appWithUsers, assignOverRest, failed, fixture, uploadAudio } from "./fixtures/app-harness";

const { h, admin, staffA, staffB, adminToken, tokenA, tokenB } = await appWithUsers();
afterAll(() => h.close());

const wav = await fixture("hello.wav");

/** Uploads an audio named `filename` (as `filename.wav`), assigned to `staff` unless null; returns its id. */
async function audio(filename: string, staff: typeof staffA | null, category = "Control"): Promise<string> {
  const id = (await uploadAudio(h, adminToken, { name: `${filename}.wav`, content: wav }, category))._id;
  if (staff) await assignOverRest(h, adminToken, id, staff);
  return id;
}

/** Sets an audio's duration (seconds) as the waveform job would; null marks it undecodable ('failed'). */
async function setDuration(audioId: string, seconds: number | null): Promise<void> {
  await h.deps.db
    .updateTable("audios")
    .set({ durationSeconds: seconds, waveformStatus: seconds === null ? "failed" : "ready" })
    .where("id", "=", audioId)
    .execute();
}

describe("GET /api/search?q= (SPEC §2.3, §5, §7.1)", () => {
  it("answers the matching audios with their task and assignee; staff only their own, admins all", async () => {
    const forA = await audio("Kisa_Alpha", staffA, "Dementia");
    const forB = await audio("old_kisa_alpha", staffB);
    const loose = await audio("kisa_alpha_loose", null);
    await setDuration(forA, 3723.4);
    await setDuration(forB, 245.3);
    await setDuration(loose, null);

    const all = await h.call("GET", "/api/search?q=KISA_ALPHA", adminToken);
    expect(all.statusCode, all.body).toBe(200);
    const body = all.json<Array<{ _id: string; task: { _id: string } | null }>>();
    expect(body).toEqual([
      {
        _id: forA,
        filename: "Kisa_Alpha",
        category: "Dementia",
        duration_seconds: 3723.4,
        task: { _id: expect.any(String), assigned_to: { _id: staffA.id, username: staffA.username } },
      },
      { _id: loose, filename: "kisa_alpha_loose", category: "Control", duration_seconds: null, task: null },
      {
        _id: forB,
        filename: "old_kisa_alpha",
        category: "Control",
        duration_seconds: 245.3,
        task: { _id: expect.any(String), assigned_to: { _id: staffB.id, username: staffB.username } },
      },
    ]);
    const task = await h.call("GET", `/api/tasks/${body[0]!.task!._id}`, adminToken);
    expect(task.json()).toMatchObject({ audio_id: { _id: forA } });

    const a = await h.call("GET", "/api/search?q=kisa", tokenA);
    expect(a.statusCode).toBe(200);
    expect(a.json<Array<{ _id: string }>>().map((r) => r._id)).toEqual([forA]);
    const b = await h.call("GET", "/api/search?q=kisa", tokenB);
    expect(b.json<Array<{ _id: string }>>().map((r) => r._id)).toEqual([forB]);
    const exact = await h.call("GET", "/api/search?q=Kisa_Alpha", tokenB);
    expect(exact.json<Array<{ _id: string }>>().map((r) => r._id)).toEqual([forB]);
  });

  it("answers [] for a blank or missing keyword and reads % and _ literally", async () => {
    await audio("asilimia_50", null);
    for (const url of ["/api/search?q=", "/api/search?q=%20%20", "/api/search"]) {
      const res = await h.call("GET", url, adminToken);
      expect(res.statusCode, url).toBe(200);
      expect(res.json()).toEqual([]);
    }
    expect((await h.call("GET", "/api/search?q=asilimia%2550", adminToken)).json()).toEqual([]);
    expect((await h.call("GET", "/api/search?q=asilimia_5", adminToken)).json()).toHaveLength(1);
    expect((await h.call("GET", "/api/search?q=asilimi__50", adminToken)).json()).toEqual([]);
  });

  it("refuses requests without a session and over-long keywords", async () => {
    const none = await h.call("GET", "/api/search?q=kisa", null);
    expect(none.statusCode).toBe(401);
    expect(none.json()).toEqual(failed("You must be signed in."));
    const long = await h.call("GET", `/api/search?q=${"a".repeat(201)}`, adminToken);
    expect(long.statusCode).toBe(400);
    expect(long.json()).toEqual(failed("Search keyword is too long (200 characters at most)."));
    expect((await h.call("GET", "/api/search?q=a&q=b", adminToken)).statusCode).toBe(400);
  });
});

describe("GET /api/recommendedrecordings and /api/recommendedrecordings/user/{userId} (SPEC §2.9, §7.1)", () => {
  it("answers { recommendedRecordings, pagination } in the spec's shape, scoped by role", async () => {
    const audioId = await audio("pendekezo_moja", staffA);
    await setDuration(audioId, 245.3);
    await h.caller(staffA).transcripts.save({ audioId, text: "Habari" });
    const sent = await h.call("PUT", `/api/recommendaudioforrecording/${audioId}`, tokenA, {
      recommended_to: staffB.id,
    });
    expect(sent.statusCode, sent.body).toBe(200);

    const expected = {
      recommendedRecordings: [
        {
          _id: expect.any(String),
          taskId: {
            _id: expect.any(String),
            audio_id: { _id: audioId, filename: "pendekezo_moja", category: "Control", duration_seconds: 245.3 },
            assigned_to: { _id: staffA.id, username: staffA.username },
            translation_status: expect.any(String),
            recording_status: "In Progress",
            is_complete: false,
          },
          recommended_to: { _id: staffB.id, username: staffB.username },
          submission: {
            translation_script_approval_status: "Pending",
            recorded_audio_approval_status: "No translation audio",
          },
        },
      ],
      pagination: { totalPages: 1 },
    };
    const own = await h.call("GET", "/api/recommendedrecordings?page=1&limit=10", tokenB);
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json()).toEqual(expected);
    expect((await h.call("GET", `/api/recommendedrecordings/user/${staffB.id}`, tokenB)).json()).toEqual(expected);
    expect((await h.call("GET", `/api/recommendedrecordings/user/${staffB.id}`, adminToken)).json()).toEqual(expected);
    expect((await h.call("GET", "/api/recommendedrecordings", adminToken)).json()).toEqual(expected);

    const none = { recommendedRecordings: [], pagination: { totalPages: 0 } };
    expect((await h.call("GET", "/api/recommendedrecordings", tokenA)).json()).toEqual(none);
    expect((await h.call("GET", `/api/recommendedrecordings/user/${staffA.id}`, tokenA)).json()).toEqual(none);
    expect((await h.call("GET", `/api/recommendedrecordings/user/${admin.id}`, adminToken)).json()).toEqual(none);
    const page2 = await h.call("GET", "/api/recommendedrecordings?page=2", tokenB);
    expect(page2.json()).toEqual({ recommendedRecordings: [], pagination: { totalPages: 1 } });
  });

  it("refuses another user's list to staff, requests without a session, malformed ids and bad paging", async () => {
    const other = await h.call("GET", `/api/recommendedrecordings/user/${staffB.id}`, tokenA);
    expect(other.statusCode).toBe(403);
    expect(other.json()).toEqual(failed("You may only list your own recommendations."));

    for (const url of ["/api/recommendedrecordings", `/api/recommendedrecordings/user/${staffA.id}`]) {
      const res = await h.call("GET", url, null);
      expect(res.statusCode, url).toBe(401);
      expect(res.json()).toEqual(failed("You must be signed in."));
    }

    for (const id of ["not-a-uuid", "1", "%20"]) {
      const res = await h.call("GET", `/api/recommendedrecordings/user/${id}`, adminToken);
      expect(res.statusCode, id).toBe(400);
      expect(res.json()).toEqual(failed("Unknown id."));
    }

    for (const query of ["page=0", "page=-1", "page=abc", "limit=0", "limit=1.5", "limit=101", "page=1e3"]) {
      for (const path of ["/api/recommendedrecordings", `/api/recommendedrecordings/user/${staffA.id}`]) {
        const res = await h.call("GET", `${path}?${query}`, tokenA);
        expect(res.statusCode, `${path}?${query}`).toBe(400);
        expect(res.json<{ status: string }>().status).toBe("failed");
      }
    }
  });
});
