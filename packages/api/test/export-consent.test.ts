import { afterAll, beforeEach, describe, expect, it } from "vitest";
import JSZip from "jszip";
import { chatRuleViolations } from "@tafsiri/domain";
import type { Category } from "@tafsiri/db";
import { describeError } from "../src/errors/describe-error";
import { supersedeExportsOfParticipant } from "../src/export/supersede";
import { exportJobsIdle } from "../src/services/exports";
import { linkToParticipant } from "@tafsiri/db/testing/participants";
import { approvedWork, harnessWithUsers } from "./workflow-fixtures";

// Decision 024, the consent gate: an export takes only audios whose participant gave consent (and
// restricted consent when asked), counts what it left out and why, carries each participant's
// fields in its manifests and CHAT files, records which participants it holds, and is superseded
// (its link answers 410) when one of them withdraws consent.

const { h, admin, staff } = await harnessWithUsers();
afterAll(() => h.close());

type Choice = Parameters<ReturnType<typeof h.caller>["exports"]["create"]>[0];
type Row = Record<string, string | number | null>;

/** Starts an export and waits for its job; answers the export as the list shows it. */
async function exportAndWait(choice: Choice) {
  const started = await h.caller(admin).exports.create(choice);
  await exportJobsIdle();
  const item = (await h.caller(admin).exports.list({ limit: 100 })).items.find((e) => e.id === started.id);
  if (!item) throw new Error("export not listed");
  return item;
}

/** The zip a ready export's link points at, read from storage. */
async function zipOf(downloadUrl: string | null): Promise<JSZip> {
  expect(downloadUrl).not.toBeNull();
  const key = decodeURIComponent(new URL(downloadUrl!, "http://x").pathname.replace(/^\/files\//, ""));
  const chunks: Buffer[] = [];
  for await (const chunk of await h.deps.storage.read(key)) chunks.push(chunk as Buffer);
  return JSZip.loadAsync(Buffer.concat(chunks));
}

async function manifestOf(zip: JSZip): Promise<Row[]> {
  const text = (await zip.file("manifest.jsonl")!.async("string")).trim();
  return text === "" ? [] : text.split("\n").map((line) => JSON.parse(line) as Row);
}

/** An approved, completed audio of `category`. */
const work = (category: Category, text?: string) => approvedWork(h, admin, staff, { category, text });

/** The participants export `exportId` is recorded as holding. */
async function heldBy(exportId: string): Promise<string[]> {
  const rows = await h.deps.db
    .selectFrom("exportParticipants")
    .select("participantId")
    .where("exportId", "=", exportId)
    .execute();
  return rows.map((r) => r.participantId).sort();
}

/** Sets a participant's consent, as the participants service would before superseding. */
async function setConsent(participantId: string, consentStatus: "given" | "restricted" | "withdrawn") {
  await h.deps.db.updateTable("participants").set({ consentStatus }).where("id", "=", participantId).execute();
}

beforeEach(async () => {
  await h.deps.db.deleteFrom("exports").execute();
});

describe("the consent gate", () => {
  it("leaves out audios without a participant or consent, counts them by reason, and takes restricted ones only when asked", async () => {
    // Dementia holds exactly these five approved audios in this file.
    const given = await work("Dementia");
    const restricted = await work("Dementia");
    const withdrawn = await work("Dementia");
    const notRecorded = await work("Dementia");
    const unlinked = await work("Dementia");
    const p = {
      given: await linkToParticipant(h.deps.db, given.id),
      restricted: await linkToParticipant(h.deps.db, restricted.id, { consentStatus: "restricted" }),
      withdrawn: await linkToParticipant(h.deps.db, withdrawn.id, { consentStatus: "withdrawn" }),
      notRecorded: await linkToParticipant(h.deps.db, notRecorded.id, { consentStatus: "not_recorded" }),
    };

    const plain = await exportAndWait({ category: "Dementia" });
    expect(plain).toMatchObject({ state: "ready", total: 1, includeRestricted: false, supersededAt: null });
    const zip = await zipOf(plain.downloadUrl);
    expect((await manifestOf(zip)).map((r) => r.audio_id)).toEqual([given.id]);
    // Nothing of a left-out audio is in the zip.
    for (const left of [restricted, withdrawn, notRecorded, unlinked]) {
      expect(Object.keys(zip.files).some((name) => name.includes(left.filename))).toBe(false);
    }
    expect(JSON.parse(await zip.file("left_out.json")!.async("string"))).toEqual({
      include_restricted: false,
      left_out: { no_participant: 1, consent_not_recorded: 1, consent_withdrawn: 1, consent_restricted: 1 },
      left_out_total: 4,
    });
    expect((await zip.file("left_out.csv")!.async("string")).split("\r\n")).toEqual([
      "reason,audios,meaning",
      "no_participant,1,No participant is linked to the audio.",
      "consent_not_recorded,1,The participant's consent is not recorded.",
      "consent_withdrawn,1,The participant withdrew consent.",
      'consent_restricted,1,"The participant\'s consent is restricted, and the export did not include restricted consent."',
      "",
    ]);
    expect(await heldBy(plain.id)).toEqual([p.given.id]);

    // With includeRestricted: another choice (not the same zip offered again), the restricted one is in.
    const withRestricted = await exportAndWait({ category: "Dementia", includeRestricted: true });
    expect(withRestricted).toMatchObject({ state: "ready", total: 2, includeRestricted: true, reusedArchive: false });
    const zip2 = await zipOf(withRestricted.downloadUrl);
    const rows = await manifestOf(zip2);
    expect(rows.map((r) => r.audio_id).sort()).toEqual([given.id, restricted.id].sort());
    expect(rows.find((r) => r.audio_id === restricted.id)).toMatchObject({ consent_status: "restricted" });
    expect(JSON.parse(await zip2.file("left_out.json")!.async("string"))).toMatchObject({
      include_restricted: true,
      left_out: { no_participant: 1, consent_not_recorded: 1, consent_withdrawn: 1, consent_restricted: 0 },
      left_out_total: 3,
    });
    expect(await heldBy(withRestricted.id)).toEqual([p.given.id, p.restricted.id].sort());

    // Linking the unlinked audio changes what the plain choice holds: not the earlier zip again.
    await linkToParticipant(h.deps.db, unlinked.id);
    const again = await exportAndWait({ category: "Dementia" });
    expect(again).toMatchObject({ total: 2, reusedArchive: false });
    expect(JSON.parse(await (await zipOf(again.downloadUrl)).file("left_out.json")!.async("string"))).toMatchObject({
      left_out: { no_participant: 0 },
      left_out_total: 3,
    });
  });
});

describe("participant data in the manifests and the CHAT files", () => {
  it("carries the participant as of the session (age, scores nearest the session) and never the notes", async () => {
    const audio = await work("Control", "Nilienda sokoni jana.");
    await h.deps.db.updateTable("audios").set({ durationSeconds: 61.25 }).where("id", "=", audio.id).execute();
    const participant = await linkToParticipant(
      h.deps.db,
      audio.id,
      {
        sex: "female",
        birthDate: "1953-08-20",
        educationYears: 12,
        languages: ["swa", "eng"],
        notes: "Lives with her daughter; SECRET-NOTE",
        consentDate: "2026-01-05",
        scores: [
          { instrument: "MMSE", score: 24, takenOn: "2025-01-10" },
          { instrument: "MMSE", score: 21, takenOn: "2026-03-01" },
          { instrument: "MoCA", score: 19, takenOn: null },
        ],
      },
      "2026-02-25",
    );
    const item = await exportAndWait({ category: "Control" });
    const zip = await zipOf(item.downloadUrl);
    const row = (await manifestOf(zip)).find((r) => r.audio_id === audio.id);
    expect(row).toMatchObject({
      session_date: "2026-02-25",
      participant_code: participant.code,
      participant_group: "Control",
      sex: "female",
      age_months: 870,
      age_chat: "72;06.",
      education_years: 12,
      languages: "swa;eng",
      mmse: 21,
      mmse_taken_on: "2026-03-01",
      moca: 19,
      moca_taken_on: null,
      consent_status: "given",
      audio_duration_seconds: 61.25,
    });
    const csv = await zip.file("manifest.csv")!.async("string");
    expect(csv).toContain(
      `,2026-02-25,${participant.code},Control,female,870,72;06.,12,swa;eng,21,2026-03-01,19,,given`,
    );
    // No notes anywhere in the zip.
    for (const entry of Object.values(zip.files)) {
      expect(await entry.async("string"), entry.name).not.toContain("SECRET-NOTE");
    }

    const cha = await zip.file(String(row!.transcript_file))!.async("string");
    expect(chatRuleViolations(cha)).toEqual([]);
    // A translation without a source is what the file holds: its language (swa) is on @ID (decision 035).
    const id = cha.split("\n").find((line) => line.startsWith("@ID:\tswa|tafsiri|PAR|"));
    expect(id).toBeDefined();
    expect(id).toContain("|72;06.|female|Control|");
    expect(id).toContain("|12|");
    expect(cha).toMatch(/@Date:\t25-FEB-2026\n/);
  });

  it("an edit of the participant writes the .cha again on the next export: no stale file is reused", async () => {
    const audio = await work("Control");
    const participant = await linkToParticipant(
      h.deps.db,
      audio.id,
      { sex: "male", ageMonths: 800, ageRecordedOn: "2026-04-01" },
      "2026-04-01",
    );
    const first = await exportAndWait({ category: "Control" });
    const firstRows = await manifestOf(await zipOf(first.downloadUrl));
    const before = firstRows.find((r) => r.audio_id === audio.id)!;
    expect(before).toMatchObject({ sex: "male", age_months: 800, age_chat: "66;08." });

    await h.deps.db
      .updateTable("participants")
      .set({ sex: "female", ageMonths: 801 })
      .where("id", "=", participant.id)
      .execute();
    const second = await exportAndWait({ category: "Control" });
    expect(second).toMatchObject({ state: "ready", reusedArchive: false });
    // Every other file is copied as it was; this audio's .cha is written again.
    expect(second.reusedFiles).toBe(firstRows.length * 3 - 1);
    const zip = await zipOf(second.downloadUrl);
    const after = (await manifestOf(zip)).find((r) => r.audio_id === audio.id)!;
    expect(after).toMatchObject({ sex: "female", age_months: 801, age_chat: "66;09." });
    expect(after.transcript_sha256).not.toBe(before.transcript_sha256);
    expect(after.audio_sha256).toBe(before.audio_sha256);
    const cha = await zip.file(String(after.transcript_file))!.async("string");
    expect(cha).toContain("|66;09.|female|Control|");
    expect(chatRuleViolations(cha)).toEqual([]);

    // A session day given since moves the age and changes the .cha too.
    await h.deps.db.updateTable("audios").set({ sessionDate: "2026-06-01" }).where("id", "=", audio.id).execute();
    const third = await exportAndWait({ category: "Control" });
    expect(third.reusedArchive).toBe(false);
    const moved = (await manifestOf(await zipOf(third.downloadUrl))).find((r) => r.audio_id === audio.id)!;
    expect(moved).toMatchObject({ session_date: "2026-06-01", age_months: 803 });
    expect(moved.transcript_sha256).not.toBe(after.transcript_sha256);
  });
});

describe("a participant withdrawing consent", () => {
  it("supersedes the ready exports holding them, audited and announced; the others stay downloadable", async () => {
    const leaving = await work("Control");
    const staying = await work("Dementia");
    const p1 = await linkToParticipant(h.deps.db, leaving.id);
    const p2 = await linkToParticipant(h.deps.db, staying.id);
    const both = await exportAndWait({ category: "both" });
    const dementia = await exportAndWait({ category: "Dementia" });
    expect(await heldBy(both.id)).toEqual(expect.arrayContaining([p1.id, p2.id]));
    expect(await heldBy(dementia.id)).not.toContain(p1.id);

    const since = new Date(Date.now() - 1000);
    const superseded = await h.deps.db.transaction().execute(async (trx) => {
      await trx.updateTable("participants").set({ consentStatus: "withdrawn" }).where("id", "=", p1.id).execute();
      return supersedeExportsOfParticipant(trx, p1.id, admin.id);
    });
    expect(superseded).toBe(1);
    // Again: nothing more to supersede.
    expect(await supersedeExportsOfParticipant(h.deps.db, p1.id, admin.id)).toBe(0);

    const list = (await h.caller(admin).exports.list({})).items;
    const gone = list.find((e) => e.id === both.id)!;
    expect(gone).toMatchObject({ state: "superseded", downloadUrl: null });
    expect(gone.supersededAt).not.toBeNull();
    expect(list.find((e) => e.id === dementia.id)).toMatchObject({ state: "ready", supersededAt: null });

    const refused = await h
      .caller(admin)
      .exports.download({ exportId: both.id })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(refused && describeError(refused)).toMatchObject({
      httpStatus: 410,
      message: "This export was superseded: a participant in it withdrew consent. Start a new export.",
    });
    // The same file; the links' expiry may fall either side of a clock second, so the paths are compared.
    const pathOf = (url: string | null | undefined) => url?.split("?")[0];
    expect(pathOf((await h.caller(admin).exports.download({ exportId: dementia.id })).url)).toBe(
      pathOf(list.find((e) => e.id === dementia.id)!.downloadUrl),
    );

    const audit = await h.deps.db
      .selectFrom("auditLog")
      .selectAll()
      .where("action", "=", "export.superseded")
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      actorId: admin.id,
      entity: "export",
      entityId: both.id,
      detail: { exportId: both.id, participantCode: p1.code },
    });
    const logs = await h.caller(admin).logs.list({ action: "export.superseded" });
    expect(logs.items[0]?.sentence).toBe(`marked an export superseded (participant ${p1.code} withdrew consent)`);
    const events = await h.deps.db
      .selectFrom("events")
      .select(["audience", "payload"])
      .where("kind", "=", "export.changed")
      .where("createdAt", ">=", since)
      .execute();
    expect(events).toContainEqual({ audience: "admins", payload: { exportId: both.id } });

    // The next export of the same choice leaves the withdrawn participant out and is not superseded.
    const next = await exportAndWait({ category: "both" });
    expect(next).toMatchObject({ state: "ready", reusedArchive: false });
    const rows = await manifestOf(await zipOf(next.downloadUrl));
    expect(rows.some((r) => r.audio_id === leaving.id)).toBe(false);
    expect(await heldBy(next.id)).not.toContain(p1.id);
    expect(await supersedeExportsOfParticipant(h.deps.db, p1.id, null)).toBe(0);
  });

  it("a withdrawal through participants.update supersedes the export holding the participant", async () => {
    const audio = await work("Control");
    const participant = await linkToParticipant(h.deps.db, audio.id);
    const item = await exportAndWait({ category: "Control" });
    expect(item.state).toBe("ready");
    await h.caller(admin).participants.update({
      participantId: participant.id,
      code: participant.code,
      group: "Control",
      consentStatus: "withdrawn",
    });
    const after = (await h.caller(admin).exports.list({})).items.find((e) => e.id === item.id)!;
    expect(after).toMatchObject({ state: "superseded", downloadUrl: null });
    await expect(h.caller(admin).exports.download({ exportId: item.id })).rejects.toMatchObject({
      message: "This export was superseded: a participant in it withdrew consent. Start a new export.",
    });
  });

  it("an export finishing while its participant withdraws is superseded as it finishes", async () => {
    const audio = await work("Control");
    const participant = await linkToParticipant(h.deps.db, audio.id);
    const read = h.deps.storage.read.bind(h.deps.storage);
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    let reading!: () => void;
    const reached = new Promise<void>((resolve) => (reading = resolve));
    h.deps.storage.read = async (key, range) => {
      reading();
      await gate;
      return read(key, range);
    };
    let started: { id: string };
    try {
      started = await h.caller(admin).exports.create({ category: "Control" });
      // The job has read the selection (the participant still consenting) and waits on the first file.
      await reached;
      await setConsent(participant.id, "withdrawn");
      // The export is still running: no finished export holds the participant yet.
      expect(await supersedeExportsOfParticipant(h.deps.db, participant.id, admin.id)).toBe(0);
    } finally {
      h.deps.storage.read = read;
      open();
    }
    await exportJobsIdle();
    const item = (await h.caller(admin).exports.list({})).items.find((e) => e.id === started.id)!;
    expect(item).toMatchObject({ state: "superseded", downloadUrl: null });
    const audit = await h.deps.db
      .selectFrom("auditLog")
      .selectAll()
      .where("action", "=", "export.superseded")
      .where("entityId", "=", started.id)
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actorId: null, detail: { participantCode: participant.code } });
  });
});

describe("hostile callers", () => {
  it("staff may not fetch a download link; unknown, running and bad ids answer clearly", async () => {
    await expect(
      h.caller(staff).exports.download({ exportId: "00000000-0000-4000-8000-000000000000" }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(
      h.caller(admin).exports.download({ exportId: "00000000-0000-4000-8000-000000000000" }),
    ).rejects.toMatchObject({ code: "NOT_FOUND", message: "Export not found." });
    await expect(h.caller(admin).exports.download({ exportId: "nope" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
    const error = await h
      .caller(admin)
      .exports.create({ includeRestricted: "yes" } as never)
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(error && describeError(error)).toMatchObject({
      httpStatus: 400,
      message: "includeRestricted must be true or false.",
    });
    expect(await h.deps.db.selectFrom("exports").select("id").execute()).toHaveLength(0);
  });
});
