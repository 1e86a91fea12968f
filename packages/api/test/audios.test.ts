import { existsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type TestHarness } from "../src/testing/harness";
import type { SessionUser } from "../src/context";
import { attachInitialTranscript, createAudio, uploadRecording } from "../src/uploads/store-upload";
import { verifyFileUrl } from "../src/services/file-urls";
import {
  assignedAudio,
  harnessWithUsers,
  listFiles,
  newAudio,
  recommend,
  snapshot,
  tempWav,
  workState,
} from "./workflow-fixtures";

const { h, admin, staff, other } = await harnessWithUsers();
afterAll(() => h.close());

/** True when `url` is a valid signed /files URL; returns its key. */
function signedKey(url: string): string {
  const u = new URL(url, "http://x");
  const key = decodeURIComponent(u.pathname.replace(/^\/files\//, ""));
  expect(
    verifyFileUrl(
      h.deps.jwtSecret,
      key,
      u.searchParams.get("expires") ?? undefined,
      u.searchParams.get("signature") ?? undefined,
    ),
  ).toBe(true);
  return key;
}

describe("createAudio (SPEC §2.16, §5)", () => {
  it("adopts the temp file into audios/{uuid}.wav and inserts the audio with an audit entry", async () => {
    const file = await tempWav(h);
    const out = await createAudio(h.deps, admin, { filename: "first_upload", category: "Dementia", file });
    expect(out.filename).toBe("first_upload");
    const row = await h.deps.db.selectFrom("audios").selectAll().where("id", "=", out.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ category: "Dementia", mimeType: "audio/wav", uploadedBy: admin.id });
    expect(Number(row.sizeBytes)).toBe(file.sizeBytes);
    expect(row.fileKey).toMatch(/^audios\/[0-9a-f-]{36}\.wav$/);
    expect(await h.deps.storage.exists(row.fileKey)).toBe(true);
    expect(existsSync(file.tempFile)).toBe(false);
    const audit = await h.deps.db.selectFrom("auditLog").selectAll().where("entityId", "=", out.id).execute();
    expect(audit).toEqual([expect.objectContaining({ action: "create", entity: "audio", actorId: admin.id })]);
  });

  it("accepts every allowed audio MIME type, including FLAC", async () => {
    for (const mime of ["audio/mpeg", "audio/mp3", "audio/ogg", "audio/x-wav", "audio/flac", "audio/x-flac"]) {
      const filename = `mime_${mime.replace("/", "_")}`;
      const out = await createAudio(h.deps, admin, { filename, category: "Control", file: await tempWav(h, mime) });
      const stored = await h.deps.db
        .selectFrom("audios")
        .select(["filename", "mimeType"])
        .where("id", "=", out.id)
        .executeTakeFirst();
      expect(stored).toEqual({ filename, mimeType: mime });
    }
  });

  it("refuses a duplicate filename, a non-audio file and a staff caller, leaving nothing behind", async () => {
    await newAudio(h, admin, { filename: "taken" });
    const before = await snapshot(h);
    const dup = await tempWav(h);
    await expect(
      createAudio(h.deps, admin, { filename: "taken", category: "Control", file: dup }),
    ).rejects.toMatchObject({
      code: "CONFLICT",
      message: "taken already exists.",
    });
    const text = await tempWav(h, "text/plain", ".txt");
    await expect(
      createAudio(h.deps, admin, { filename: "notes", category: "Control", file: text }),
    ).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: "The selected file is not a valid audio file.",
    });
    const byStaff = await tempWav(h);
    await expect(
      createAudio(h.deps, staff, { filename: "by_staff", category: "Control", file: byStaff }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    for (const f of [dup, text, byStaff]) expect(existsSync(f.tempFile)).toBe(false);
    expect(await snapshot(h)).toEqual(before);
  });
});

describe("attachInitialTranscript (SPEC §2.18)", () => {
  it("stores the text as initial-transcripts/{audioId}.txt and replaces an earlier one only when told to", async () => {
    const audio = await newAudio(h, admin);
    await attachInitialTranscript(h.deps, admin, { audioId: audio.id, text: "first text" });
    await expect(attachInitialTranscript(h.deps, admin, { audioId: audio.id, text: "not this" })).rejects.toMatchObject(
      { code: "CONFLICT", message: "This audio already has a transcript." },
    );
    expect(await h.deps.storage.readText(`initial-transcripts/${audio.id}.txt`)).toBe("first text");
    await attachInitialTranscript(h.deps, admin, { audioId: audio.id, text: "second text", replace: true });
    const row = await h.deps.db
      .selectFrom("audios")
      .select("transcriptKey")
      .where("id", "=", audio.id)
      .executeTakeFirstOrThrow();
    expect(row.transcriptKey).toBe(`initial-transcripts/${audio.id}.txt`);
    expect(await h.deps.storage.readText(`initial-transcripts/${audio.id}.txt`)).toBe("second text");
    const detail = await h.caller(admin).audios.get({ audioId: audio.id });
    expect(signedKey(detail.transcriptUrl!)).toBe(`initial-transcripts/${audio.id}.txt`);
  });

  it("refuses empty text, an unknown audio and staff, changing nothing", async () => {
    const audio = await newAudio(h, admin);
    const before = await snapshot(h);
    await expect(attachInitialTranscript(h.deps, admin, { audioId: audio.id, text: "  \n " })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: "The transcript file has no text.",
    });
    await expect(
      attachInitialTranscript(h.deps, admin, { audioId: crypto.randomUUID(), text: "x" }),
    ).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: "Audio not found.",
    });
    await expect(attachInitialTranscript(h.deps, admin, { audioId: "not-a-uuid", text: "x" })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await expect(attachInitialTranscript(h.deps, staff, { audioId: audio.id, text: "x" })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    expect(await snapshot(h)).toEqual(before);
  });
});

describe("audios.get and audios.markOpened (SPEC §2.11, §4)", () => {
  it("gives signed URLs and the task; lastOpened only to admins", async () => {
    const audio = await assignedAudio(h, admin, staff);
    const fresh = await h.caller(admin).audios.get({ audioId: audio.id });
    expect(fresh).toMatchObject({
      id: audio.id,
      filename: audio.filename,
      category: "Control",
      mimeType: "audio/wav",
      transcriptUrl: null,
      lastOpened: null,
      task: {
        assignedTo: { id: staff.id, username: staff.username },
        translationStatus: "In Progress",
        recordingStatus: "In Progress",
        isComplete: false,
      },
    });
    expect(signedKey(fresh.audioUrl)).toMatch(/^audios\//);

    await expect(h.caller(admin).audios.markOpened({ audioId: audio.id })).resolves.toEqual({ ok: true });
    const opened = await h.caller(admin).audios.get({ audioId: audio.id });
    expect(opened.lastOpened?.username).toBe(admin.username);
    expect(opened.lastOpened?.id).toBe(admin.id);
    expect(Date.now() - Date.parse(opened.lastOpened!.at)).toBeLessThan(60_000);

    const asStaff = await h.caller(staff).audios.get({ audioId: audio.id });
    expect(asStaff.lastOpened).toBeNull();
  });

  it("staff opening changes nothing; another staff member is refused; unknown ids are NOT_FOUND", async () => {
    const audio = await assignedAudio(h, admin, staff);
    const before = await snapshot(h);
    await expect(h.caller(staff).audios.markOpened({ audioId: audio.id })).resolves.toEqual({ ok: true });
    expect(await snapshot(h)).toEqual(before);

    const forbidden = { code: "FORBIDDEN", message: "You do not have access to this audio." };
    await expect(h.caller(other).audios.get({ audioId: audio.id })).rejects.toMatchObject(forbidden);
    await expect(h.caller(other).audios.markOpened({ audioId: audio.id })).rejects.toMatchObject(forbidden);
    const notFound = { code: "NOT_FOUND", message: "Audio not found." };
    await expect(h.caller(admin).audios.get({ audioId: crypto.randomUUID() })).rejects.toMatchObject(notFound);
    await expect(h.caller(staff).audios.markOpened({ audioId: crypto.randomUUID() })).rejects.toMatchObject(notFound);
    expect(await snapshot(h)).toEqual(before);
  });

  it("lets a staff member open an audio recommended to them", async () => {
    const audio = await assignedAudio(h, admin, staff);
    await expect(h.caller(other).audios.get({ audioId: audio.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await recommend(h, audio.id, other, staff);
    await expect(h.caller(other).audios.get({ audioId: audio.id })).resolves.toMatchObject({
      id: audio.id,
      lastOpened: null,
    });
  });

  it("refuses staff an audio that has no task", async () => {
    const audio = await newAudio(h, admin);
    await expect(h.caller(staff).audios.get({ audioId: audio.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
  });
});

describe("audios.list and audios.unassigned (SPEC §2.17, §2.18)", () => {
  let lh: TestHarness;
  let ladmin: SessionUser;
  let lstaff: SessionUser;
  const names = ["delta", "alpha", "echo", "charlie", "bravo"];
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    lh = await createHarness();
    ladmin = await lh.createUser("Admin");
    lstaff = await lh.createUser("Staff");
    for (const name of names) ids[name] = (await newAudio(lh, ladmin, { filename: name, category: "Dementia" })).id;
    await newAudio(lh, ladmin, { filename: "control_one", category: "Control" });
    await lh.caller(ladmin).tasks.assign({ audioId: ids.charlie!, staffId: lstaff.id });
    await attachInitialTranscript(lh.deps, ladmin, { audioId: ids.echo!, text: "hello" });
    // Durations as the waveform job writes them; the others stay unknown (null).
    const durations: Record<string, number> = { charlie: 3723.4, alpha: 245.3 };
    for (const [name, seconds] of Object.entries(durations))
      await lh.deps.db.updateTable("audios").set({ durationSeconds: seconds }).where("id", "=", ids[name]!).execute();
  });
  afterAll(() => lh.close());

  it("lists a category's audios newest first with task fields, paginated with totalPages", async () => {
    const page1 = await lh.caller(ladmin).audios.list({ category: "Dementia", page: 1, limit: 2 });
    expect(page1.totalPages).toBe(3);
    expect(page1.items.map((a) => a.filename)).toEqual(["bravo", "charlie"]);
    const page3 = await lh.caller(ladmin).audios.list({ category: "Dementia", page: 3, limit: 2 });
    expect(page3.items.map((a) => a.filename)).toEqual(["delta"]);
    const beyond = await lh.caller(ladmin).audios.list({ category: "Dementia", page: 9, limit: 2 });
    expect(beyond).toEqual({ items: [], totalPages: 3 });

    const all = await lh.caller(ladmin).audios.list({ category: "Dementia" });
    expect(all.items).toHaveLength(5);
    expect(all.items.find((a) => a.filename === "charlie")).toEqual({
      id: ids.charlie,
      filename: "charlie",
      category: "Dementia",
      assignedTo: { id: lstaff.id, username: lstaff.username },
      translationStatus: "In Progress",
      recordingStatus: "In Progress",
      isComplete: false,
      hasTranscript: false,
      durationSeconds: 3723.4,
      participantCode: null,
      sessionDate: null,
      sourceLanguage: null,
      targetLanguage: null,
    });
    expect(all.items.find((a) => a.filename === "echo")).toMatchObject({
      assignedTo: null,
      translationStatus: null,
      recordingStatus: null,
      isComplete: null,
      hasTranscript: true,
      durationSeconds: null,
    });
    const control = await lh.caller(ladmin).audios.list({ category: "Control" });
    expect(control.items.map((a) => a.filename)).toEqual(["control_one"]);
  });

  it("lists a category's audios without a task by filename", async () => {
    const out = await lh.caller(ladmin).audios.unassigned({ category: "Dementia", page: 1, limit: 3 });
    expect(out).toEqual({
      items: [
        { id: ids.alpha, filename: "alpha", durationSeconds: 245.3 },
        { id: ids.bravo, filename: "bravo", durationSeconds: null },
        { id: ids.delta, filename: "delta", durationSeconds: null },
      ],
      totalPages: 2,
    });
    const page2 = await lh.caller(ladmin).audios.unassigned({ category: "Dementia", page: 2, limit: 3 });
    expect(page2.items.map((a) => a.filename)).toEqual(["echo"]);
    const empty = await lh.caller(ladmin).audios.unassigned({ category: "Dementia", page: 5, limit: 3 });
    expect(empty).toEqual({ items: [], totalPages: 2 });
  });

  it("gives every unassigned page, from either end of the list, as one long page does", async () => {
    // A page past the middle is read from the far end of the index (pageFromNearerEnd).
    const whole = await lh.caller(ladmin).audios.unassigned({ category: "Dementia", limit: 100 });
    expect(whole.items.length).toBeGreaterThan(2);
    for (const limit of [1, 2, 3]) {
      const pages = Math.ceil(whole.items.length / limit);
      const seen: unknown[] = [];
      for (let page = 1; page <= pages + 1; page++) {
        const out = await lh.caller(ladmin).audios.unassigned({ category: "Dementia", page, limit });
        expect(out.totalPages).toBe(pages);
        seen.push(...out.items);
      }
      expect(seen).toEqual(whole.items);
    }
  });

  it("answers an empty category with no items and zero pages", async () => {
    const fresh = await createHarness();
    try {
      const a = await fresh.createUser("Admin");
      await expect(fresh.caller(a).audios.list({ category: "Control" })).resolves.toEqual({ items: [], totalPages: 0 });
      await expect(fresh.caller(a).audios.unassigned({ category: "Control" })).resolves.toEqual({
        items: [],
        totalPages: 0,
      });
    } finally {
      await fresh.close();
    }
  });
});

describe("audios.delete (SPEC §2.18, ARCHITECTURE)", () => {
  it("removes the audio with its task, submission, versions, recordings, comments, recommendations and files; notifications stay", async () => {
    const audio = await assignedAudio(h, admin, staff);
    await attachInitialTranscript(h.deps, admin, { audioId: audio.id, text: "initial" });
    await h.caller(staff).transcripts.save({ audioId: audio.id, text: "one" });
    await h.caller(staff).transcripts.save({ audioId: audio.id, text: "two" });
    await uploadRecording(h.deps, staff, { audioId: audio.id, recordedBy: staff.id, file: await tempWav(h) });
    await uploadRecording(h.deps, staff, { audioId: audio.id, recordedBy: staff.id, file: await tempWav(h) });
    const { task: taskBefore, submission } = await workState(h, audio.id);
    await h.deps.db
      .insertInto("comments")
      .values({ submissionId: submission!.id, text: "nice", postedBy: admin.id })
      .execute();
    await recommend(h, audio.id, other, staff);

    const audioFiles = (await listFiles(h)).filter((f) => f.includes(audio.id));
    const row = await h.deps.db
      .selectFrom("audios")
      .select("fileKey")
      .where("id", "=", audio.id)
      .executeTakeFirstOrThrow();
    const notificationsBefore = await h.deps.db
      .selectFrom("notifications")
      .select("id")
      .where("audioId", "=", audio.id)
      .execute();
    expect(notificationsBefore.length).toBeGreaterThan(0);

    await expect(h.caller(admin).audios.delete({ audioId: audio.id })).resolves.toEqual({
      message: "Audio deleted successfully.",
    });

    const task = await h.deps.db.selectFrom("tasks").select("id").where("audioId", "=", audio.id).executeTakeFirst();
    expect(task).toBeUndefined();
    const db = h.deps.db;
    const subId = submission!.id;
    expect(await db.selectFrom("submissions").select("id").where("id", "=", subId).execute()).toHaveLength(0);
    expect(
      await db.selectFrom("transcriptVersions").select("id").where("submissionId", "=", subId).execute(),
    ).toHaveLength(0);
    expect(
      await db.selectFrom("translatedRecordings").select("id").where("submissionId", "=", subId).execute(),
    ).toHaveLength(0);
    expect(await db.selectFrom("comments").select("id").where("submissionId", "=", subId).execute()).toHaveLength(0);
    const recs = await h.deps.db
      .selectFrom("recommendations")
      .select("id")
      .where("taskId", "=", taskBefore.id)
      .execute();
    expect(recs).toHaveLength(0);
    const after = await listFiles(h);
    expect(after.filter((f) => f.includes(audio.id))).toEqual([]);
    expect(after).not.toContain(row.fileKey);
    expect(audioFiles).toHaveLength(5);
    const notificationsAfter = await h.deps.db
      .selectFrom("notifications")
      .select("id")
      .where("audioId", "=", audio.id)
      .execute();
    expect(notificationsAfter).toHaveLength(notificationsBefore.length);

    await expect(h.caller(admin).audios.delete({ audioId: audio.id })).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: "Audio not found.",
    });
  });
});
