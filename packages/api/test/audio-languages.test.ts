import { promises as fs } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { QueryRecorder } from "@tafsiri/db/testing/query-recorder";
import type { SessionUser } from "../src/context";
import { appRouter } from "../src/root";
import { createCallerFactory } from "../src/trpc";
import { receiveUpload, requireUploader } from "../src/uploads/receive-upload";
import { startResumableUpload } from "../src/uploads/resumable-upload";
import { createAudio } from "../src/uploads/store-upload";
import { harnessWithUsers, tempWav } from "./workflow-fixtures";

/**
 * Decision 035: an audio's own language pair, given at upload (multipart fields and tus metadata),
 * listed in Manage Audios and on the staff member's task cards (the programme's when it has none),
 * each list still one statement.
 */

const { h, admin, staff } = await harnessWithUsers();
afterAll(() => h.close());
const asAdmin = h.caller(admin);
const asStaff = h.caller(staff);

const createCaller = createCallerFactory(appRouter);

const BAD_CODE = "A language is an ISO 639-3 code of three lower-case letters, such as eng or swa.";

/** Uploads `name`.wav as an AUDIO form with `fields` (category Control) through receiveUpload, as the multipart route does. */
async function upload(user: SessionUser, name: string, fields: Record<string, string>) {
  const file = await tempWav(h);
  return receiveUpload(h.deps, user, "AUDIO", {
    fields: { category: "Control", ...fields },
    file: { tempFile: file.tempFile, originalName: `${name}.wav`, sizeBytes: file.sizeBytes },
  });
}

/** Uploads `name` with `fields` and returns its audio id. */
async function uploaded(name: string, fields: Record<string, string> = {}): Promise<string> {
  const out = await upload(admin, name, fields);
  if (out.kind !== "AUDIO") throw new Error("expected an audio");
  return out.audioId;
}

const languagesOf = (audioId: string) =>
  h.deps.db
    .selectFrom("audios")
    .select(["sourceLanguage", "targetLanguage"])
    .where("id", "=", audioId)
    .executeTakeFirstOrThrow();

/** The files kept in storage (a refused upload's temp file is the REST layer's to remove). */
const storedNow = async () => (await h.storedFiles()).filter((f) => !f.startsWith(".tmp/"));

/** How many statements `call` runs, through a database that records them. */
async function statementsOf(user: SessionUser, call: (c: ReturnType<typeof createCaller>) => Promise<unknown>) {
  const recorder = new QueryRecorder();
  await call(createCaller({ ...h.deps, db: h.deps.db.withPlugin(recorder), user }));
  return recorder.executed.length;
}

describe("at upload", () => {
  it("stores the audio's own pair from the multipart fields, audited with its creation", async () => {
    const id = await uploaded("lang-lug-eng", { source_language: "lug", target_language: "eng" });
    expect(await languagesOf(id)).toEqual({ sourceLanguage: "lug", targetLanguage: "eng" });
    const audit = await h.deps.db
      .selectFrom("auditLog")
      .select("detail")
      .where("entityId", "=", id)
      .where("action", "=", "create")
      .executeTakeFirstOrThrow();
    expect(audit.detail).toEqual({
      filename: "lang-lug-eng",
      category: "Control",
      sourceLanguage: "lug",
      targetLanguage: "eng",
    });
  });

  it("keeps the programme's languages for fields left out or empty, and takes one of the two alone", async () => {
    expect(await languagesOf(await uploaded("lang-none"))).toEqual({ sourceLanguage: null, targetLanguage: null });
    const blank = await uploaded("lang-blank", { source_language: "", target_language: " " });
    expect(await languagesOf(blank)).toEqual({ sourceLanguage: null, targetLanguage: null });
    const sourceOnly = await uploaded("lang-source-only", { source_language: "lug" });
    expect(await languagesOf(sourceOnly)).toEqual({ sourceLanguage: "lug", targetLanguage: null });
  });

  it("refuses a code that is not three lower-case letters, storing nothing", async () => {
    const filesBefore = (await storedNow()).length;
    const bad: Array<Record<string, string>> = [
      { source_language: "LUG" },
      { source_language: "lu" },
      { target_language: "english" },
      { target_language: "en1" },
      { source_language: "lug", target_language: "e n" },
    ];
    for (const [i, fields] of bad.entries()) {
      await expect(upload(admin, `lang-bad-${i}`, fields)).rejects.toMatchObject({
        code: "BAD_REQUEST",
        message: BAD_CODE,
      });
    }
    // The service itself refuses too (and removes the temp file it was handed).
    const file = await tempWav(h);
    await expect(
      createAudio(h.deps, admin, {
        filename: "lang-bad-service",
        category: "Control",
        file,
        languages: { sourceLanguage: "Lug", targetLanguage: null },
      }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST", message: BAD_CODE });
    await expect(fs.stat(file.tempFile)).rejects.toMatchObject({ code: "ENOENT" });
    expect(await storedNow()).toHaveLength(filesBefore);
    expect(await h.deps.db.selectFrom("audios").select("id").where("filename", "like", "lang-bad-%").execute()).toEqual(
      [],
    );
  });

  it("checks the tus metadata's languages before the first byte", async () => {
    const start = (user: SessionUser, metadata: Record<string, string>) =>
      startResumableUpload(h.deps, user, {
        metadata: { kind: "AUDIO", filename: "lang-tus.wav", category: "Control", ...metadata },
        uploadLength: "1024",
        maxUploadBytes: 1024 * 1024,
      });
    await expect(start(admin, { source_language: "lug", target_language: "ENG" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: BAD_CODE,
    });
    await expect(start(admin, { source_language: "lug", target_language: "eng" })).resolves.toBe("AUDIO");
    await expect(start(staff, { source_language: "lug", target_language: "eng" })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
  });

  it("lets no staff member upload an audio, with or without languages", async () => {
    expect(() => requireUploader(staff, "AUDIO")).toThrow(expect.objectContaining({ code: "FORBIDDEN" }));
    await expect(upload(staff, "lang-by-staff", { source_language: "lug" })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    expect(await h.deps.db.selectFrom("audios").select("id").where("filename", "=", "lang-by-staff").execute()).toEqual(
      [],
    );
  });
});

describe("in the lists", () => {
  it("Manage Audios rows carry the audio's own languages (null for the programme's), in one statement", async () => {
    const own = await uploaded("list-own", { source_language: "lug", target_language: "eng" });
    const programme = await uploaded("list-programme");
    const rows = (await asAdmin.audios.list({ category: "Control", limit: 100 })).items;
    expect(rows.find((r) => r.id === own)).toMatchObject({ sourceLanguage: "lug", targetLanguage: "eng" });
    expect(rows.find((r) => r.id === programme)).toMatchObject({ sourceLanguage: null, targetLanguage: null });

    await expect(
      asAdmin.translation.setAudioLanguages({ audioId: programme, sourceLanguage: "nyn", targetLanguage: null }),
    ).resolves.toMatchObject({ message: "Languages of list-programme: nyn → swa." });
    const after = (await asAdmin.audios.list({ category: "Control", limit: 100 })).items;
    expect(after.find((r) => r.id === programme)).toMatchObject({ sourceLanguage: "nyn", targetLanguage: null });
    expect(await statementsOf(admin, (c) => c.audios.list({ category: "Control", limit: 100 }))).toBe(1);
  });

  it("task cards carry the audio's pair, else the programme's (its defaults, then its settings), in one statement", async () => {
    const own = await uploaded("task-own", { source_language: "lug", target_language: "eng" });
    const half = await uploaded("task-half", { target_language: "fra" });
    const programme = await uploaded("task-programme");
    for (const audioId of [own, half, programme]) await asAdmin.tasks.assign({ audioId, staffId: staff.id });
    const pairs = async () => {
      const cards = (await asStaff.tasks.list({ limit: 100 })).items;
      return Object.fromEntries(cards.map((card) => [card.audioId, card.pair]));
    };

    // Never saved: the programme's defaults, as translation.settings answers them.
    const defaults = await asStaff.translation.settings();
    expect(await pairs()).toMatchObject({
      [own]: { source: "lug", target: "eng" },
      [half]: { source: defaults.sourceLanguages[0], target: "fra" },
      [programme]: { source: defaults.sourceLanguages[0], target: defaults.targetLanguage },
    });
    expect((await pairs())[programme]).toEqual({ source: "eng", target: "swa" });

    await asAdmin.translation.setSettings({
      sourceLanguages: ["nyn", "lug"],
      targetLanguage: "eng",
      staffWriteSource: true,
      keepChatMarkers: true,
    });
    expect(await pairs()).toMatchObject({
      [own]: { source: "lug", target: "eng" },
      [half]: { source: "nyn", target: "fra" },
      [programme]: { source: "nyn", target: "eng" },
    });
    // Admins see the same on any user's cards; the statement is one for staff and admins alike.
    const adminCards = (await asAdmin.tasks.list({ assignedTo: staff.id, limit: 100 })).items;
    expect(adminCards.find((card) => card.audioId === own)?.pair).toEqual({ source: "lug", target: "eng" });
    expect(await statementsOf(staff, (c) => c.tasks.list({ limit: 10 }))).toBe(1);
    expect(await statementsOf(admin, (c) => c.tasks.list({ limit: 10 }))).toBe(1);
  });
});
