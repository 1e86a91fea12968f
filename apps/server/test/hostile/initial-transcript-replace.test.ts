import { afterAll, describe, expect, it } from "vitest";
import { appWithUsers, failed, fixture, listFiles, uploadAudio } from "../fixtures/app-harness";

/**
 * Attack: a client skips the Manage Audios screen (which offers 'Upload Transcript' only while an
 * audio has none) and posts INITIAL_TRANSCRIPT again, silently overwriting the transcript. The
 * rule lives on the server: 409 'This audio already has a transcript.' unless the request says it
 * replaces it (`replace=true`), and a replacement is logged as one (audit detail `replaced: true`,
 * 'replaced the initial transcript of …').
 */

const { h, admin, adminToken } = await appWithUsers();
afterAll(() => h.close());

const wav = await fixture("hello.wav");
const HAS_TRANSCRIPT = "This audio already has a transcript.";
let audioCount = 0;

async function newAudio(): Promise<{ id: string; filename: string }> {
  audioCount += 1;
  const { _id, filename } = await uploadAudio(h, adminToken, { name: `replace-${audioCount}.wav`, content: wav });
  return { id: _id, filename };
}

function attach(audioId: string, text: string, replace?: string) {
  return h.upload("INITIAL_TRANSCRIPT", adminToken, [
    ["audioId", audioId],
    ...(replace === undefined ? [] : [["replace", replace] as [string, string]]),
    ["file", { name: "notes.txt", content: text }],
  ]);
}

async function storedText(audioId: string): Promise<string> {
  return h.deps.storage.readText(`initial-transcripts/${audioId}.txt`);
}

/** The audit details of the initial-transcript attachments of an audio, oldest first. */
async function attachDetails(audioId: string): Promise<unknown[]> {
  const rows = await h.deps.db
    .selectFrom("auditLog")
    .select("detail")
    .where("entity", "=", "initial-transcript")
    .where("entityId", "=", audioId)
    .orderBy("createdAt")
    .orderBy("id")
    .execute();
  return rows.map((row) => row.detail);
}

describe("POST /api/audios/upload/INITIAL_TRANSCRIPT on an audio that has one", () => {
  it("answers 409 without replace=true and keeps the transcript, leaving no file behind", async () => {
    const audio = await newAudio();
    const firstRes = await attach(audio.id, "the first text");
    expect(firstRes.statusCode, firstRes.body).toBe(200);

    const before = await h.snapshot();
    for (const replace of [undefined, "false"]) {
      const res = await attach(audio.id, "an overwrite", replace);
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json()).toEqual(failed(HAS_TRANSCRIPT));
    }
    expect(await storedText(audio.id)).toBe("the first text");
    expect(await h.snapshot()).toEqual(before);
    expect(await listFiles(`${h.filesDir}/.tmp`)).toEqual([]);
    expect(await attachDetails(audio.id)).toEqual([{ replaced: false }]);
  });

  it("replaces it with replace=true and logs a replacement", async () => {
    const audio = await newAudio();
    expect((await attach(audio.id, "the first text")).statusCode).toBe(200);
    const res = await attach(audio.id, "the second text", "true");
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      success: true,
      message: "Transcript uploaded successfully!",
      audioId: audio.id,
    });
    expect(await storedText(audio.id)).toBe("the second text");
    expect(await attachDetails(audio.id)).toEqual([{ replaced: false }, { replaced: true }]);

    const logs = await h.caller(admin).logs.list({ page: 1, limit: 100 });
    const sentences = logs.items.filter((e) => e.audio?.id === audio.id).map((e) => e.sentence);
    expect(sentences).toContain(`replaced the initial transcript of ${audio.filename}`);
    expect(sentences).toContain(`attached the initial transcript of ${audio.filename}`);
  });

  it("attaches with replace=true when there is none yet (replaced: false)", async () => {
    const audio = await newAudio();
    const res = await attach(audio.id, "only text", "true");
    expect(res.statusCode, res.body).toBe(200);
    expect(await attachDetails(audio.id)).toEqual([{ replaced: false }]);
  });

  it("refuses a replace value other than true or false", async () => {
    const audio = await newAudio();
    const res = await attach(audio.id, "text", "yes");
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(failed("replace must be true or false."));
  });

  it("lets only one of two concurrent first uploads win", async () => {
    const audio = await newAudio();
    const answers = await Promise.all([attach(audio.id, "from tab one"), attach(audio.id, "from tab two")]);
    expect(answers.map((res) => res.statusCode).sort()).toEqual([200, 409]);
    const winner = answers.find((res) => res.statusCode === 200)!;
    expect(winner).toBeDefined();
    expect(["from tab one", "from tab two"]).toContain(await storedText(audio.id));
    expect(await attachDetails(audio.id)).toEqual([{ replaced: false }]);
    expect(await listFiles(`${h.filesDir}/.tmp`)).toEqual([]);
  });
});
