import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  appWithUsers,
  assignOverRest,
  createAppHarness,
  fixture,
  listFiles,
  multipart,
  uploadAudio,
  type AppHarness,
} from "./fixtures/app-harness";
import { makeDocx, makePdf } from "./fixtures/documents";

const { h, staffA: staff, adminToken, tokenA: staffToken } = await appWithUsers();
afterAll(() => h.close());

/** Uploads an audio fixture as `name` in a category; returns the answer's body. */
const uploadWav = (name: string, content: Buffer, category = "Control") =>
  uploadAudio(h, adminToken, { name, content, type: "audio/wav" }, category);

/** GETs a signed /files URL and returns the response. */
function getFile(url: string, headers: Record<string, string> = {}) {
  return h.app.inject({ method: "GET", url, headers });
}

/** Expects a refused upload: status, the failure body with `message`, and nothing stored. */
async function expectRefused(run: () => ReturnType<AppHarness["upload"]>, status: number, message: string) {
  const before = await h.snapshot();
  const res = await run();
  expect(res.statusCode, res.body).toBe(status);
  expect(res.json()).toEqual({ status: "failed", success: false, message });
  expect(await h.snapshot()).toEqual(before);
  expect(await listFiles(`${h.filesDir}/.tmp`)).toEqual([]);
}

/** Assigns an audio to the staff member through the REST path. */
async function assignToStaff(audioId: string) {
  await assignOverRest(h, adminToken, audioId, staff);
}

describe("POST /api/audios/upload/AUDIO", () => {
  it("stores a WAV and an MP3, named up to the first dot, in the chosen category", async () => {
    const wav = await fixture("hello.wav");
    const mp3 = await fixture("hello.mp3");
    const first = await uploadWav("interview-one.take1.wav", wav, "Control");
    expect(first).toMatchObject({
      status: "success",
      success: true,
      filename: "interview-one",
      message: "interview-one has been uploaded successfully.",
    });
    const second = await uploadWav("interview-two.mp3", mp3, "Dementia");
    expect(second.filename).toBe("interview-two");

    const rows = await h.deps.db
      .selectFrom("audios")
      .select(["id", "filename", "category", "mimeType"])
      .orderBy("filename")
      .execute();
    expect(rows).toEqual([
      { id: first._id, filename: "interview-one", category: "Control", mimeType: "audio/wav" },
      { id: second._id, filename: "interview-two", category: "Dementia", mimeType: "audio/mpeg" },
    ]);
    expect(await listFiles(`${h.filesDir}/.tmp`)).toEqual([]);

    // The stored bytes are the uploaded bytes, served through the audio's signed URL.
    const detail = await h.call("GET", `/api/audios/${second._id}`, adminToken);
    expect(detail.statusCode, detail.body).toBe(200);
    const file = await getFile(detail.json<{ audioUrl: string }>().audioUrl);
    expect(file.statusCode).toBe(200);
    expect(file.headers["content-type"]).toBe("audio/mpeg");
    expect(file.rawPayload.equals(mp3)).toBe(true);
  });

  it("also accepts Ogg and FLAC, and fields sent after the file", async () => {
    const ogg = await h.upload("AUDIO", adminToken, [
      ["file", { name: "late-fields.ogg", content: await fixture("hello.ogg") }],
      ["category", "Dementia"],
    ]);
    expect(ogg.statusCode, ogg.body).toBe(200);
    expect(ogg.json()).toMatchObject({ filename: "late-fields" });
    const flac = await uploadWav("lossless.flac", await fixture("hello.flac"));
    expect(flac.filename).toBe("lossless");
  });

  it("refuses a second audio with the same filename and keeps nothing of it", async () => {
    const wav = await fixture("hello.wav");
    await uploadWav("twice.wav", wav);
    const before = await h.snapshot();
    const res = await h.upload("AUDIO", adminToken, [
      ["category", "Control"],
      ["file", { name: "twice.mp3", content: await fixture("hello.mp3") }],
    ]);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ status: "failed", success: false });
    expect(await h.snapshot()).toEqual(before);
  });

  it("refuses a text file renamed .mp3, leaving no row and no file", async () => {
    await expectRefused(
      () =>
        h.upload("AUDIO", adminToken, [
          ["category", "Control"],
          ["file", { name: "notes.mp3", content: "these are not sounds\n".repeat(50), type: "audio/mpeg" }],
        ]),
      400,
      "The selected file is not a valid audio file.",
    );
  });

  it("asks for a category and for a file with the messages of SPEC §5", async () => {
    const wav = await fixture("hello.wav");
    await expectRefused(
      () => h.upload("AUDIO", adminToken, [["file", { name: "a.wav", content: wav }]]),
      400,
      "Please select a category.",
    );
    await expectRefused(
      () =>
        h.upload("AUDIO", adminToken, [
          ["category", "Other"],
          ["file", { name: "a.wav", content: wav }],
        ]),
      400,
      "Please select a category.",
    );
    await expectRefused(
      () => h.upload("AUDIO", adminToken, [["category", "Control"]]),
      400,
      "Please select an audio file to upload.",
    );
    // A browser form posted without choosing a file sends an empty, nameless file part.
    await expectRefused(
      () =>
        h.upload("AUDIO", adminToken, [
          ["category", "Control"],
          ["file", { name: "", content: "" }],
        ]),
      400,
      "Please select an audio file to upload.",
    );
  });

  it("refuses callers without a token (401) and staff (403)", async () => {
    const parts: Parameters<AppHarness["upload"]>[2] = [
      ["category", "Control"],
      ["file", { name: "sneaky.wav", content: await fixture("hello.wav") }],
    ];
    await expectRefused(() => h.upload("AUDIO", null, parts), 401, "You must be signed in.");
    await expectRefused(() => h.upload("AUDIO", "not-a-token", parts), 401, "You must be signed in.");
    await expectRefused(() => h.upload("AUDIO", staffToken, parts), 403, "Only administrators may do this.");
    await expectRefused(
      () => h.upload("INITIAL_TRANSCRIPT", staffToken, parts),
      403,
      "Only administrators may do this.",
    );
  });

  it("answers 404 for an unknown kind and 400 for a body that is not multipart", async () => {
    const unknown = await h.upload("PICTURE", adminToken, [["category", "Control"]]);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toMatch(/^Unknown upload kind/);
    const json = await h.call("POST", "/api/audios/upload/AUDIO", adminToken, { category: "Control" });
    expect(json.statusCode).toBe(400);
    expect(json.json()).toEqual({
      status: "failed",
      success: false,
      message: "Send the upload as multipart/form-data.",
    });
  });

  it("refuses two files in one form (413, an over-limit request; see hostile/too-many-parts.test.ts)", async () => {
    const wav = await fixture("hello.wav");
    await expectRefused(
      () =>
        h.upload("AUDIO", adminToken, [
          ["category", "Control"],
          ["file", { name: "one.wav", content: wav }],
          ["file", { name: "two.wav", content: wav }],
        ]),
      413,
      "Please upload one file at a time.",
    );
  });
});

describe("POST /api/audios/upload/INITIAL_TRANSCRIPT", () => {
  let audioId: string;

  beforeAll(async () => {
    audioId = (await uploadWav("with-transcript.wav", await fixture("hello.wav")))._id;
  });

  /**
   * Uploads a transcript file and returns the text then shown by "View Transcript". Each test
   * replaces the previous one (`replace=true`; without it a second upload is a 409, see
   * hostile/initial-transcript-replace.test.ts).
   */
  async function attachAndRead(name: string, content: Buffer | string): Promise<string> {
    const res = await h.upload("INITIAL_TRANSCRIPT", adminToken, [
      ["audioId", audioId],
      ["replace", "true"],
      ["file", { name, content }],
    ]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      status: "success",
      success: true,
      message: "Transcript uploaded successfully!",
    });
    const detail = await h.call("GET", `/api/audios/${audioId}`, adminToken);
    const url = detail.json<{ transcript: string | null }>().transcript;
    expect(url).toMatch(/^\/files\/initial-transcripts\//);
    const file = await getFile(url ?? "");
    expect(file.statusCode).toBe(200);
    expect(file.headers["content-type"]).toBe("text/plain; charset=utf-8");
    return file.body;
  }

  it("extracts the text of a .txt (UTF-8) file", async () => {
    expect((await attachAndRead("notes.txt", "\uFEFFHabari ya asubuhi\r\nSecond line ✓\r\n")).trim()).toBe(
      "Habari ya asubuhi\nSecond line ✓",
    );
  });

  it("extracts the text of a .docx file", async () => {
    const text = await attachAndRead("notes.docx", await makeDocx(["Karibu sana", "Paragraph two & more"]));
    expect(text).toContain("Karibu sana");
    expect(text).toContain("Paragraph two & more");
  });

  it("extracts the text of a .pdf file", async () => {
    expect(await attachAndRead("notes.pdf", makePdf("Hello from a PDF (page one)"))).toContain(
      "Hello from a PDF (page one)",
    );
  });

  it("extracts the text of a .doc (Word 97-2003) file", async () => {
    const text = await attachAndRead("notes.doc", await fixture("initial-transcript.doc"));
    expect(text).toContain("Habari ya asubuhi.");
    expect(text).toContain("This is the initial transcript.");
  });

  it("refuses other extensions, content that does not match the extension, and unreadable text", async () => {
    const send = (name: string, content: Buffer | string) => () =>
      h.upload("INITIAL_TRANSCRIPT", adminToken, [
        ["audioId", audioId],
        ["file", { name, content }],
      ]);
    await expectRefused(send("scan.png", "abc"), 415, "Please select a .cha, .doc, .docx, .pdf or .txt file.");
    await expectRefused(
      send("notes.docx", "plain text pretending"),
      415,
      "The selected file is not a valid .docx file.",
    );
    await expectRefused(
      send("notes.pdf", await makeDocx(["zip inside"])),
      415,
      "The selected file is not a valid .pdf file.",
    );
    await expectRefused(send("notes.doc", makePdf("a pdf")), 415, "The selected file is not a valid .doc file.");
    await expectRefused(
      send("notes.txt", await fixture("hello.wav")),
      415,
      "The selected file is not a valid .txt file.",
    );
    await expectRefused(
      send("notes.txt", Buffer.from([0x61, 0x00, 0x62])),
      400,
      "The selected file could not be read: The file is not a plain text file.",
    );
    await expectRefused(
      send("notes.txt", Buffer.from([0x61, 0xff, 0xfe, 0x62])),
      400,
      "The selected file could not be read: The file is not valid UTF-8 text.",
    );
    await expectRefused(send("notes.txt", "  \n\n "), 400, "The transcript file has no text.");
  });

  it("asks for a file and refuses an unknown audio", async () => {
    await expectRefused(
      () => h.upload("INITIAL_TRANSCRIPT", adminToken, [["audioId", audioId]]),
      400,
      "Please select a file to upload.",
    );
    const before = await h.snapshot();
    const res = await h.upload("INITIAL_TRANSCRIPT", adminToken, [
      ["audioId", randomUUID()],
      ["file", { name: "x.txt", content: "text" }],
    ]);
    expect(res.statusCode).toBe(404);
    expect(await h.snapshot()).toEqual(before);
  });
});

describe("POST /api/audios/upload/AUDIOTRANSLATION", () => {
  let audioId: string;

  beforeAll(async () => {
    audioId = (await uploadWav("to-record.wav", await fixture("hello.wav")))._id;
    await assignToStaff(audioId);
  });

  it("stores the assignee's translated recording as Pending", async () => {
    const mp3 = await fixture("hello.mp3");
    const res = await h.upload("AUDIOTRANSLATION", staffToken, [
      ["audioId", audioId],
      ["recordedBy", staff.id],
      ["recorded_audio_approval_status", "Pending"],
      ["file", { name: "my take.mp3", content: mp3 }],
    ]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: "success", success: true, recorded_audio_approval_status: "Pending" });
    const recording = await h.caller(staff).recordings.get({ audioId });
    expect(recording).toMatchObject({ status: "Pending", recordedBy: { id: staff.id } });
    const file = await getFile(recording.url ?? "");
    expect(file.rawPayload.equals(mp3)).toBe(true);
    expect(await listFiles(`${h.filesDir}/.tmp`)).toEqual([]);
  });

  it("refuses a staff member the audio is not assigned to, keeping nothing", async () => {
    const other = await h.createUser("Staff");
    const before = await h.snapshot();
    const res = await h.upload("AUDIOTRANSLATION", await h.token(other), [
      ["audioId", audioId],
      ["recordedBy", other.id],
      ["file", { name: "take.wav", content: await fixture("hello.wav") }],
    ]);
    expect(res.statusCode).toBe(403);
    expect(await h.snapshot()).toEqual(before);
  });

  it("asks for a file and a recorder with the messages of SPEC §5, and refuses non-audio", async () => {
    await expectRefused(
      () =>
        h.upload("AUDIOTRANSLATION", staffToken, [
          ["audioId", audioId],
          ["recordedBy", staff.id],
        ]),
      400,
      "Please upload an audio file.",
    );
    await expectRefused(
      () =>
        h.upload("AUDIOTRANSLATION", staffToken, [
          ["audioId", audioId],
          ["file", { name: "take.wav", content: "x" }],
        ]),
      400,
      "Please select a staff to recorded the audio.",
    );
    await expectRefused(
      () =>
        h.upload("AUDIOTRANSLATION", staffToken, [
          ["audioId", audioId],
          ["recordedBy", staff.id],
          ["file", { name: "take.mp3", content: "I am text, not audio.\n".repeat(20) }],
        ]),
      400,
      "Invalid file type. Please select a valid audio file.",
    );
    await expectRefused(
      () => h.upload("AUDIOTRANSLATION", null, [["file", { name: "take.wav", content: "x" }]]),
      401,
      "You must be signed in.",
    );
  });
});

describe("POST /api/audios/upload/TRANSLATED_TRANSCRIPT", () => {
  let audioId: string;

  beforeAll(async () => {
    audioId = (await uploadWav("to-translate.wav", await fixture("hello.wav")))._id;
    await assignToStaff(audioId);
  });

  it("saves a .cha file's text as the transcript, Pending", async () => {
    const res = await h.upload("TRANSLATED_TRANSCRIPT", staffToken, [
      ["audioId", audioId],
      ["translation_script_approval_status", "Pending"],
      ["file", { name: "to-translate.cha", content: "*PAR: habari\n*INV: nzuri\n" }],
    ]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      status: "success",
      success: true,
      translation_script_approval_status: "Pending",
    });
    expect(res.json<{ fileName: string }>().fileName).toMatch(
      /^to-translate_TRANSLATEDTRANSCRIPT_\d{4}-\d{2}-\d{2}_\d{2}-\d{2}-\d{2}\.cha$/,
    );
    const transcript = await h.caller(staff).transcripts.get({ audioId });
    expect(transcript.text).toContain("*PAR: habari");
  });

  it("refuses an empty transcript, binary content and other extensions", async () => {
    const send = (name: string, content: Buffer | string) => () =>
      h.upload("TRANSLATED_TRANSCRIPT", staffToken, [
        ["audioId", audioId],
        ["file", { name, content }],
      ]);
    await expectRefused(send("t.cha", "   \n"), 400, "Transcript is empty.");
    await expectRefused(send("t.cha", await fixture("hello.wav")), 415, "The selected file is not a plain text file.");
    await expectRefused(send("t.docx", "text"), 415, "Please select a .cha or .txt file.");
    await expectRefused(
      () => h.upload("TRANSLATED_TRANSCRIPT", staffToken, [["audioId", audioId]]),
      400,
      "Please select a file to upload.",
    );
  });
});

describe("upload size limit", () => {
  let small: AppHarness;
  let token: string;

  beforeAll(async () => {
    small = await createAppHarness({ maxUploadBytes: 8 * 1024 });
    token = await small.token(await small.createUser("Admin"));
  });
  afterAll(() => small.close());

  it("answers 413 with the limit past MAX_UPLOAD_BYTES and leaves nothing behind", async () => {
    const before = await small.snapshot();
    const res = await small.upload("AUDIO", token, [
      ["category", "Control"],
      ["file", { name: "big.wav", content: await fixture("hello.wav") }],
    ]);
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ status: "failed", success: false, message: "File is too large. The limit is 8 KB." });
    expect(await small.snapshot()).toEqual(before);
    expect(await listFiles(`${small.filesDir}/.tmp`)).toEqual([]);
  });

  it("answers 413 over a real socket while the client is still sending", async () => {
    const address = await small.app.listen({ port: 0, host: "127.0.0.1" });
    const { body, contentType } = await multipart([
      ["category", "Control"],
      [
        "file",
        { name: "huge.wav", content: Buffer.concat([await fixture("hello.wav"), Buffer.alloc(4 * 1024 * 1024)]) },
      ],
    ]);
    const res = await fetch(`${address}/api/audios/upload/AUDIO`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": contentType },
      body,
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({
      status: "failed",
      success: false,
      message: "File is too large. The limit is 8 KB.",
    });
    expect(await listFiles(`${small.filesDir}/.tmp`)).toEqual([]);
  });

  it("applies to transcript uploads too", async () => {
    const before = await small.snapshot();
    const res = await small.upload("INITIAL_TRANSCRIPT", token, [
      ["audioId", randomUUID()],
      ["file", { name: "long.txt", content: "word ".repeat(4000) }],
    ]);
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toBe("File is too large. The limit is 8 KB.");
    expect(await small.snapshot()).toEqual(before);
  });
});
