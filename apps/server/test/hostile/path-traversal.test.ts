import { promises as fs } from "node:fs";
import http from "node:http";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { signFileUrl } from "@tafsiri/api";
import { appWithUsers, assignOverRest, failed, fixture, listFiles, uploadAudio } from "../fixtures/app-harness";
import { dbState } from "../fixtures/hostile-world";
import { listen } from "../fixtures/live-client";

/**
 * Hostile suite, attack: path traversal. `../` and its spellings (backslashes, `%2e%2e%2f`,
 * `..%5c`, absolute paths) in upload file names, in the ids an upload form names, in the
 * `fileUrl` of /api/fetch-files and in /files/ URLs, hoping to write or read outside the storage
 * folder. Upload names are only labels (the server picks every storage key); ids are ids; links
 * for keys outside storage are refused 403/404, even when signed with the server's own key. A
 * secret file beside the storage folder proves nothing outside it is ever read or written.
 * A `../` URL the client (or a proxy) resolves before sending lands on no route: 404 'Not found.'
 * in the error model (before the fix the answer lacked `success: false`). (NUL bytes:
 * nul-bytes.test.ts.)
 */

const { h, staffA: staff, adminToken, tokenA: staffToken } = await appWithUsers();
const baseUrl = await listen(h.app);
const tag = randomBytes(4).toString("hex");
const outsideDir = path.dirname(h.filesDir);
const outsideName = `tafsiri-outside-${tag}.txt`;
const SECRET = `secret beside the storage folder ${tag}`;
await fs.writeFile(path.join(outsideDir, outsideName), SECRET);
afterAll(async () => {
  await fs.rm(path.join(outsideDir, outsideName), { force: true });
  await h.close();
});

const wav = await fixture("hello.wav");
const target = (await uploadAudio(h, adminToken, { name: "traversal-target.wav", content: wav }))._id;
await assignOverRest(h, adminToken, target, staff);
const { fileKey: targetKey } = await h.deps.db
  .selectFrom("audios")
  .select("fileKey")
  .where("id", "=", target)
  .executeTakeFirstOrThrow();

const LINK_INVALID = "This link has expired or is invalid.";
const FILE_NOT_FOUND = "File not found.";
/** What a storage key looks like (packages/api/src/storage/file-storage.ts). */
const SAFE_KEY = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_.-]+)+$/;

/** Entries of the folder holding the storage folder whose names carry this run's tag. */
async function outsideEntries(): Promise<string[]> {
  return (await fs.readdir(outsideDir)).filter((name) => name.includes(tag)).sort();
}

/** Runs `upload`, then expects every new stored file to be a safe key inside storage and nothing new outside. */
async function expectStoredInside(upload: () => Promise<{ statusCode: number; body: string }>) {
  const [filesBefore, outsideBefore] = [await listFiles(h.filesDir), await outsideEntries()];
  const res = await upload();
  expect(res.statusCode, res.body).toBe(200);
  const added = (await listFiles(h.filesDir)).filter((f) => !filesBefore.includes(f));
  expect(added).toHaveLength(1);
  for (const key of added) {
    expect(key).toMatch(SAFE_KEY);
    expect(key).not.toContain("..");
  }
  expect(await outsideEntries()).toEqual(outsideBefore);
  expect(await listFiles(`${h.filesDir}/.tmp`)).toEqual([]);
  return res;
}

describe("traversal in upload file names: the name is a label, the server picks the key", () => {
  const NAMES: Array<[name: string, filename: string]> = [
    [`../../../../../${outsideDir}/evil-a-${tag}.wav`, `evil-a-${tag}`],
    [`..\\..\\..\\evil-b-${tag}.wav`, `evil-b-${tag}`],
    [`/etc/cron.d/evil-c-${tag}.wav`, `evil-c-${tag}`],
    [`C:\\Windows\\System32\\evil-d-${tag}.wav`, `evil-d-${tag}`],
    [`....//....//evil-e-${tag}.wav`, `evil-e-${tag}`],
    [`audios/../../evil-f-${tag}.wav`, `evil-f-${tag}`],
    // Percent signs are not decoded: the name stays a literal label.
    [`%2e%2e%2f%2e%2e%2fevil-g-${tag}.wav`, `%2e%2e%2f%2e%2e%2fevil-g-${tag}`],
  ];

  it.each(NAMES)("AUDIO named %s is stored as audio %s under audios/{uuid}.wav", async (name, filename) => {
    const res = await expectStoredInside(() =>
      h.upload("AUDIO", adminToken, [
        ["category", "Control"],
        ["file", { name, content: wav }],
      ]),
    );
    const answer = JSON.parse(res.body) as { _id: string; filename: string };
    expect(answer.filename).toBe(filename);
    const row = await h.deps.db
      .selectFrom("audios")
      .select("fileKey")
      .where("id", "=", answer._id)
      .executeTakeFirstOrThrow();
    expect(row.fileKey).toMatch(/^audios\/[0-9a-f-]{36}\.wav$/);
  });

  it("the `filename` field of a nameless part is a label too", async () => {
    const res = await expectStoredInside(() =>
      h.upload("AUDIO", adminToken, [
        ["category", "Control"],
        ["filename", `../../../etc/passwd-${tag}`],
        ["file", { name: "blob", content: wav }],
      ]),
    );
    expect(JSON.parse(res.body)).toMatchObject({ filename: `passwd-${tag}` });
  });

  it.each([[".."], ["../../.wav"], [`..%5c..%5cevil-${tag}.wav`]])(
    "a name that is nothing but a path (%s) leaves no filename: refused, nothing stored",
    async (name) => {
      const before = await dbState(h);
      const res = await h.upload("AUDIO", adminToken, [
        ["category", "Control"],
        ["file", { name, content: wav }],
      ]);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toEqual(failed("The selected file is not a valid audio file."));
      expect(await dbState(h)).toEqual(before);
    },
  );

  it("transcripts and recordings named with ../ are stored under keys of the server's", async () => {
    const trap = `../../../../${outsideDir}/evil-${tag}`;
    await expectStoredInside(() =>
      h.upload("INITIAL_TRANSCRIPT", adminToken, [
        ["audioId", target],
        ["file", { name: `${trap}.txt`, content: "initial text" }],
      ]),
    );
    await expectStoredInside(() =>
      h.upload("AUDIOTRANSLATION", staffToken, [
        ["audioId", target],
        ["recordedBy", staff.id],
        ["file", { name: `${trap}.wav`, content: wav }],
      ]),
    );
    await expectStoredInside(() =>
      h.upload("TRANSLATED_TRANSCRIPT", staffToken, [
        ["audioId", target],
        ["file", { name: `${trap}.cha`, content: "*PAR: habari\n" }],
      ]),
    );
  });
});

describe("traversal in the ids an upload form names", () => {
  const traversal = `../../../../${outsideDir}/pwn-${tag}`;
  it.each([
    ["INITIAL_TRANSCRIPT", "audioId", adminToken, 404, "Audio not found."],
    ["AUDIOTRANSLATION", "audioId", staffToken, 404, "Audio not found."],
    ["AUDIOTRANSLATION", "recordedBy", staffToken, 400, "Please select a staff to recorded the audio."],
    ["TRANSLATED_TRANSCRIPT", "audioId", staffToken, 400, "Unknown id."],
  ] as const)("%s with %s = ../… is refused, nothing written", async (kind, field, token, status, message) => {
    const fields: Record<string, string> = { audioId: target, recordedBy: staff.id, [field]: traversal };
    const name = kind === "INITIAL_TRANSCRIPT" ? "t.txt" : kind === "TRANSLATED_TRANSCRIPT" ? "t.cha" : "t.wav";
    const before = await dbState(h);
    const outsideBefore = await outsideEntries();
    const res = await h.upload(kind, token, [
      ["audioId", fields.audioId!],
      ["recordedBy", fields.recordedBy!],
      ["file", { name, content: kind === "AUDIOTRANSLATION" ? wav : "text" }],
    ]);
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json()).toEqual(failed(message));
    expect(await dbState(h)).toEqual(before);
    expect(await outsideEntries()).toEqual(outsideBefore);
  });
});

describe("traversal in the fileUrl of POST /api/fetch-files", () => {
  it.each([
    [`../${outsideName}`],
    [`audios/../../${outsideName}`],
    [`/files/..%2f..%2f${outsideName}`],
    [`%2e%2e/%2e%2e/${outsideName}`],
    [`/files/audios%2f..%2f..%2f${outsideName}`],
    [`${targetKey}/../../../${outsideName}`],
    [`audios\\..\\..\\${outsideName}`],
    [path.join(outsideDir, outsideName)],
    [`file://${path.join(outsideDir, outsideName)}`],
    [`http://evil.example/files/../../${outsideName}`],
  ])("%s answers 404 'File not found.' and signs nothing", async (fileUrl) => {
    for (const token of [adminToken, staffToken]) {
      const res = await h.call("POST", "/api/fetch-files", token, { fileUrl, folder: "../.." });
      expect(res.statusCode, res.body).toBe(404);
      expect(res.json()).toEqual(failed(FILE_NOT_FOUND));
    }
  });

  it("a fileUrl that does not decode answers 400 'fileUrl is required.'", async () => {
    const res = await h.call("POST", "/api/fetch-files", adminToken, { fileUrl: "%" });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(failed("fileUrl is required."));
  });
});

/** GETs `rawPath` over a real socket, exactly as written (no client resolves `..` or decodes it). */
function rawGet(rawPath: string): Promise<{ statusCode: number; body: string }> {
  return new Promise((resolve, reject) => {
    const { hostname, port } = new URL(baseUrl);
    const req = http.request({ hostname, port, path: rawPath, method: "GET" }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ statusCode: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("traversal in /files/ URLs", () => {
  const absolute = path.join(outsideDir, outsideName);
  /** [the key the route would see, how the URL spells it] */
  const SPELLINGS: Array<[key: string, spelled: string]> = [
    [`../${outsideName}`, `../${outsideName}`],
    [`audios/../../${outsideName}`, `audios/../../${outsideName}`],
    [`audios/../../${outsideName}`, `audios/..%2f..%2f${outsideName}`],
    [`audios/../../${outsideName}`, `audios/%2e%2e/%2e%2e/${outsideName}`],
    [`audios/../../${outsideName}`, `audios%2f%2e%2e%2f%2e%2e%2f${outsideName}`],
    [`audios\\..\\..\\${outsideName}`, `audios%5c..%5c..%5c${outsideName}`],
    [absolute, absolute],
  ];

  it.each(SPELLINGS)("unsigned, %s (spelled %s) answers 403", async (_key, spelled) => {
    const res = await rawGet(`/files/${spelled}?expires=9999999999&signature=forged`);
    expect(res.statusCode, res.body).toBe(403);
    expect(JSON.parse(res.body)).toEqual(failed(LINK_INVALID));
    expect(res.body).not.toContain(SECRET);
  });

  it.each(SPELLINGS)(
    "signed with the server's own key, %s (spelled %s) still reads nothing outside storage: 404",
    async (key, spelled) => {
      const [, query] = signFileUrl(h.deps.jwtSecret, key).split("?");
      const res = await rawGet(`/files/${spelled}?${query}`);
      expect(res.statusCode, res.body).toBe(404);
      expect(JSON.parse(res.body)).toEqual(failed(FILE_NOT_FOUND));
      expect(res.body).not.toContain(SECRET);
    },
  );

  it("(the control: a signed link for a real key is served)", async () => {
    const served = await rawGet(signFileUrl(h.deps.jwtSecret, targetKey));
    expect(served.statusCode).toBe(200);
  });
});

describe("a resolved ../ URL that names no route answers 404 in the error model", () => {
  it.each([
    ["GET", "/files/../api/secret"],
    ["GET", "/api/audios/../../api/nothing-here"],
    ["POST", "/auth/../auth/nothing-here"],
    ["GET", "/trpc/../api/x"],
  ] as const)("%s %s", async (method, url) => {
    const res = await h.app.inject({ method, url });
    expect(res.statusCode, res.body).toBe(404);
    expect(res.json()).toEqual(failed("Not found."));
  });
});
