import { afterAll, describe, expect, it } from "vitest";
import { appWithUsers, assignOverRest, failed, fixture, multipart, uploadAudio } from "./fixtures/app-harness";

/** Decision 024: /api/participants and the audio's participant over REST, on a real app and database. */

const { h, adminToken, tokenA, staffA } = await appWithUsers();
afterAll(() => h.close());
const wav = await fixture("hello.wav");
/** The smallest file file-type takes for a PDF. */
export const PDF = Buffer.from("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n");

const participants = () => h.deps.db.selectFrom("participants").selectAll().orderBy("code").execute();

describe("POST, GET, PUT /api/participants", () => {
  it("records a participant (201, snake_case), ignores fields it does not take, answers it back", async () => {
    const res = await h.call("POST", "/api/participants", adminToken, {
      _id: "00000000-0000-4000-8000-000000000001",
      created_at: "2000-01-01T00:00:00.000Z",
      audio_count: 99,
      consent_document_name: "forged.pdf",
      code: "R0042",
      group: "Dementia",
      sex: "female",
      age_months: 866,
      age_recorded_on: "2026-03-02",
      languages: ["lug"],
      scores: [{ instrument: "MMSE", score: 21, taken_on: "2026-03-02" }],
      consent_status: "given",
    });
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json().participant;
    expect(created).toMatchObject({
      code: "R0042",
      group: "Dementia",
      age_months: 866,
      scores: [{ instrument: "MMSE", score: 21, taken_on: "2026-03-02" }],
      audio_count: 0,
      consent_document_name: null,
    });
    expect(created._id).not.toBe("00000000-0000-4000-8000-000000000001");
    expect(created.created_at).not.toBe("2000-01-01T00:00:00.000Z");

    const got = await h.call("GET", `/api/participants/${created._id}`, adminToken);
    expect(got.json()).toEqual(created);

    const dup = await h.call("POST", "/api/participants", adminToken, { code: "r0042", group: "Control" });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toEqual(failed("A participant with the code r0042 already exists."));

    const put = await h.call("PUT", `/api/participants/${created._id}`, adminToken, {
      code: "R0042",
      group: "Dementia",
      consent_status: "restricted",
      notes: "Seen at home.",
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().participant).toMatchObject({
      consent_status: "restricted",
      notes: "Seen at home.",
      age_months: null,
    });
  });

  it("lists by code with search, filters and pages", async () => {
    for (const code of ["RL-b", "RL-a", "RL-c"]) {
      const res = await h.call("POST", "/api/participants", adminToken, { code, group: "Control" });
      expect(res.statusCode, res.body).toBe(201);
    }
    const res = await h.call("GET", "/api/participants?search=rl-&limit=2&page=1&group=Control", adminToken);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().participants.map((p: { code: string }) => p.code)).toEqual(["RL-a", "RL-b"]);
    expect(res.json()).toMatchObject({ total: 3, pagination: { totalPages: 2 } });
    const bad = await h.call("GET", "/api/participants?group=Elderly", adminToken);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual(failed("Group must be Control or Dementia."));
  });
});

describe("CSV import and export", () => {
  it("refuses a file with a bad row (400, every problem, nothing written), imports it fixed, exports text/csv", async () => {
    const before = await participants();
    const bad = "code,group,consent\nRC-1,Control,given\nRC-2,Nobody,given\nRC-3,Control,later\n";
    const refused = await h.app.inject({
      method: "POST",
      url: "/api/participants/import",
      headers: { authorization: `Bearer ${adminToken}`, "content-type": "text/csv" },
      payload: bad,
    });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json()).toEqual({
      status: "failed",
      success: false,
      message: "The CSV file has 2 problems; nothing was imported.",
      problems: [
        { line: 3, message: "group: Group must be Control or Dementia." },
        { line: 4, message: "consent: Consent must be given, restricted, withdrawn or not_recorded." },
      ],
    });
    expect(await participants()).toEqual(before);

    const ok = await h.call("POST", "/api/participants/import", adminToken, {
      csv: "code,group,consent\nRC-1,Control,given\nRC-2,Dementia,given\nRC-3,Control,restricted\n",
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ created: 3, updated: 0, message: "3 participants created, 0 updated." });

    const exported = await h.call("GET", "/api/participants/export", adminToken);
    expect(exported.statusCode).toBe(200);
    expect(exported.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(exported.headers["content-disposition"]).toContain('attachment; filename="participants.csv"');
    expect(exported.body).toContain("\nRC-2,Dementia,,,,,,,,,,,,,given,\n");
  });
});

describe("consent document", () => {
  it("stores a PDF, serves it as an attachment to admins, removes it", async () => {
    const p = (await h.call("POST", "/api/participants", adminToken, { code: "RD-1", group: "Control" })).json()
      .participant;
    const { body, contentType } = await multipart([["file", { name: "consent RD-1.pdf", content: PDF }]]);
    const url = `/api/participants/${p._id}/consent-document`;
    const auth = { authorization: `Bearer ${adminToken}` };
    const up = await h.app.inject({
      method: "POST",
      url,
      headers: { ...auth, "content-type": contentType },
      payload: body,
    });
    expect(up.statusCode, up.body).toBe(200);
    expect(up.json()).toMatchObject({ consent_document_name: "consent RD-1.pdf" });
    expect((await h.call("GET", `/api/participants/${p._id}`, adminToken)).json().consent_document_name).toBe(
      "consent RD-1.pdf",
    );

    const down = await h.app.inject({ method: "GET", url, headers: auth });
    expect(down.statusCode).toBe(200);
    expect(down.headers["content-type"]).toBe("application/pdf");
    expect(down.headers["content-disposition"]).toBe('attachment; filename="consent RD-1.pdf"');
    expect(down.rawPayload.equals(PDF)).toBe(true);

    const keyBefore = (
      await h.deps.db
        .selectFrom("participants")
        .select("consentDocumentKey")
        .where("id", "=", p._id)
        .executeTakeFirstOrThrow()
    ).consentDocumentKey!;
    expect(await h.deps.storage.exists(keyBefore)).toBe(true);
    const removed = await h.call("DELETE", url, adminToken);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(await h.deps.storage.exists(keyBefore)).toBe(false);
    const gone = await h.call("GET", url, adminToken);
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toEqual(failed("This participant has no consent document."));
  });
});

describe("audios and participants", () => {
  it("uploads an audio for a participant, links and refuses a mismatch, and staff see only the brief", async () => {
    const p = (
      await h.call("POST", "/api/participants", adminToken, {
        code: "RA-1",
        group: "Control",
        birth_date: "1951-04-10",
        notes: "private note",
        consent_status: "given",
      })
    ).json().participant;
    const unknown = await h.upload("AUDIO", adminToken, [
      ["category", "Control"],
      ["participant_code", "RA-404"],
      ["file", { name: "ra-unknown.wav", content: wav }],
    ]);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toEqual(failed("Unknown participant code RA-404."));
    const mismatch = await h.upload("AUDIO", adminToken, [
      ["category", "Dementia"],
      ["participant_code", "ra-1"],
      ["file", { name: "ra-mismatch.wav", content: wav }],
    ]);
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json()).toEqual(
      failed("This audio is labelled Dementia but participant RA-1 is in the Control group."),
    );

    const ok = await h.upload("AUDIO", adminToken, [
      ["category", "Control"],
      ["participant_code", "ra-1"],
      ["session_date", "2026-04-09"],
      ["file", { name: "ra-ok.wav", content: wav }],
    ]);
    expect(ok.statusCode, ok.body).toBe(200);
    const audioId = ok.json()._id as string;
    await assignOverRest(h, adminToken, audioId, staffA);
    const seen = await h.call("GET", `/api/audios/${audioId}`, tokenA);
    expect(seen.json()).toMatchObject({
      participant: { code: "RA-1", group: "Control", age_months_at_recording: 74 * 12 + 11 },
      session_date: "2026-04-09",
    });
    expect(seen.body).not.toContain("private note");
    expect(seen.body).not.toContain("1951-04-10");

    const dementia = await uploadAudio(h, adminToken, { name: "ra-dementia.wav", content: wav }, "Dementia");
    const refused = await h.call("POST", `/api/audios/${dementia._id}/participant`, adminToken, {
      participant_id: p._id,
      session_date: null,
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual(
      failed("This audio is labelled Dementia but participant RA-1 is in the Control group."),
    );
    const unlink = await h.call("POST", `/api/audios/${audioId}/participant`, adminToken, { participant_id: null });
    expect(unlink.statusCode, unlink.body).toBe(200);
    expect(unlink.json()).toMatchObject({
      participant: null,
      session_date: null,
      message: expect.stringMatching(/ is no longer linked to a participant\.$/),
    });
    const relink = await h.call("POST", `/api/audios/${audioId}/participant`, adminToken, {
      participant_id: p._id,
      session_date: "2026-04-11",
    });
    expect(relink.json()).toMatchObject({ participant: { code: "RA-1" }, session_date: "2026-04-11" });
    const list = await h.call("GET", "/api/audios/control?limit=100", adminToken);
    expect(list.json().find((a: { _id: string }) => a._id === audioId)).toMatchObject({
      participant_code: "RA-1",
      session_date: "2026-04-11",
    });
  });
});
