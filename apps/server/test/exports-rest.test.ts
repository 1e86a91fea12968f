import { createHash } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import JSZip from "jszip";
import { exportJobsIdle } from "@tafsiri/api";
import { supersedeExportsOfParticipant } from "../../../packages/api/src/export/supersede";
import { linkToParticipant } from "@tafsiri/db/testing/participants";
import { chatRuleViolations } from "@tafsiri/domain";
import { approvedWork } from "../../../packages/api/test/workflow-fixtures";
import { createAppHarness, failed } from "./fixtures/app-harness";
import { dbState, leaksInternals } from "./fixtures/hostile-world";

// Dataset exports (decision 019): GET and POST /api/exports, as an integrator calls them; every answer is
// checked against the OpenAPI document by the harness.

const h = await createAppHarness();
afterAll(() => h.close());
const admin = await h.createUser("Admin");
const staff = await h.createUser("Staff");
const [adminToken, staffToken] = await Promise.all([h.token(admin), h.token(staff)]);
const finished = await approvedWork(h, admin, staff, { category: "Dementia" });
// Decision 024: only recordings of participants who gave consent are exported.
const participant = await linkToParticipant(h.deps.db, finished.id, { sex: "female", ageMonths: 860 });

interface RestExport {
  _id: string;
  state: string;
  done: number;
  total: number;
  status: string;
  download_url: string | null;
  reused_archive: boolean;
  include_restricted: boolean;
  superseded_at: string | null;
}

describe("POST /api/exports, then GET /api/exports", () => {
  it("starts an export (202), which becomes ready with a link to a zip whose manifest matches its files", async () => {
    const res = await h.call("POST", "/api/exports", adminToken, {
      category: "Dementia",
      status: "completed",
      languages: ["swa"],
      participant_role: "Participant",
      corpus: "rest",
    });
    expect(res.statusCode, res.body).toBe(202);
    const started = res.json<{ status: string; message: string; export: RestExport }>();
    expect(started).toMatchObject({
      status: "success",
      message: "Export started.",
      export: { state: "running", category: "Dementia", status: "completed", languages: ["swa"], corpus: "rest" },
    });
    await exportJobsIdle();

    const list = await h.call("GET", "/api/exports?page=1&limit=5", adminToken);
    expect(list.statusCode, list.body).toBe(200);
    const page = list.json<{ exports: RestExport[]; pagination: { totalPages: number } }>();
    expect(page.pagination.totalPages).toBe(1);
    const ready = page.exports.find((e) => e._id === started.export._id)!;
    expect(ready).toMatchObject({ state: "ready", done: 1, total: 1, reused_archive: false });

    // The link needs no Authorization header and names the file.
    const zipRes = await h.app.inject({ method: "GET", url: ready.download_url! });
    expect(zipRes.statusCode).toBe(200);
    expect(zipRes.headers["content-type"]).toBe("application/zip");
    expect(zipRes.headers["content-disposition"]).toMatch(
      /^attachment; filename="tafsiri-export-\d{4}-\d\d-\d\d\.zip"$/,
    );
    const zip = await JSZip.loadAsync(zipRes.rawPayload);
    const rows = (await zip.file("manifest.jsonl")!.async("string"))
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, string | number | null>);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ audio_id: finished.id, filename: finished.filename, category: "Dementia" });
    for (const kind of ["audio", "transcript", "recording"]) {
      const bytes = await zip.file(rows[0]![`${kind}_file`] as string)!.async("nodebuffer");
      expect(rows[0]![`${kind}_sha256`]).toBe(createHash("sha256").update(bytes).digest("hex"));
    }
    const cha = await zip.file(rows[0]!.transcript_file as string)!.async("string");
    expect(chatRuleViolations(cha)).toEqual([]);
    expect(cha).toContain("@ID:\tswa|rest|PAR|71;08.|female|Dementia||Participant|");
    expect(rows[0]).toMatchObject({ participant_code: participant.code, sex: "female", consent_status: "given" });
    expect(zip.file("left_out.json")).not.toBeNull();

    // The same choice again, nothing changed: the same zip, at once.
    const again = await h.call("POST", "/api/exports", adminToken, {
      category: "Dementia",
      languages: ["swa"],
      corpus: "rest",
    });
    expect(again.statusCode, again.body).toBe(202);
    await exportJobsIdle();
    const second = (await h.call("GET", "/api/exports", adminToken)).json<{ exports: RestExport[] }>().exports[0]!;
    expect(second).toMatchObject({ _id: again.json<{ export: RestExport }>().export._id, reused_archive: true });
    expect(second.download_url!.split("?")[0]).toBe(ready.download_url!.split("?")[0]);
  });

  it("takes every field as optional: an empty body exports both categories' completed tasks", async () => {
    const res = await h.call("POST", "/api/exports", adminToken, {});
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json<{ export: Record<string, unknown> }>().export).toMatchObject({
      category: "both",
      status: "completed",
      approved_from: null,
      approved_to: null,
      languages: ["eng"],
      participant_role: "Participant",
      corpus: "tafsiri",
      include_restricted: false,
      superseded_at: null,
    });
    await exportJobsIdle();
  });

  it("takes include_restricted: a participant with restricted consent is exported only with it", async () => {
    const restricted = await approvedWork(h, admin, staff, { category: "Control" });
    await linkToParticipant(h.deps.db, restricted.id, { consentStatus: "restricted" });
    const rowsOf = async (body: Record<string, unknown>) => {
      const res = await h.call("POST", "/api/exports", adminToken, body);
      expect(res.statusCode, res.body).toBe(202);
      expect(res.json<{ export: RestExport }>().export.include_restricted).toBe(body.include_restricted === true);
      await exportJobsIdle();
      const link = await h.call(
        "GET",
        `/api/exports/${res.json<{ export: RestExport }>().export._id}/download`,
        adminToken,
      );
      expect(link.statusCode, link.body).toBe(200);
      const zip = await JSZip.loadAsync(
        (await h.app.inject({ method: "GET", url: link.json<{ url: string }>().url })).rawPayload,
      );
      return (await zip.file("manifest.jsonl")!.async("string"))
        .trim()
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { audio_id: string });
    };
    expect((await rowsOf({ category: "Control" })).map((r) => r.audio_id)).not.toContain(restricted.id);
    expect((await rowsOf({ category: "Control", include_restricted: true })).map((r) => r.audio_id)).toContain(
      restricted.id,
    );
  });
});

describe("a participant withdrawing consent", () => {
  it("makes the export's link answer 410 over HTTP (the file URL, REST and tRPC); another export still downloads", async () => {
    const other = await approvedWork(h, admin, staff, { category: "Control" });
    await linkToParticipant(h.deps.db, other.id);
    const start = async (category: string) => {
      const res = await h.call("POST", "/api/exports", adminToken, { category, corpus: `gone-${category}` });
      await exportJobsIdle();
      const id = res.json<{ export: RestExport }>().export._id;
      const page = (await h.call("GET", "/api/exports?limit=100", adminToken)).json<{ exports: RestExport[] }>();
      return page.exports.find((e) => e._id === id)!;
    };
    const holding = await start("Dementia");
    const notHolding = await start("Control");
    expect(holding.state).toBe("ready");

    const superseded = await h.deps.db.transaction().execute(async (trx) => {
      await trx
        .updateTable("participants")
        .set({ consentStatus: "withdrawn" })
        .where("id", "=", participant.id)
        .execute();
      return supersedeExportsOfParticipant(trx, participant.id, admin.id);
    });
    expect(superseded).toBeGreaterThanOrEqual(1);

    const message = "This export was superseded: a participant in it withdrew consent. Start a new export.";
    const address = await h.app.listen({ port: 0, host: "127.0.0.1" });
    // The signed link copied before the withdrawal stops working.
    const copied = await fetch(`${address}${holding.download_url!}`);
    expect(copied.status).toBe(410);
    expect(await copied.json()).toEqual(failed(message));
    const head = await fetch(`${address}${holding.download_url!}`, { method: "HEAD" });
    expect(head.status).toBe(410);
    const still = await fetch(`${address}${notHolding.download_url!}`);
    expect(still.status).toBe(200);
    expect((await JSZip.loadAsync(await still.arrayBuffer())).file("manifest.csv")).not.toBeNull();

    const rest = await h.call("GET", `/api/exports/${holding._id}/download`, adminToken);
    expect(rest.statusCode).toBe(410);
    expect(rest.json()).toEqual(failed(message));
    const trpc = await fetch(
      `${address}/trpc/exports.download?input=${encodeURIComponent(JSON.stringify({ exportId: holding._id }))}`,
      { headers: { authorization: `Bearer ${adminToken}` } },
    );
    expect(trpc.status).toBe(410);
    expect(JSON.stringify(await trpc.json())).toContain(message);

    const listed = (await h.call("GET", "/api/exports?limit=100", adminToken)).json<{ exports: RestExport[] }>();
    expect(listed.exports.find((e) => e._id === holding._id)).toMatchObject({
      state: "superseded",
      download_url: null,
    });
    expect(listed.exports.find((e) => e._id === holding._id)!.superseded_at).not.toBeNull();
    expect(listed.exports.find((e) => e._id === notHolding._id)).toMatchObject({ state: "ready" });
  });
});

describe("hostile requests", () => {
  it("refuses staff (403) and callers without a session (401), and writes nothing", async () => {
    const before = await dbState(h);
    for (const [token, status, message] of [
      [staffToken, 403, "Only administrators may do this."],
      [null, 401, "You must be signed in."],
    ] as const) {
      const post = await h.call("POST", "/api/exports", token, { category: "Control" });
      expect(post.statusCode, post.body).toBe(status);
      expect(post.json()).toEqual(failed(message));
      const get = await h.call("GET", "/api/exports", token);
      expect(get.statusCode, get.body).toBe(status);
    }
    expect(await dbState(h)).toEqual(before);
  });

  it("answers a bad choice with 400 and its message, and starts nothing", async () => {
    const cases: Array<[unknown, string]> = [
      [{ category: "Healthy" }, "Category must be Control, Dementia or both."],
      [{ status: "approved-transcript" }, "status must be completed or approved_transcript."],
      [{ approved_from: "2026-02-30" }, "The first day must be a date (YYYY-MM-DD)."],
      [{ approved_from: "2026-03-02", approved_to: "2026-03-01" }, "The first day must not be after the last day."],
      [{ languages: "eng" }, "Give from one to five languages."],
      [{ languages: ["EN"] }, "Each language must be a three-letter ISO 639-3 code, such as eng or swa."],
      [{ corpus: "a".repeat(10_000) }, "The corpus name may hold letters, digits, _ and - (at most 40 characters)."],
      [
        { participant_role: { $ne: null } },
        "The participant role must be one of Participant, Target_Adult, Investigator, Speaker, Subject.",
      ],
      [{ include_restricted: "yes" }, "include_restricted must be true or false."],
      [[1, 2], "Expected an object."],
    ];
    const before = await dbState(h);
    for (const [body, message] of cases) {
      const res = await h.call("POST", "/api/exports", adminToken, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(leaksInternals(res.body)).toBe(false);
      if (message !== "Expected an object.") expect(res.json(), JSON.stringify(body)).toEqual(failed(message));
    }
    for (const query of ["page=0", "limit=101", "page=abc", "limit=-1"]) {
      const res = await h.call("GET", `/api/exports?${query}`, adminToken);
      expect(res.statusCode, query).toBe(400);
    }
    expect(await dbState(h)).toEqual(before);
  });

  it("GET /api/exports/{id}/download: 403 for staff, 404 for an unknown export, 400 for a malformed id", async () => {
    const unknown = "00000000-0000-4000-8000-000000000000";
    expect((await h.call("GET", `/api/exports/${unknown}/download`, staffToken)).statusCode).toBe(403);
    expect((await h.call("GET", `/api/exports/${unknown}/download`, null)).statusCode).toBe(401);
    const missing = await h.call("GET", `/api/exports/${unknown}/download`, adminToken);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual(failed("Export not found."));
    expect((await h.call("GET", "/api/exports/nope/download", adminToken)).statusCode).toBe(400);
  });

  it("an export link cannot be forged or stretched past its expiry", async () => {
    const page = (await h.call("GET", "/api/exports", adminToken)).json<{ exports: RestExport[] }>();
    const link = page.exports.find((e) => e.download_url)!.download_url!;
    const url = new URL(link, "http://x");
    url.searchParams.set("expires", String(Number(url.searchParams.get("expires")) + 3600));
    const forged = await h.app.inject({ method: "GET", url: `${url.pathname}${url.search}` });
    expect(forged.statusCode).toBe(403);
    const otherFile = await h.app.inject({
      method: "GET",
      url: link.replace(/exports\/[0-9a-f-]+\.zip/, "exports/other.zip"),
    });
    expect(otherFile.statusCode).toBe(403);
  });
});
