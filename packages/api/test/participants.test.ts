import { afterAll, describe, expect, it } from "vitest";
import { ageBand, ageInMonthsOn, AGE_BANDS } from "@tafsiri/domain";
import { sql } from "kysely";
import { createAudio } from "../src/uploads/store-upload";
import { receiveUpload } from "../src/uploads/receive-upload";
import { dayIn } from "../src/services/participants";
import { approvedWork, harnessWithUsers, newAudio, tempWav } from "./workflow-fixtures";

/** Decision 024: research participants through the real procedures, on a real database. */

const { h, admin, staff, other } = await harnessWithUsers();
afterAll(() => h.close());
const asAdmin = h.caller(admin);
const today = dayIn("UTC");

let counter = 0;
/** A fresh code with a prefix unique to the test, e.g. T3-0001. */
const code = (prefix: string) => `${prefix}${String(++counter).padStart(4, "0")}`;

const auditOf = (entityId: string) =>
  h.deps.db
    .selectFrom("auditLog")
    .select(["action", "detail"])
    .where("entityId", "=", entityId)
    .orderBy("createdAt")
    .orderBy("id")
    .execute();

const countParticipants = async () =>
  Number(
    (
      await h.deps.db
        .selectFrom("participants")
        .select((eb) => eb.fn.countAll<string>().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe("create, get, update", () => {
  it("records a participant; an age without its day is today's; the code is unique whatever its case", async () => {
    const p = (
      await asAdmin.participants.create({
        code: "Uq0042",
        group: "Dementia",
        sex: "female",
        ageMonths: 866,
        languages: ["lug", "eng"],
        scores: [{ instrument: "MMSE", score: 21, takenOn: "2026-03-02" }],
        notes: "Prefers mornings.",
        consentStatus: "given",
        consentDate: "2026-03-02",
      })
    ).participant;
    expect(p).toMatchObject({ code: "Uq0042", ageRecordedOn: today, ageMonthsToday: 866, audioCount: 0 });
    expect(await asAdmin.participants.get({ participantId: p.id })).toEqual(p);
    await expect(asAdmin.participants.create({ code: "UQ0042", group: "Control" })).rejects.toMatchObject({
      code: "CONFLICT",
      message: "A participant with the code UQ0042 already exists.",
    });
    expect(await auditOf(p.id)).toEqual([{ action: "participant.created", detail: { code: "Uq0042" } }]);
  });

  it("two creates of one code at once, in other cases (two admins): one CONFLICT with its message, never a 500", async () => {
    const asSecond = h.caller(await h.createUser("Admin"));
    const results = await Promise.allSettled([
      asAdmin.participants.create({ code: "Rc0042", group: "Dementia" }),
      asSecond.participants.create({ code: "RC0042", group: "Control" }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const refused = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(refused.reason).toMatchObject({
      code: "CONFLICT",
      message: expect.stringMatching(/^A participant with the code (Rc0042|RC0042) already exists\.$/),
    });
    expect((await asAdmin.participants.list({ search: "rc0042" })).total).toBe(1);
  });

  it("refuses bad fields with their message and writes nothing", async () => {
    const before = await countParticipants();
    await expect(asAdmin.participants.create({ code: "Jane Doe", group: "Control" } as never)).rejects.toThrow(
      "never a name",
    );
    await expect(
      asAdmin.participants.create({
        code: "X1",
        group: "Control",
        scores: [{ instrument: "MMSE", score: 31, takenOn: null }],
      }),
    ).rejects.toThrow("MMSE is scored 0 to 30.");
    await expect(
      asAdmin.participants.create({ code: "X2", group: "Control", notes: "x".repeat(5001) }),
    ).rejects.toThrow("Notes are at most 5,000 characters.");
    expect(await countParticipants()).toBe(before);
  });

  it("audits one entry per fact: changed field names (no values), then the consent change", async () => {
    const p = (await asAdmin.participants.create({ code: code("AU"), group: "Control", notes: "first" })).participant;
    await asAdmin.participants.update({
      ...p,
      participantId: p.id,
      notes: "secret words",
      educationYears: 9,
      consentStatus: "withdrawn",
    });
    const entries = await auditOf(p.id);
    expect(entries.map((e) => e.action)).toEqual([
      "participant.created",
      "participant.updated",
      "participant.consent_changed",
    ]);
    expect(entries[1]!.detail).toEqual({ code: p.code, fields: ["educationYears", "notes"] });
    expect(JSON.stringify(entries)).not.toContain("secret words");
    expect(entries[2]!.detail).toEqual({ code: p.code, from: "not_recorded", to: "withdrawn" });
  });

  it("refuses a group its linked audios contradict, and an unknown id", async () => {
    const p = (await asAdmin.participants.create({ code: code("GR"), group: "Control" })).participant;
    const audio = await newAudio(h, admin, { category: "Control" });
    await asAdmin.participants.linkAudio({ audioId: audio.id, participantId: p.id, sessionDate: "2026-01-05" });
    await expect(asAdmin.participants.update({ ...p, participantId: p.id, group: "Dementia" })).rejects.toMatchObject({
      code: "CONFLICT",
      message: `Participant ${p.code} has Control audios; their category must change first.`,
    });
    await expect(
      asAdmin.participants.get({ participantId: "00000000-0000-4000-8000-000000000000" }),
    ).rejects.toMatchObject({ code: "NOT_FOUND", message: "Participant not found." });
  });
});

describe("list", () => {
  it("pages by code in SQL, searches a code prefix whatever its case (% and _ literal), filters group and consent", async () => {
    for (const [c, group, consent] of [
      ["LsB02", "Control", "given"],
      ["lsa01", "Dementia", "given"],
      ["LSC03", "Dementia", "withdrawn"],
      ["LS_04", "Control", "restricted"],
      ["Lx005", "Control", "given"],
    ] as const) {
      await asAdmin.participants.create({ code: c, group, consentStatus: consent });
    }
    const page1 = await asAdmin.participants.list({ search: "ls", limit: 2, page: 1 });
    expect(page1.items.map((p) => p.code)).toEqual(["LS_04", "lsa01"]);
    expect(page1).toMatchObject({ total: 4, totalPages: 2 });
    const page2 = await asAdmin.participants.list({ search: "LS", limit: 2, page: 2 });
    expect(page2.items.map((p) => p.code)).toEqual(["LsB02", "LSC03"]);
    expect((await asAdmin.participants.list({ search: "ls_" })).items.map((p) => p.code)).toEqual(["LS_04"]);
    expect((await asAdmin.participants.list({ search: "l%" })).total).toBe(0);
    const dementia = await asAdmin.participants.list({ search: "ls", group: "Dementia", consent: "given" });
    expect(dementia.items.map((p) => p.code)).toEqual(["lsa01"]);
    expect((await asAdmin.participants.list({ search: "ls", page: 9 })).items).toEqual([]);
  });

  it("every page of every filter, read from its nearer end, is its slice of the whole order", async () => {
    // Pages past the middle are read backwards from the far end of the order index (pageFromNearerEnd).
    for (let i = 0; i < 11; i += 1) {
      await asAdmin.participants.create({
        code: `Nr${String.fromCharCode(97 + ((i * 7) % 11))}${i}`,
        group: i % 3 === 0 ? "Dementia" : "Control",
        consentStatus: i % 2 === 0 ? "given" : "restricted",
      });
    }
    const filters = [
      {},
      { group: "Control" },
      { consent: "given" },
      { group: "Dementia", consent: "given" },
      { search: "nr" },
    ] as const;
    for (const filter of filters) {
      const all = (await asAdmin.participants.list({ ...filter, limit: 100 })).items.map((p) => p.id);
      expect(all.length, JSON.stringify(filter)).toBeGreaterThan(0);
      const pages = Math.ceil(all.length / 3);
      for (let page = 1; page <= pages + 1; page += 1) {
        const { items, total, totalPages } = await asAdmin.participants.list({ ...filter, page, limit: 3 });
        expect({ page, ids: items.map((p) => p.id), total, totalPages }, JSON.stringify(filter)).toEqual({
          page,
          ids: all.slice((page - 1) * 3, page * 3),
          total: all.length,
          totalPages: pages,
        });
      }
    }
  });

  it("counts each row's linked audios", async () => {
    const p = (await asAdmin.participants.create({ code: "CntA1", group: "Dementia" })).participant;
    for (let i = 0; i < 2; i += 1) {
      const audio = await newAudio(h, admin, { category: "Dementia" });
      await asAdmin.participants.linkAudio({ audioId: audio.id, participantId: p.id, sessionDate: null });
    }
    expect((await asAdmin.participants.list({ search: "cnta" })).items[0]).toMatchObject({
      code: "CntA1",
      audioCount: 2,
    });
  });
});

describe("audios linked to participants", () => {
  it("refuses a category mismatch and changes nothing; links and unlinks, audited", async () => {
    const p = (await asAdmin.participants.create({ code: code("LK"), group: "Dementia", birthDate: "1950-06-15" }))
      .participant;
    const audio = await newAudio(h, admin, { category: "Control" });
    await expect(
      asAdmin.participants.linkAudio({ audioId: audio.id, participantId: p.id, sessionDate: null }),
    ).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: `This audio is labelled Control but participant ${p.code} is in the Dementia group.`,
    });
    const row = await h.deps.db.selectFrom("audios").selectAll().where("id", "=", audio.id).executeTakeFirstOrThrow();
    expect(row.participantId).toBeNull();

    const dementia = await newAudio(h, admin, { category: "Dementia" });
    const linked = await asAdmin.participants.linkAudio({
      audioId: dementia.id,
      participantId: p.id,
      sessionDate: "2026-06-14",
    });
    expect(linked).toEqual({
      message: `${dementia.filename} is linked to participant ${p.code}.`,
      audioId: dementia.id,
      participant: { code: p.code, group: "Dementia", ageMonthsAtRecording: 75 * 12 + 11 },
      sessionDate: "2026-06-14",
    });
    expect(await asAdmin.participants.audios({ participantId: p.id })).toEqual([
      expect.objectContaining({ id: dementia.id, sessionDate: "2026-06-14", category: "Dementia" }),
    ]);
    await asAdmin.participants.linkAudio({ audioId: dementia.id, participantId: null, sessionDate: "2026-06-14" });
    const actions = (await auditOf(dementia.id)).map((e) => [e.action, e.detail]);
    expect(actions.slice(-2)).toEqual([
      ["audio.participant_linked", { filename: dementia.filename, participantCode: p.code, sessionDate: "2026-06-14" }],
      ["audio.participant_linked", { filename: dementia.filename, participantCode: null, sessionDate: null }],
    ]);
  });

  it("an upload may name a participant by code (any case) and a session day, checked before anything is stored", async () => {
    const p = (
      await asAdmin.participants.create({
        code: code("UP"),
        group: "Control",
        ageMonths: 800,
        ageRecordedOn: "2026-01-01",
      })
    ).participant;
    const upload = async (fields: Record<string, string>, name: string) => {
      const file = await tempWav(h);
      return receiveUpload(h.deps, admin, "AUDIO", {
        fields: { category: "Control", ...fields },
        file: { tempFile: file.tempFile, originalName: `${name}.wav`, sizeBytes: file.sizeBytes },
      });
    };
    // The caller (the REST layer) removes the form's temp file; stored files are what must not change.
    const storedNow = async () => (await h.storedFiles()).filter((f) => !f.startsWith(".tmp/"));
    const filesBefore = (await storedNow()).length;
    await expect(upload({ participant_code: "NOPE9" }, "up-unknown")).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: "Unknown participant code NOPE9.",
    });
    const dementia = (await asAdmin.participants.create({ code: code("UD"), group: "Dementia" })).participant;
    await expect(upload({ participant_code: dementia.code }, "up-mismatch")).rejects.toMatchObject({
      message: `This audio is labelled Control but participant ${dementia.code} is in the Dementia group.`,
    });
    await expect(upload({ participant_code: p.code, session_date: "2026-02-30" }, "up-badday")).rejects.toMatchObject({
      message: "session_date: This date does not exist.",
    });
    expect((await storedNow()).length).toBe(filesBefore);
    expect(await h.deps.db.selectFrom("audios").select("id").where("filename", "like", "up-%").execute()).toEqual([]);

    const done = await upload({ participant_code: p.code.toLowerCase(), session_date: "2026-03-01" }, "up-ok");
    if (done.kind !== "AUDIO") throw new Error("expected an audio");
    // Staff who may open the audio see the brief only: code, group, age at the session.
    await asAdmin.tasks.assign({ audioId: done.audioId, staffId: staff.id });
    const seen = await h.caller(staff).audios.get({ audioId: done.audioId });
    expect(seen.participant).toEqual({ code: p.code, group: "Control", ageMonthsAtRecording: 802 });
    expect(seen.sessionDate).toBe("2026-03-01");
    expect(Object.keys(seen.participant!).sort()).toEqual(["ageMonthsAtRecording", "code", "group"]);
    await expect(h.caller(other).audios.get({ audioId: done.audioId })).rejects.toMatchObject({ code: "FORBIDDEN" });
    const managed = await asAdmin.audios.list({ category: "Control", limit: 100 });
    expect(managed.items.find((a) => a.id === done.audioId)).toMatchObject({
      participantCode: p.code,
      sessionDate: "2026-03-01",
    });
  });

  it("createAudio without a participant leaves the link empty", async () => {
    const out = await createAudio(h.deps, admin, {
      filename: `plain_${Date.now()}`,
      category: "Control",
      file: await tempWav(h),
    });
    expect((await asAdmin.audios.get({ audioId: out.id })).participant).toBeNull();
  });
});

describe("CSV import and export", () => {
  const header = "code,group,sex,birth_date,age_years,age_months,languages,mmse,mmse_date,notes,consent,consent_date";

  it("refuses the whole file when a row fails, listing every problem with its line; then imports it fixed", async () => {
    const existing = (await asAdmin.participants.create({ code: "CsvOld", group: "Control", notes: "kept" }))
      .participant;
    const before = await countParticipants();
    const bad = [
      header,
      'CsvA1,Dementia,female,1950-01-02,,,lug eng,24,2026-01-10,"Said ""hello"", then left",given,2026-01-10',
      "CsvA2,Elderly,male,,72,3,lug,,,,given,",
      "CsvA3,Control,,,,,,31,,,maybe,",
      "csva1,Dementia,,,,,,,,,,",
      "CsvA4,Control,,1950-02-30,,,,,,,,",
    ].join("\n");
    const refused = await asAdmin.participants.importCsv({ csv: bad });
    expect(refused.created).toBe(0);
    expect(refused.updated).toBe(0);
    expect(refused.problems).toEqual([
      { line: 3, message: "group: Group must be Control or Dementia." },
      { line: 4, message: "mmse: MMSE is scored 0 to 30." },
      { line: 4, message: "consent: Consent must be given, restricted, withdrawn or not_recorded." },
      { line: 5, message: "The code csva1 is also on line 2." },
      { line: 6, message: "birth_date: This date does not exist." },
    ]);
    expect(await countParticipants()).toBe(before);

    const unknownColumn = await asAdmin.participants.importCsv({ csv: "code,group,name\nP1,Control,Jane\n" });
    expect(unknownColumn.problems).toEqual([{ line: 1, message: expect.stringContaining('Unknown column "name"') }]);

    const fixed = [
      header,
      'CsvA1,Dementia,female,1950-01-02,,,lug eng,24,2026-01-10,"Said ""hello"", then left",given,2026-01-10',
      "CsvA2,Control,male,,72,3,lug;eng,,,,given,",
      "CsvA3,Control,,,,,,29,,,restricted,",
      "csvold,Control,,,,,,,,,withdrawn,2026-02-01",
    ].join("\r\n");
    const imported = await asAdmin.participants.importCsv({ csv: fixed });
    expect(imported).toEqual({ message: "3 participants created, 1 updated.", created: 3, updated: 1, problems: [] });
    const a1 = (await asAdmin.participants.list({ search: "csva1" })).items[0]!;
    expect(a1).toMatchObject({
      birthDate: "1950-01-02",
      languages: ["lug", "eng"],
      scores: [{ instrument: "MMSE", score: 24, takenOn: "2026-01-10" }],
      notes: 'Said "hello", then left',
    });
    expect((await asAdmin.participants.list({ search: "csva2" })).items[0]).toMatchObject({
      ageMonths: 72 * 12 + 3,
      ageRecordedOn: today,
      languages: ["lug", "eng"],
    });
    expect(await asAdmin.participants.get({ participantId: existing.id })).toMatchObject({
      code: "csvold",
      notes: "",
      consentStatus: "withdrawn",
    });
    const audit = await h.deps.db
      .selectFrom("auditLog")
      .select(["action", "detail"])
      .where("action", "in", ["participants.imported", "participant.consent_changed"])
      .where("createdAt", ">=", new Date(Date.now() - 60_000))
      .execute();
    expect(audit).toEqual(
      expect.arrayContaining([
        { action: "participants.imported", detail: { created: 3, updated: 1 } },
        { action: "participant.consent_changed", detail: { code: "csvold", from: "not_recorded", to: "withdrawn" } },
      ]),
    );
  });

  it("exports every participant by code, and the export imports back unchanged", async () => {
    const { csv } = await asAdmin.participants.exportCsv();
    const lines = csv.trimEnd().split("\n");
    expect(lines[0]).toBe(
      "code,group,sex,birth_date,age_years,age_months,age_recorded_on,education_years,languages,mmse,mmse_date,moca,moca_date,notes,consent,consent_date",
    );
    expect(
      lines.some((l) =>
        l.startsWith('CsvA1,Dementia,female,1950-01-02,,,,,lug eng,24,2026-01-10,,,"Said ""hello"", then left",given'),
      ),
    ).toBe(true);
    const snapshot = await h.deps.db.selectFrom("participants").selectAll().orderBy("id").execute();
    const again = await asAdmin.participants.importCsv({ csv });
    expect(again.problems).toEqual([]);
    expect(again.created).toBe(0);
    const after = await h.deps.db.selectFrom("participants").selectAll().orderBy("id").execute();
    const strip = (rows: typeof snapshot) => rows.map(({ updatedAt: _u, ...rest }) => rest);
    expect(strip(after)).toEqual(strip(snapshot));
  });
});

describe("balance", () => {
  it("counts participants (age today) and approved recordings (age at the session) per group × sex × band", async () => {
    const p = (
      await asAdmin.participants.create({
        code: "BalA1",
        group: "Dementia",
        sex: "male",
        birthDate: "1950-07-01",
      })
    ).participant;
    const before = await asAdmin.participants.balance();
    const cell = (rows: typeof before.rows, band: string) =>
      rows.find((r) => r.group === "Dementia" && r.sex === "male" && r.ageBand === band)!;
    expect(before.rows).toHaveLength(2 * 3 * AGE_BANDS.length);

    const work = await approvedWork(h, admin, staff, { category: "Dementia" });
    await asAdmin.participants.linkAudio({ audioId: work.id, participantId: p.id, sessionDate: "2020-06-30" });
    const pending = await approvedWork(h, admin, staff, { category: "Dementia", recording: "pending" });
    await asAdmin.participants.linkAudio({ audioId: pending.id, participantId: p.id, sessionDate: "2020-06-30" });
    const after = await asAdmin.participants.balance();
    // 69 years and 11 months at the session; 75 or more today.
    expect(cell(after.rows, "60–69").approvedRecordings - cell(before.rows, "60–69").approvedRecordings).toBe(1);
    const nowBand = ageBand(ageInMonthsOn({ birthDate: "1950-07-01", ageMonths: null, ageRecordedOn: null }, today));
    expect(cell(after.rows, nowBand).participants).toBe(cell(before.rows, nowBand).participants);
    expect(cell(before.rows, nowBand).participants).toBeGreaterThanOrEqual(1);

    // The kept counts follow the participant's age, the session day, the recording's review and the link.
    const recordings = async (band: string) =>
      cell((await asAdmin.participants.balance()).rows, band).approvedRecordings -
      cell(before.rows, band).approvedRecordings;
    const got = await asAdmin.participants.get({ participantId: p.id });
    const {
      id: _id,
      ageMonthsToday: _a,
      consentDocumentName: _c,
      audioCount: _n,
      createdAt: _t,
      updatedAt: _u,
      ...fields
    } = got;
    await asAdmin.participants.update({ ...fields, participantId: p.id, birthDate: "1940-07-01" });
    expect([await recordings("60–69"), await recordings("70–79")]).toEqual([0, 1]);
    await asAdmin.participants.linkAudio({ audioId: work.id, participantId: p.id, sessionDate: "2025-07-01" });
    expect([await recordings("70–79"), await recordings("80–89")]).toEqual([0, 1]);
    await asAdmin.recordings.approve({ audioId: pending.id });
    expect(await recordings("80–89")).toBe(1);
    expect(await recordings("70–79")).toBe(1);
    await asAdmin.recordings.reject({ audioId: work.id, expectedStatus: "Approved" });
    expect(await recordings("80–89")).toBe(0);
    await asAdmin.participants.linkAudio({ audioId: pending.id, participantId: null });
    expect(await recordings("70–79")).toBe(0);
  });

  it("the SQL age and band agree with ageInMonthsOn and ageBand", async () => {
    const sources = [
      { birthDate: "1950-02-28", ageMonths: null, ageRecordedOn: null },
      { birthDate: "1976-03-31", ageMonths: null, ageRecordedOn: null },
      { birthDate: null, ageMonths: 599, ageRecordedOn: "2025-12-31" },
      { birthDate: null, ageMonths: 1079, ageRecordedOn: "2026-01-15" },
      { birthDate: null, ageMonths: 700, ageRecordedOn: null },
      { birthDate: null, ageMonths: null, ageRecordedOn: null },
      { birthDate: "2030-01-01", ageMonths: null, ageRecordedOn: null },
    ];
    for (const source of sources)
      for (const day of ["2026-01-14", "2026-02-28", "2026-03-01", "2066-12-31"]) {
        const row = await sql<{ months: number | null; band: string }>`
          select months, participant_age_band(months) as band
          from (select participant_age_months(${source.birthDate}::text, ${source.ageMonths}::int,
                       ${source.ageRecordedOn}::text, ${day}::text) as months) p`.execute(h.deps.db);
        const months = ageInMonthsOn(source, day);
        expect(row.rows[0], `${JSON.stringify(source)} on ${day}`).toEqual({ months, band: ageBand(months) });
      }
  });
});

describe("who may", () => {
  it("staff may call no participants procedure", async () => {
    await expect(h.caller(staff).participants.list({})).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(h.caller(staff).participants.exportCsv()).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(h.caller(null).participants.balance()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });
});
