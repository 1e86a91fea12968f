import { createHash } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import JSZip from "jszip";
import { exportJobsIdle } from "@tafsiri/api";
import { chatRuleViolations } from "@tafsiri/corpus";
import { approvedWork } from "../../../packages/api/test/workflow-fixtures";
import { createAppHarness, failed } from "./fixtures/app-harness";
import { dbState, leaksInternals } from "./fixtures/hostile-world";

// Issue 12 Build 1: GET and POST /api/exports, as an integrator calls them; every answer is
// checked against the OpenAPI document by the harness.

const h = await createAppHarness();
afterAll(() => h.close());
const admin = await h.createUser("Admin");
const staff = await h.createUser("Staff");
const [adminToken, staffToken] = await Promise.all([h.token(admin), h.token(staff)]);
const finished = await approvedWork(h, admin, staff, { category: "Dementia" });

interface RestExport {
  _id: string;
  state: string;
  done: number;
  total: number;
  status: string;
  download_url: string | null;
  reused_archive: boolean;
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
    expect(cha).toContain("@ID:\tswa|rest|PAR|||Dementia||Participant|||");

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
    });
    await exportJobsIdle();
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
