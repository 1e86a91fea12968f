import { afterAll, describe, expect, it } from "vitest";
import { ADMINS_ONLY, SIGN_IN_REQUIRED } from "@tafsiri/api";
import { appWithUsers, assignOverRest, failed, fixture, multipart, uploadAudio } from "../fixtures/app-harness";
import { dbState, leaksInternals, trpcCall } from "../fixtures/hostile-world";

/**
 * Decision 024, attacks on research participants: staff and anonymous callers on every
 * participants path, malformed and unknown ids, oversized CSV files and notes, mass assignment,
 * a consent "PDF" that is not one, and staff reading more of a participant than the brief
 * through the audio they work on. Every refusal answers a clear message and changes nothing.
 */

const { h, admin, adminToken, tokenA, tokenB, staffA } = await appWithUsers({ maxUploadBytes: 64 * 1024 * 1024 });
afterAll(() => h.close());
const PDF = Buffer.from("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n");
const participant = (
  await h.caller(admin).participants.create({
    code: "HX0001",
    group: "Control",
    birthDate: "1948-09-30",
    notes: "Lives with her daughter in Gulu.",
    educationYears: 4,
    scores: [{ instrument: "MMSE", score: 17, takenOn: "2026-01-01" }],
    consentStatus: "restricted",
  })
).participant;
const id = participant.id;
const UNKNOWN = "00000000-0000-4000-8000-0000000000ff";

/** Every participants path with a well-formed request. */
const PATHS: Array<{ method: "GET" | "POST" | "PUT" | "DELETE"; url: string; body?: unknown }> = [
  { method: "GET", url: "/api/participants" },
  { method: "GET", url: "/api/participants/export" },
  { method: "POST", url: "/api/participants/import", body: { csv: "code,group\nHX9,Control\n" } },
  { method: "GET", url: `/api/participants/${id}` },
  { method: "POST", url: "/api/participants", body: { code: "HX0002", group: "Control" } },
  {
    method: "PUT",
    url: `/api/participants/${id}`,
    body: { code: "HX0001", group: "Control", consent_status: "withdrawn" },
  },
  { method: "POST", url: `/api/participants/${id}/consent-document` },
  { method: "GET", url: `/api/participants/${id}/consent-document` },
  { method: "DELETE", url: `/api/participants/${id}/consent-document` },
];

describe("who may call the participants paths", () => {
  it.each(PATHS.map((p) => [`${p.method} ${p.url}`, p] as const))(
    "%s: 401 without a token, 403 for staff, nothing changed",
    async (_name, req) => {
      const before = await dbState(h);
      const anonymous = await h.call(req.method, req.url, null, req.body);
      expect(anonymous.statusCode, anonymous.body).toBe(401);
      expect(anonymous.json()).toEqual(failed(SIGN_IN_REQUIRED));
      const staff = await h.call(req.method, req.url, tokenA, req.body);
      expect(staff.statusCode, staff.body).toBe(403);
      expect(staff.json()).toEqual(failed(ADMINS_ONLY));
      expect(await dbState(h)).toEqual(before);
    },
  );

  it("staff get 403 on every participants procedure over tRPC", async () => {
    for (const [path, input] of [
      ["participants.list", {}],
      ["participants.get", { participantId: id }],
      ["participants.exportCsv", undefined],
      ["participants.balance", undefined],
      ["participants.measures", undefined],
      ["participants.create", { code: "HX0003", group: "Control" }],
      ["participants.importCsv", { csv: "code,group\nHX4,Control\n" }],
    ] as const) {
      const res = await trpcCall(h, tokenA, path, input);
      expect(res.status, `${path}: ${res.body}`).toBe(403);
      expect(res.body).not.toContain("Gulu");
    }
  });
});

describe("ids", () => {
  it.each([
    ["GET", ""],
    ["PUT", ""],
    ["GET", "/consent-document"],
    ["DELETE", "/consent-document"],
  ] as const)(
    "%s /api/participants/{id}%s: 400 'Unknown id.' for a malformed id, 404 for an unknown one",
    async (method, tail) => {
      const body = method === "PUT" ? { code: "HX0001", group: "Control" } : undefined;
      for (const bad of ["not-an-id", "1 OR 1=1", "'; drop table participants; --"]) {
        const res = await h.call(method, `/api/participants/${encodeURIComponent(bad)}${tail}`, adminToken, body);
        expect(res.statusCode, res.body).toBe(400);
        expect(res.json()).toEqual(failed("Unknown id."));
      }
      const res = await h.call(method, `/api/participants/${UNKNOWN}${tail}`, adminToken, body);
      expect(res.statusCode, res.body).toBe(404);
      expect(res.json()).toEqual(failed("Participant not found."));
    },
  );

  it("linking an audio to an unknown participant answers 404 and links nothing", async () => {
    const audio = await uploadAudio(h, adminToken, { name: "hx-link.wav", content: await fixture("hello.wav") });
    const before = await dbState(h);
    const res = await h.call("POST", `/api/audios/${audio._id}/participant`, adminToken, { participant_id: UNKNOWN });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual(failed("Participant not found."));
    const bad = await h.call("POST", `/api/audios/${audio._id}/participant`, adminToken, { participant_id: "x" });
    expect(bad.statusCode).toBe(400);
    expect(await dbState(h)).toEqual(before);
  });
});

describe("oversized and forged input", () => {
  it("a CSV past 2 MB answers 400 with the limit; past the body limit 413; nothing written", async () => {
    const before = await dbState(h);
    const big = `code,group,notes\n${"HY1,Control,".padEnd(2_000_100, "x")}\n`;
    const json = await h.call("POST", "/api/participants/import", adminToken, { csv: big });
    expect(json.statusCode, json.body.slice(0, 200)).toBe(400);
    expect(json.json()).toEqual(failed("The CSV file is larger than 2 MB."));
    const huge = await h.app.inject({
      method: "POST",
      url: "/api/participants/import",
      headers: { authorization: `Bearer ${adminToken}`, "content-type": "text/csv" },
      payload: "x".repeat(7 * 1024 * 1024),
    });
    expect(huge.statusCode).toBe(413);
    expect(huge.json()).toEqual(failed("The request body is too large."));
    const notCsv = await h.call("POST", "/api/participants/import", adminToken, { file: "code,group" });
    expect(notCsv.statusCode).toBe(400);
    expect(notCsv.json()).toEqual(failed("Send the CSV file as text/csv, or as JSON { csv }."));
    expect(await dbState(h)).toEqual(before);
  });

  it("a CSV with many bad rows lists every problem with its line (up to 500), and nothing is written", async () => {
    const before = await dbState(h);
    const rows = Array.from({ length: 600 }, (_, i) => `HZ${i},Nobody`).join("\n");
    const res = await h.call("POST", "/api/participants/import", adminToken, { csv: `code,group\n${rows}\n` });
    expect(res.statusCode).toBe(400);
    const problems = res.json().problems as Array<{ line: number; message: string }>;
    expect(problems).toHaveLength(501);
    expect(problems[0]).toEqual({ line: 2, message: "group: Group must be Control or Dementia." });
    expect(problems[500]).toEqual({ line: 502, message: "… and 100 more problems." });
    expect(leaksInternals(res.body)).toBe(false);
    expect(await dbState(h)).toEqual(before);
  });

  it("notes past 5,000 characters answer 400 and change nothing", async () => {
    const before = await dbState(h);
    const res = await h.call("PUT", `/api/participants/${id}`, adminToken, {
      code: "HX0001",
      group: "Control",
      notes: "n".repeat(5001),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(failed("Notes are at most 5,000 characters."));
    expect(await dbState(h)).toEqual(before);
  });

  it("mass assignment: ids, times, counts and the document key in a body are ignored", async () => {
    const res = await h.call("POST", "/api/participants", adminToken, {
      code: "HM0001",
      group: "Dementia",
      _id: id,
      id,
      created_at: "1999-01-01T00:00:00.000Z",
      updated_at: "1999-01-01T00:00:00.000Z",
      audio_count: 7,
      consent_document_key: "audios/other.wav",
      consentDocumentKey: "audios/other.wav",
      consent_document_name: "forged.pdf",
    });
    expect(res.statusCode, res.body).toBe(201);
    const row = await h.deps.db
      .selectFrom("participants")
      .selectAll()
      .where("code", "=", "HM0001")
      .executeTakeFirstOrThrow();
    expect(row.id).not.toBe(id);
    expect(row.consentDocumentKey).toBeNull();
    expect(row.consentDocumentName).toBeNull();
    expect(row.createdAt.getUTCFullYear()).toBeGreaterThan(2000);
    const trpc = await trpcCall(h, adminToken, "participants.update", {
      participantId: row.id,
      code: "HM0001",
      group: "Dementia",
      consentDocumentKey: "audios/other.wav",
      audioCount: 5,
    });
    expect(trpc.status, trpc.body).toBe(200);
    const after = await h.deps.db
      .selectFrom("participants")
      .selectAll()
      .where("id", "=", row.id)
      .executeTakeFirstOrThrow();
    expect(after.consentDocumentKey).toBeNull();
  });
});

describe("consent documents", () => {
  const post = async (parts: Parameters<typeof multipart>[0]) => {
    const { body, contentType } = await multipart(parts);
    return h.app.inject({
      method: "POST",
      url: `/api/participants/${id}/consent-document`,
      headers: { authorization: `Bearer ${adminToken}`, "content-type": contentType },
      payload: body,
    });
  };

  it("a file named .pdf that is not a PDF answers 415 and stores nothing", async () => {
    const before = await dbState(h);
    for (const content of ["<html><script>alert(1)</script></html>", await fixture("hello.wav")]) {
      const res = await post([["file", { name: "consent.pdf", content, type: "application/pdf" }]]);
      expect(res.statusCode, res.body).toBe(415);
      expect(res.json()).toEqual(failed("The consent document must be a PDF file."));
    }
    expect(await dbState(h)).toEqual(before);
  });

  it("a PDF past 10 MB answers 413; a form without a file 400; nothing stored", async () => {
    const before = await dbState(h);
    const big = Buffer.concat([PDF, Buffer.alloc(10 * 1024 * 1024 + 10, 0x20)]);
    const res = await post([["file", { name: "big.pdf", content: big }]]);
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual(failed("File is too large. The limit is 10 MB."));
    const none = await post([["note", "no file"]]);
    expect(none.statusCode).toBe(400);
    expect(none.json()).toEqual(failed("Please select the consent document (a PDF file)."));
    expect(await dbState(h)).toEqual(before);
  });

  it("a document name with a path is kept as its base name and served as an attachment", async () => {
    const res = await post([["file", { name: "../../etc/<b>consent</b>.pdf", content: PDF }]]);
    expect(res.statusCode, res.body).toBe(200);
    const down = await h.app.inject({
      method: "GET",
      url: `/api/participants/${id}/consent-document`,
      headers: { authorization: `Bearer ${adminToken}` },
    });
    expect(down.statusCode).toBe(200);
    expect(down.headers["content-disposition"]).toBe('attachment; filename="b>.pdf"');
    expect(down.headers["x-content-type-options"]).toBe("nosniff");
  });
});

describe("staff and the audio's participant", () => {
  it("the assignee sees the brief only; another staff member sees nothing", async () => {
    const audio = await uploadAudio(h, adminToken, { name: "hx-staff.wav", content: await fixture("hello.wav") });
    await h.call("POST", `/api/audios/${audio._id}/participant`, adminToken, {
      participant_id: id,
      session_date: "2026-02-01",
    });
    await assignOverRest(h, adminToken, audio._id, staffA);
    const mine = await h.call("GET", `/api/audios/${audio._id}`, tokenA);
    expect(mine.statusCode).toBe(200);
    expect(mine.json().participant).toEqual({ code: "HX0001", group: "Control", age_months_at_recording: 77 * 12 + 4 });
    const trpc = await trpcCall(h, tokenA, "audios.get", { audioId: audio._id });
    expect((trpc.data as { participant: unknown }).participant).toEqual({
      code: "HX0001",
      group: "Control",
      ageMonthsAtRecording: 77 * 12 + 4,
    });
    for (const body of [mine.body, trpc.body]) {
      for (const secret of ["Gulu", "1948-09-30", "restricted", "MMSE", participant.id])
        expect(body).not.toContain(secret);
    }
    const theirs = await h.call("GET", `/api/audios/${audio._id}`, tokenB);
    expect(theirs.statusCode).toBe(403);
    expect(theirs.body).not.toContain("HX0001");
  });
});
