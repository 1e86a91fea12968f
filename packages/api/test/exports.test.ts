import { createHash } from "node:crypto";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import JSZip from "jszip";
import type { SessionUser } from "../src/context";
import { exportJobsIdle, MAX_RUNNING_EXPORTS } from "../src/services/exports";
import { verifyFileUrl } from "../src/services/file-urls";
import { sweepStoredFiles } from "../src/storage/sweep";
import { chatRuleViolations } from "@tafsiri/domain";
import { linkToParticipant } from "@tafsiri/db/testing/participants";
import { describeError } from "../src/errors/describe-error";
import { EXPORT_ABANDONED_AFTER_MS } from "../src/export/run-export";
import { approvedWork as approvedWorkOf, harnessWithUsers, workState } from "./workflow-fixtures";

// Decision 019: dataset exports. An admin chooses category, status and approval period; a
// background job streams the approved work into a zip in storage with its manifests; the Export
// page lists it with a 24-hour download link.

const { h, admin, staff } = await harnessWithUsers();
afterAll(() => h.close());
const admin2 = await h.createUser("Admin");

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/**
 * A completed task (or, with `recording`, less), as workflow-fixtures' approvedWork, whose audio
 * records a participant who gave consent (decision 024: nothing else is exported).
 */
async function approvedWork(opts: Parameters<typeof approvedWorkOf>[3] = {}) {
  const audio = await approvedWorkOf(h, admin, staff, opts);
  await linkToParticipant(h.deps.db, audio.id);
  return audio;
}

/** Starts an export as `user` and waits for its job; answers the export as the list shows it. */
async function exportAndWait(
  user: SessionUser,
  choice: Parameters<ReturnType<typeof h.caller>["exports"]["create"]>[0],
) {
  const started = await h.caller(user).exports.create(choice);
  await exportJobsIdle();
  const list = await h.caller(user).exports.list({ page: 1, limit: 100 });
  const item = list.items.find((e) => e.id === started.id);
  if (!item) throw new Error("export not listed");
  return { started, item };
}

/** The zip a ready export's link points at, read from storage. */
async function zipOf(downloadUrl: string | null): Promise<JSZip> {
  expect(downloadUrl).toMatch(/^\/files\/exports\/[0-9a-f-]+\.zip\?expires=\d+&signature=/);
  const key = decodeURIComponent(new URL(downloadUrl!, "http://x").pathname.replace(/^\/files\//, ""));
  const chunks: Buffer[] = [];
  for await (const chunk of await h.deps.storage.read(key)) chunks.push(chunk as Buffer);
  return JSZip.loadAsync(Buffer.concat(chunks));
}

async function manifestOf(zip: JSZip): Promise<Array<Record<string, string | number | null>>> {
  const text = await zip.file("manifest.jsonl")!.async("string");
  return text
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, string | number | null>);
}

/** Inserts a running export of choice `choiceKey` (last heard of at `updatedAt`), as another process's would be. */
async function insertRunningExport(choiceKey: string, updatedAt = new Date()) {
  await h.deps.db
    .insertInto("exports")
    .values({
      createdBy: admin.id,
      statusChoice: "completed",
      category: null,
      approvedFrom: null,
      approvedTo: null,
      chatSettings: "{}",
      choiceKey,
      updatedAt,
    })
    .execute();
}

beforeEach(async () => {
  // Each test starts from no export, so reuse only happens where a test makes it.
  await h.deps.db.deleteFrom("exports").execute();
});

describe("exports.create and exports.list", () => {
  it("writes every completed task's audio, .cha and recording with manifests whose sizes and SHA-256 match", async () => {
    const done = await approvedWork({ category: "Dementia" });
    const pending = await approvedWork({ category: "Dementia", recording: "pending" });
    // Durations (seconds) as the waveform job writes them: the audio's and its approved recording's.
    await h.deps.db.updateTable("audios").set({ durationSeconds: 3723.4 }).where("id", "=", done.id).execute();
    await h.deps.db
      .updateTable("translatedRecordings")
      .set({ durationSeconds: 245.3 })
      .where("submissionId", "=", (await workState(h, done.id)).submission!.id)
      .execute();
    const { started, item } = await exportAndWait(admin, { category: "Dementia", status: "completed" });

    expect(started).toMatchObject({ state: "running", done: 0, category: "Dementia", status: "completed" });
    expect(item).toMatchObject({ state: "ready", createdBy: { id: admin.id, username: admin.username } });
    expect(item.total).toBe(item.done);
    expect(item.total).toBeGreaterThanOrEqual(1);
    const zip = await zipOf(item.downloadUrl);
    const manifest = await manifestOf(zip);
    const row = manifest.find((r) => r.audio_id === done.id);
    expect(row).toMatchObject({
      filename: done.filename,
      category: "Dementia",
      assignee: staff.username,
      recorder: staff.username,
      audio_file: `Dementia/${done.filename}/${done.filename}.wav`,
      transcript_file: `Dementia/${done.filename}/${done.filename}.cha`,
      recording_file: `Dementia/${done.filename}/${done.filename}_TRANSLATEDAUDIO.wav`,
      audio_duration_seconds: 3723.4,
      recording_duration_seconds: 245.3,
    });
    expect(row!.transcript_approved_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(row!.recording_approved_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    // A completed-tasks export leaves out the task whose recording is still Pending.
    expect(manifest.some((r) => r.audio_id === pending.id)).toBe(false);

    for (const kind of ["audio", "transcript", "recording"] as const) {
      const bytes = await zip.file(row![`${kind}_file`] as string)!.async("uint8array");
      expect(row![`${kind}_bytes`]).toBe(bytes.length);
      expect(row![`${kind}_sha256`]).toBe(sha256(bytes));
    }
    const cha = await zip.file(row!.transcript_file as string)!.async("string");
    expect(chatRuleViolations(cha)).toEqual([]);
    expect(cha).toContain("*PAR:\tNilienda sokoni jana .");
    expect(cha).toContain(`@Media:\t${done.filename}, audio`);
    // Decision 035: every segment, and the approved pairs as a translation memory, after the audios' files.
    const tsv = await zip.file("segments.tsv")!.async("string");
    expect(tsv.split("\n")[0]).toBe(
      "audio_file\toffset_ms\tduration_ms\tspeaker\tparticipant_code\tgroup\tsource\ttranslation",
    );
    expect(tsv).toContain(`${row!.audio_file}\t\t\tPAR\t${row!.participant_code}\tDementia\t\tNilienda sokoni jana.\n`);
    expect(await zip.file("translation-memory.tmx")!.async("string")).toMatch(/<tmx version="1\.4">/);
    // Then the speech measures (speech-measures.test.ts), then the manifests.
    expect(
      Object.keys(zip.files)
        .filter((name) => !name.includes("/"))
        .slice(-8, -4),
    ).toEqual(["segments.tsv", "translation-memory.tmx", "measures.csv", "measures-summary.csv"]);

    const csv = await zip.file("manifest.csv")!.async("string");
    expect(csv.split("\r\n")[0]).toBe(
      "audio_id,filename,category,assignee,recorder,transcript_approved_at,recording_approved_at," +
        "audio_file,audio_bytes,audio_sha256,audio_duration_seconds,transcript_file,transcript_bytes," +
        "transcript_sha256,recording_file,recording_bytes,recording_sha256,recording_duration_seconds," +
        "session_date,participant_code,participant_group,sex,age_months,age_chat,education_years,languages," +
        "mmse,mmse_taken_on,moca,moca_taken_on,consent_status",
    );
    expect(csv).toContain(`${done.id},${done.filename},Dementia,${staff.username},${staff.username},`);
    const csvRow = csv.split("\r\n").find((line) => line.startsWith(done.id))!;
    expect(csvRow).toContain(`,${row!.audio_sha256},3723.4,`);
    expect(csvRow).toContain(`,${row!.recording_sha256},245.3,`);
  });

  it("'approved-transcript' takes every approved transcript, with the recording only where it is approved", async () => {
    const pending = await approvedWork({ category: "Control", recording: "pending" });
    const none = await approvedWork({ category: "Control", recording: false });
    const { item } = await exportAndWait(admin, { category: "Control", status: "approved-transcript" });
    const manifest = await manifestOf(await zipOf(item.downloadUrl));
    for (const audio of [pending, none]) {
      expect(manifest.find((r) => r.audio_id === audio.id)).toMatchObject({
        transcript_file: `Control/${audio.filename}/${audio.filename}.cha`,
        recording_file: null,
        recording_sha256: null,
        recording_duration_seconds: null,
        audio_duration_seconds: null,
        recorder: null,
        recording_approved_at: null,
      });
    }
  });

  it("keeps to the category and to the approval period (days in APP_TIMEZONE, both included)", async () => {
    const control = await approvedWork({ category: "Control" });
    const dementia = await approvedWork({ category: "Dementia" });
    const today = new Date().toISOString().slice(0, 10);
    const both = await manifestOf(
      await zipOf(
        (await exportAndWait(admin, { category: "both", approvedFrom: today, approvedTo: today })).item.downloadUrl,
      ),
    );
    expect(both.map((r) => r.audio_id)).toEqual(expect.arrayContaining([control.id, dementia.id]));
    const onlyControl = await manifestOf(
      await zipOf((await exportAndWait(admin, { category: "Control", approvedTo: today })).item.downloadUrl),
    );
    expect(onlyControl.some((r) => r.audio_id === control.id)).toBe(true);
    expect(onlyControl.some((r) => r.category === "Dementia")).toBe(false);
    const { item: earlier } = await exportAndWait(admin, { approvedFrom: "2020-01-01", approvedTo: "2020-12-31" });
    expect(earlier).toMatchObject({ state: "ready", total: 0, done: 0 });
    expect(await manifestOf(await zipOf(earlier.downloadUrl)).catch(() => [])).toEqual([]);
  });

  it("writes the CHAT settings' role and corpus into every .cha file, and the audio's language, not the form's", async () => {
    const audio = await approvedWork({ category: "Control" });
    const { item } = await exportAndWait(admin, {
      category: "Control",
      chat: { languages: ["fra", "eng"], participantRole: "Subject", corpus: "kampala-2026" },
    });
    // The languages are kept with the export (the form, REST) but no longer written (decision 035).
    expect(item.chat).toEqual({ languages: ["fra", "eng"], participantRole: "Subject", corpus: "kampala-2026" });
    const zip = await zipOf(item.downloadUrl);
    const cha = await zip.file(`Control/${audio.filename}/${audio.filename}.cha`)!.async("string");
    expect(chatRuleViolations(cha)).toEqual([]);
    // A translation saved without a source: the main tier holds it, in the target language (swa by default).
    expect(cha).toContain("@Languages:\tswa\n");
    expect(cha).toContain("@Participants:\tPAR Subject\n");
    expect(cha).toContain("@ID:\tswa|kampala-2026|PAR|||Control||Subject|||\n");
  });

  it("is audited, announced to the admins, and its link works for 24 hours", async () => {
    await approvedWork();
    const before = Date.now();
    const { started, item } = await exportAndWait(admin, { category: "Control" });
    const audit = await h.deps.db
      .selectFrom("auditLog")
      .selectAll()
      .where("entity", "=", "export")
      .where("entityId", "=", started.id)
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actorId: admin.id, action: "export" });
    const logs = await h.caller(admin).logs.list({ action: "export" });
    expect(logs.items[0]?.sentence).toBe("exported the dataset (Control, completed tasks)");

    const events = await h.deps.db
      .selectFrom("events")
      .select(["audience", "kind"])
      .where("kind", "=", "export.changed")
      .where("createdAt", ">=", new Date(before - 1000))
      .execute();
    expect(events.length).toBeGreaterThanOrEqual(2);
    expect(new Set(events.map((e) => e.audience))).toEqual(new Set(["admins"]));

    const url = new URL(item.downloadUrl!, "http://x");
    const key = decodeURIComponent(url.pathname.replace(/^\/files\//, ""));
    const expires = Number(url.searchParams.get("expires"));
    expect(expires * 1000).toBeGreaterThan(before + 24 * 3600_000 - 60_000);
    expect(expires * 1000).toBeLessThanOrEqual(Date.now() + 24 * 3600_000);
    const sig = url.searchParams.get("signature") ?? undefined;
    expect(verifyFileUrl(h.deps.jwtSecret, key, String(expires), sig)).toBe(true);
    expect(verifyFileUrl(h.deps.jwtSecret, key, String(expires), sig, expires * 1000 + 1001)).toBe(false);
    // Another admin sees the same export.
    expect((await h.caller(admin2).exports.list({})).items.map((e) => e.id)).toContain(started.id);
  });
});

describe("a second export of the same choice", () => {
  it("offers the same zip again when nothing changed, and copies the unchanged files when something did", async () => {
    await approvedWork({ category: "Dementia" });
    const first = (await exportAndWait(admin, { category: "Dementia" })).item;
    const firstManifest = await manifestOf(await zipOf(first.downloadUrl));
    const again = (await exportAndWait(admin2, { category: "Dementia" })).item;
    expect(again).toMatchObject({
      state: "ready",
      reusedArchive: true,
      sizeBytes: first.sizeBytes,
      total: first.total,
    });
    // Each audio's three files, segments.tsv, translation-memory.tmx, measures.csv and measures-summary.csv.
    expect(again.reusedFiles).toBe(firstManifest.length * 3 + 4);
    expect(new URL(again.downloadUrl!, "http://x").pathname).toBe(new URL(first.downloadUrl!, "http://x").pathname);

    const added = await approvedWork({ category: "Dementia" });
    const third = (await exportAndWait(admin, { category: "Dementia" })).item;
    expect(third).toMatchObject({ state: "ready", reusedArchive: false, total: first.total + 1 });
    expect(third.reusedFiles).toBe(firstManifest.length * 3);
    const manifest = await manifestOf(await zipOf(third.downloadUrl));
    expect(manifest.map((r) => r.audio_id)).toContain(added.id);
    // Reused files are listed with the same hashes as before.
    for (const row of firstManifest) {
      expect(manifest.find((r) => r.audio_id === row.audio_id)).toEqual(row);
    }
    // A duration found since (the waveform job) makes a new manifest, not the same zip again.
    await h.deps.db.updateTable("audios").set({ durationSeconds: 245.3 }).where("id", "=", added.id).execute();
    const fourth = (await exportAndWait(admin, { category: "Dementia" })).item;
    expect(fourth).toMatchObject({ state: "ready", reusedArchive: false, total: third.total });
    const withDuration = await manifestOf(await zipOf(fourth.downloadUrl));
    expect(withDuration.find((r) => r.audio_id === added.id)).toMatchObject({ audio_duration_seconds: 245.3 });
    // Other CHAT settings are another choice: nothing is reused.
    const other = (await exportAndWait(admin, { category: "Dementia", chat: { corpus: "other" } })).item;
    expect(other).toMatchObject({ reusedArchive: false, reusedFiles: 0 });
  });

  it("joins the running export of the same choice instead of starting another", async () => {
    await approvedWork();
    // Stored files are read only once this gate opens, so the first export stays running.
    const read = h.deps.storage.read.bind(h.deps.storage);
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    h.deps.storage.read = async (key, range) => {
      await gate;
      return read(key, range);
    };
    try {
      const first = await h.caller(admin).exports.create({ category: "Control" });
      const second = await h.caller(admin2).exports.create({ category: "Control" });
      expect(second).toMatchObject({ id: first.id, state: "running" });
      const other = await h.caller(admin).exports.create({ category: "Dementia" });
      expect(other.id).not.toBe(first.id);
    } finally {
      h.deps.storage.read = read;
      open();
    }
    await exportJobsIdle();
    const started = await h.deps.db.selectFrom("exports").select(["id", "state"]).execute();
    expect(started).toHaveLength(2);
    expect(started.map((e) => e.state)).toEqual(["done", "done"]);
    // One audit entry per export started: the joined request wrote none.
    const audited = await h.deps.db
      .selectFrom("auditLog")
      .select("entityId")
      .where("entity", "=", "export")
      .where(
        "entityId",
        "in",
        started.map((e) => e.id),
      )
      .execute();
    expect(audited.map((a) => a.entityId).sort()).toEqual(started.map((e) => e.id).sort());
  });

  it("two starts of the same choice at once (a double click, two admins) make one export", async () => {
    await approvedWork();
    const [first, second] = await Promise.all([
      h.caller(admin).exports.create({ category: "Control" }),
      h.caller(admin2).exports.create({ category: "Control" }),
    ]);
    expect(second.id).toBe(first.id);
    await exportJobsIdle();
    expect(await h.deps.db.selectFrom("exports").select("id").execute()).toEqual([{ id: first.id }]);
  });
});

describe("what goes wrong", () => {
  it("a stored file gone missing fails the export with a message, and no zip stays stored", async () => {
    const audio = await approvedWork({ category: "Dementia", text: "Faili limepotea." });
    const row = await h.deps.db
      .selectFrom("audios")
      .select("fileKey")
      .where("id", "=", audio.id)
      .executeTakeFirstOrThrow();
    await h.deps.storage.delete(row.fileKey);
    const { started, item } = await exportAndWait(admin, { category: "Dementia" });
    expect(item).toMatchObject({ state: "failed", downloadUrl: null });
    expect(item.error).toBe("A file of the selection is missing from storage; the export stopped. See the server log.");
    expect(await h.deps.storage.exists(`exports/${started.id}.zip`)).toBe(false);
    await h.deps.db.deleteFrom("audios").where("id", "=", audio.id).execute();
  });

  it("an export whose server stopped mid-way is marked failed when the next one starts", async () => {
    await insertRunningExport("abandoned", new Date(Date.now() - EXPORT_ABANDONED_AFTER_MS - 1000));
    await exportAndWait(admin, { category: "Control" });
    const list = await h.caller(admin).exports.list({});
    expect(list.items.find((e) => e.state === "failed")?.error).toBe(
      "The server stopped while this export was running. Start it again.",
    );
  });

  it(`refuses a new export while ${MAX_RUNNING_EXPORTS} are running`, async () => {
    for (let i = 0; i < MAX_RUNNING_EXPORTS; i++) {
      await insertRunningExport(`running-${i}`);
    }
    const before = await h.deps.db.selectFrom("exports").select("id").execute();
    await expect(h.caller(admin).exports.create({ category: "Dementia" })).rejects.toMatchObject({
      code: "TOO_MANY_REQUESTS",
      message: "Three exports are running already; wait for one of them to finish.",
    });
    expect(await h.deps.db.selectFrom("exports").select("id").execute()).toHaveLength(before.length);
  });

  it("the file sweep keeps a zip while its link lasts and removes it after", async () => {
    await approvedWork();
    const { started } = await exportAndWait(admin, { category: "Control" });
    const key = `exports/${started.id}.zip`;
    const later = { olderThanMs: 0, now: new Date(Date.now() + 1000) };
    expect((await sweepStoredFiles(h.deps, later)).files).not.toContain(key);
    await h.deps.db
      .updateTable("exports")
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where("id", "=", started.id)
      .execute();
    const list = await h.caller(admin).exports.list({});
    expect(list.items.find((e) => e.id === started.id)).toMatchObject({ state: "expired", downloadUrl: null });
    expect((await sweepStoredFiles(h.deps, later)).files).toContain(key);
  });
});

describe("hostile callers", () => {
  it("staff may neither list nor start exports", async () => {
    await expect(h.caller(staff).exports.list({})).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(h.caller(staff).exports.create({})).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect(await h.deps.db.selectFrom("exports").select("id").execute()).toHaveLength(0);
  });

  it("refuses a bad choice with its message and starts nothing", async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ approvedFrom: "2026-03-02", approvedTo: "2026-03-01" }, "The first day must not be after the last day."],
      [{ approvedFrom: "yesterday" }, "The first day must be a date (YYYY-MM-DD)."],
      [{ approvedTo: "2026-13-01" }, "The last day must be a date (YYYY-MM-DD)."],
      [{ category: "Healthy" }, "Category must be Control, Dementia or both."],
      [{ status: "everything" }, "Status must be completed or approved-transcript."],
      [
        { chat: { languages: ["english"] } },
        "Each language must be a three-letter ISO 639-3 code, such as eng or swa.",
      ],
      [{ chat: { languages: [] } }, "Give from one to five languages."],
      [{ chat: { languages: Array(6).fill("eng") } }, "Give from one to five languages."],
      [
        { chat: { corpus: "x".repeat(41) } },
        "The corpus name may hold letters, digits, _ and - (at most 40 characters).",
      ],
      [{ chat: { corpus: "two words" } }, "The corpus name may hold letters, digits, _ and - (at most 40 characters)."],
      [
        { chat: { participantRole: "Boss" } },
        "The participant role must be one of Participant, Target_Adult, Investigator, Speaker, Subject.",
      ],
    ];
    for (const [input, message] of cases) {
      const error = await h
        .caller(admin)
        .exports.create(input as never)
        .then(
          () => null,
          (e: unknown) => e,
        );
      expect(error && describeError(error), JSON.stringify(input)).toMatchObject({ httpStatus: 400, message });
    }
    await expect(h.caller(admin).exports.list({ page: 0 })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(h.caller(admin).exports.list({ limit: 101 })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    expect(await h.deps.db.selectFrom("exports").select("id").execute()).toHaveLength(0);
  });
});
