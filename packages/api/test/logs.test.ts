import { afterAll, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { insertAuditEntry } from "@tafsiri/db/repositories/audit-log";
import { explainAuditList } from "@tafsiri/db/repositories/audit-list";
import { actionLabel, describeAuditEntry } from "../src/services/log-sentences";
import { assignedAudio, newAudio } from "./workflow-fixtures";
import { createHarness } from "../src/testing/harness";

// Logs (SPEC §2.1): the audit log written by the real procedures, read back through
// logs.list and logs.filters: sentences, what each entry concerns, filters by actor, action and
// period, 50 per page newest first, Admin only.

const h = await createHarness();
afterAll(() => h.close());
const admin = await h.createUser("Admin", { username: `logs_admin_${Date.now()}` });
const second = await h.createUser("Admin", { username: `logs_second_${Date.now()}` });
const staff = await h.createUser("Staff", { username: `logs_amina_${Date.now()}` });
const asAdmin = h.caller(admin);
const asSecond = h.caller(second);

// admin uploads and assigns; staff saves a transcript; the second admin approves it.
const audio = await assignedAudio(h, admin, staff);
await h.caller(staff).transcripts.save({ audioId: audio.id, text: "Habari ya asubuhi" });
await asSecond.transcripts.approve({ audioId: audio.id });
// A second audio: staff saves, admin rejects with a reason.
const other = await assignedAudio(h, admin, staff);
await h.caller(staff).transcripts.save({ audioId: other.id, text: "Line one" });
await asAdmin.transcripts.reject({ audioId: other.id, reason: "Line 2 is missing" });

describe("logs.list", () => {
  it("describes each change in words, with its actor and the audio or user it concerns", async () => {
    const { items } = await asAdmin.logs.list({ actorId: admin.id });
    const sentences = items.map((e) => e.sentence);
    expect(sentences).toContain(`uploaded ${audio.filename}`);
    expect(sentences).toContain(`assigned ${audio.filename} to ${staff.username}`);
    expect(sentences).toContain(`rejected the transcript of ${other.filename}: Line 2 is missing`);
    expect(items.every((e) => e.actor?.id === admin.id && e.actor.username === admin.username)).toBe(true);

    const assign = items.find((e) => e.action === "assign" && e.audio?.id === audio.id);
    expect(assign).toMatchObject({
      entity: "task",
      audio: { id: audio.id, filename: audio.filename, exists: true },
      user: { id: staff.id, username: staff.username },
    });
    expect(Number.isNaN(Date.parse(assign!.createdAt))).toBe(false);

    const bySecond = await asAdmin.logs.list({ actorId: second.id });
    expect(bySecond.items.map((e) => e.sentence)).toEqual([`approved the transcript of ${audio.filename}`]);
    expect(bySecond.items[0]).toMatchObject({
      action: "approve",
      entity: "transcript",
      actor: { id: second.id, username: second.username },
      audio: { id: audio.id, filename: audio.filename, exists: true },
    });
    const byStaff = await asAdmin.logs.list({ actorId: staff.id });
    expect(byStaff.items.map((e) => e.sentence)).toEqual([
      `saved the transcript of ${other.filename}`,
      `saved the transcript of ${audio.filename}`,
    ]);
  });

  it("names a user an entry concerns, and a deleted audio by the filename the entry kept", async () => {
    await insertAuditEntry(h.deps.db, admin.id, "create", "user", staff.id, { role: "Staff" });
    const gone = await newAudio(h, admin);
    await asAdmin.audios.delete({ audioId: gone.id });
    const { items } = await asAdmin.logs.list({ actorId: admin.id, limit: 3 });
    expect(items.map((e) => e.sentence)).toEqual([
      `deleted ${gone.filename}`,
      `uploaded ${gone.filename}`,
      `created the account of ${staff.username}`,
    ]);
    expect(items[0]!.audio).toEqual({ id: gone.id, filename: gone.filename, exists: false });
    expect(items[2]!.user).toEqual({ id: staff.id, username: staff.username });
    expect(items[2]!.audio).toBeNull();
  });

  it("filters by action, and by actor and action together", async () => {
    const approvals = await asAdmin.logs.list({ action: "approve" });
    expect(approvals.items.map((e) => [e.actor?.id, e.sentence])).toEqual([
      [second.id, `approved the transcript of ${audio.filename}`],
    ]);
    expect((await asAdmin.logs.list({ action: "approve", actorId: admin.id })).items).toEqual([]);
    const saves = await asAdmin.logs.list({ action: "save", actorId: staff.id });
    expect(saves.items).toHaveLength(2);
    expect((await asAdmin.logs.list({ action: "no-such-action" })).totalPages).toBe(0);
  });

  it("filters by the period [from, to): dates are midnight in the time zone, date-times exact", async () => {
    const actor = await h.createUser("Admin");
    const times = ["2026-03-01T10:00:00Z", "2026-03-02T10:00:00Z", "2026-03-03T00:00:00Z"];
    for (const [i, at] of times.entries()) {
      await insertAuditEntry(h.deps.db, actor.id, "dated", "thing", String(i));
      // created_at is not updatable through the typed schema (it is set by the database).
      await sql`update audit_log set created_at = ${new Date(at)} where actor_id = ${actor.id} and entity_id = ${String(i)}`.execute(
        h.deps.db,
      );
    }
    const ids = async (input: { from?: string; to?: string }) =>
      (await asAdmin.logs.list({ actorId: actor.id, ...input })).items.map((e) => e.createdAt);
    expect(await ids({})).toEqual([...times].reverse().map((t) => new Date(t).toISOString()));
    expect(await ids({ from: "2026-03-02" })).toEqual(["2026-03-03T00:00:00.000Z", "2026-03-02T10:00:00.000Z"]);
    expect(await ids({ from: "2026-03-02", to: "2026-03-03" })).toEqual(["2026-03-02T10:00:00.000Z"]);
    expect(await ids({ to: "2026-03-02T10:00:00Z" })).toEqual(["2026-03-01T10:00:00.000Z"]);
    expect(await ids({ from: "2026-03-02T10:00:00+00:00", to: "2026-03-02T10:00:00.001Z" })).toEqual([
      "2026-03-02T10:00:00.000Z",
    ]);
    const entry = (await asAdmin.logs.list({ actorId: actor.id, limit: 1 })).items[0]!;
    expect(entry.sentence).toBe("dated thing");
    expect(entry.audio).toBeNull();
    expect(entry.user).toBeNull();
  });

  it("pages 50 entries, newest first (time, then id), with the page count of the filtered list", async () => {
    const actor = await h.createUser("Admin");
    for (let i = 0; i < 120; i++) await insertAuditEntry(h.deps.db, actor.id, "bulk", "thing", String(i));
    const pages = await Promise.all([1, 2, 3, 4].map((page) => asAdmin.logs.list({ actorId: actor.id, page })));
    expect(pages.map((p) => p.items.length)).toEqual([50, 50, 20, 0]);
    expect(pages.map((p) => p.totalPages)).toEqual([3, 3, 3, 3]);
    const all = pages.flatMap((p) => p.items);
    // Written in order 0…119: newest first is 119…0.
    const rows = await h.deps.db
      .selectFrom("auditLog")
      .select(["id", "entityId"])
      .where("actorId", "=", actor.id)
      .execute();
    const indexOf = new Map(rows.map((r) => [String(r.id), Number(r.entityId)]));
    expect(all.map((e) => indexOf.get(e.id))).toEqual(Array.from({ length: 120 }, (_, i) => 119 - i));
    for (let i = 1; i < all.length; i++) expect(all[i - 1]!.createdAt >= all[i]!.createdAt).toBe(true);
    // The whole log is newest first too.
    const everything = await asAdmin.logs.list({});
    expect(everything.items).toHaveLength(50);
    expect(everything.items[0]!.actor?.id).toBe(actor.id);
  });

  it("refuses malformed or reversed dates and out-of-range pages", async () => {
    for (const input of [{ from: "yesterday" }, { to: "2026-13-01" }, { from: "2026-02-30" }, { to: "01/03/2026" }]) {
      await expect(asAdmin.logs.list(input), JSON.stringify(input)).rejects.toMatchObject({ code: "BAD_REQUEST" });
    }
    for (const input of [
      { from: "2026-03-02", to: "2026-03-02" },
      { from: "2026-03-03", to: "2026-03-02" },
    ]) {
      await expect(asAdmin.logs.list(input)).rejects.toMatchObject({
        code: "BAD_REQUEST",
        message: "from must be before to.",
      });
    }
    await expect(asAdmin.logs.list({ page: 0 })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(asAdmin.logs.list({ limit: 101 })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(asAdmin.logs.list({ actorId: "nobody" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });

  it("is Admin only: staff get FORBIDDEN, an anonymous caller UNAUTHORIZED", async () => {
    const asStaff = h.caller(staff);
    await expect(asStaff.logs.list({})).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(asStaff.logs.filters()).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(h.caller(null).logs.list({})).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });
});

describe("the list's plan (PostgreSQL)", () => {
  it.runIf(h.databaseUrl !== undefined)("reads a page's ids from the index of its filter, in list order", async () => {
    await h.deps.db.transaction().execute(async (trx) => {
      // The test's log is small: without sequential or bitmap scans the planner shows which index
      // serves each filter, read backward in the list's order (only the page's 50 rows are sorted).
      await sql`set local enable_seqscan = off`.execute(trx);
      await sql`set local enable_bitmapscan = off`.execute(trx);
      const plan = async (q: { actorId?: string; action?: string }) =>
        (await explainAuditList(trx, { ...q, page: 2, limit: 50 })).join("\n");
      expect(await plan({})).toMatch(/Index (Only )?Scan Backward using audit_log_created_at_id_idx/);
      expect(await plan({ actorId: admin.id })).toMatch(
        /Index (Only )?Scan Backward using audit_log_actor_created_at_id_idx/,
      );
      expect(await plan({ action: "approve" })).toMatch(
        /Index (Only )?Scan Backward using audit_log_action_created_at_id_idx/,
      );
    });
  });
});

describe("logs.filters", () => {
  it("lists the actions in the log with labels, and the users who acted", async () => {
    const { actions, actors } = await asAdmin.logs.filters();
    const values = actions.map((a) => a.value);
    expect(values).toEqual([...values].sort());
    expect(new Set(values).size).toBe(values.length);
    expect(values).toEqual(expect.arrayContaining(["approve", "assign", "create", "reject", "save"]));
    expect(actions.find((a) => a.value === "approve")?.label).toBe("Approved");
    expect(actors.map((a) => a.id)).toEqual(expect.arrayContaining([admin.id, second.id, staff.id]));
    const names = actors.map((a) => a.username);
    expect(names).toEqual([...names].sort());
  });
});

describe("describeAuditEntry", () => {
  const base = { entityId: null, detail: {}, audioName: "acc-101-0", userName: "baraka" };
  it("puts every action written by the app into words; unknown ones read '<action> <entity>'", () => {
    const cases: Array<[string, string, string]> = [
      ["approve", "transcript", "approved the transcript of acc-101-0"],
      ["approve", "recording", "approved the recording of acc-101-0"],
      ["remove", "recording", "deleted the recording of acc-101-0"],
      ["upload", "recording", "uploaded the recording of acc-101-0"],
      ["assign", "task", "assigned acc-101-0 to baraka"],
      ["reassign", "task", "reassigned acc-101-0 to baraka"],
      ["recommend", "task", "recommended acc-101-0 to baraka"],
      ["set-status", "task", "changed the task status of acc-101-0"],
      ["open", "audio", "opened acc-101-0"],
      ["attach", "initial-transcript", "attached the initial transcript of acc-101-0"],
      ["comment", "submission", "commented on acc-101-0"],
      ["create", "user", "created the account of baraka"],
      ["deactivate", "user", "deactivated the account of baraka"],
      ["activate", "user", "activated the account of baraka"],
      ["edit", "user", "edited the account of baraka"],
      ["sign-out-everywhere", "user", "signed out every session of baraka"],
      ["upload", "take", "recorded a segment's take for acc-101-0"],
      ["delete", "take", "removed a segment's take of acc-101-0"],
      ["update", "take", "asked for a take of acc-101-0 to be recorded again"],
      ["revoke", "api-token", "revoked the API token 'a token'"],
      ["frobnicate", "widget", "frobnicate widget"],
    ];
    for (const [action, entity, sentence] of cases) {
      expect(describeAuditEntry({ ...base, action, entity })).toBe(sentence);
    }
    expect(
      describeAuditEntry({
        ...base,
        action: "set-rate",
        entity: "setting",
        entityId: "transcript_rate_ugx",
        detail: { from: 5000, to: 6000 },
      }),
    ).toBe("set the transcript rate from 5000 to 6000 UGX");
    expect(describeAuditEntry({ ...base, action: "approve", entity: "transcript", audioName: null })).toBe(
      "approved the transcript of a deleted audio",
    );
    expect(describeAuditEntry({ ...base, action: "create", entity: "user", userName: null })).toBe(
      "created the account of a deleted user",
    );
    expect(describeAuditEntry({ ...base, action: "confirm", entity: "recording-spans", detail: { spans: 5 } })).toBe(
      "matched the recording of acc-101-0 to its 5 segments",
    );
    expect(
      describeAuditEntry({ ...base, action: "create", entity: "api-token", detail: { name: "lab", scope: "write" } }),
    ).toBe("created the API token 'lab' (write)");
    const archive = { ...base, entity: "archive", audioName: null, userName: null };
    expect(
      describeAuditEntry({ ...archive, action: "backup", detail: { file: "tafsiri-backup-1.zip", files: 12 } }),
    ).toBe("backed up the database and 12 stored files to tafsiri-backup-1.zip");
    expect(
      describeAuditEntry({
        ...archive,
        action: "backup-failed",
        detail: { file: "tafsiri-backup-2.zip", error: "pg_dump exited with 1" },
      }),
    ).toBe("could not back up to tafsiri-backup-2.zip: pg_dump exited with 1");
    expect(actionLabel("approve")).toBe("Approved");
    expect(actionLabel("sign-out-everywhere")).toBe("Signed a user out everywhere");
    expect(actionLabel("archive-old_entries")).toBe("Archive old entries");
  });
});
