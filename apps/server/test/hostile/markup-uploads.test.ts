import { afterAll, describe, expect, it } from "vitest";
import { appWithUsers, assignOverRest, failed, fixture, listFiles, uploadAudio } from "../fixtures/app-harness";
import { dbState } from "../fixtures/hostile-world";

/**
 * Hostile suite, attack: markup with script uploaded as audio or as a transcript, hoping a
 * browser later renders it as a page of ours (stored XSS). HTML, SVG and XHTML are refused as
 * audio and as a recording, and under any markup or document extension as a transcript, with the
 * spec's message and nothing stored. A transcript is plain text: markup typed into a .txt or .cha
 * is kept as the text it is and only ever served as `text/plain` with `nosniff`, as an
 * attachment, never as markup.
 */

const { h, staffA: staff, adminToken, tokenA: staffToken } = await appWithUsers();
afterAll(() => h.close());

const wav = await fixture("hello.wav");
const target = (await uploadAudio(h, adminToken, { name: "markup-target.wav", content: wav }))._id;
await assignOverRest(h, adminToken, target, staff);

const MARKUP = {
  HTML: "<!DOCTYPE html><html><body><script>fetch('/auth/users')</script><img src=x onerror=alert(1)></body></html>\n",
  SVG: '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(document.domain)</script></svg>\n',
  "SVG with an XML declaration":
    '<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>\n',
  XHTML:
    '<?xml version="1.0"?>\n<html xmlns="http://www.w3.org/1999/xhtml"><body><script>alert(1)</script></body></html>\n',
};
type Markup = keyof typeof MARKUP;
const ALL = Object.keys(MARKUP) as Markup[];

const NOT_AUDIO = "The selected file is not a valid audio file.";
const NOT_RECORDING = "Invalid file type. Please select a valid audio file.";
const INITIAL_TYPES = "Please select a .cha, .doc, .docx, .pdf or .txt file.";
const TRANSLATED_TYPES = "Please select a .cha or .txt file.";
const notValid = (ext: string) => `The selected file is not a valid ${ext} file.`;

interface Case {
  what: Markup;
  kind: "AUDIO" | "AUDIOTRANSLATION" | "INITIAL_TRANSCRIPT" | "TRANSLATED_TRANSCRIPT";
  name: string;
  type: string;
  status: number;
  message: string;
}

const CASES: Case[] = [
  ...ALL.flatMap((what) =>
    ["page.wav", "page.mp3", "page.ogg", "page.html", "image.svg"].map((name): Case => ({
      what,
      kind: "AUDIO",
      name,
      type: "audio/mpeg",
      status: 400,
      message: NOT_AUDIO,
    })),
  ),
  ...ALL.flatMap((what) =>
    ["take.mp3", "take.wav", "take.svg"].map((name): Case => ({
      what,
      kind: "AUDIOTRANSLATION",
      name,
      type: "audio/wav",
      status: 400,
      message: NOT_RECORDING,
    })),
  ),
  ...ALL.flatMap((what) =>
    ["notes.html", "notes.htm", "notes.svg", "notes.xhtml", "notes.xml"].flatMap((name): Case[] => [
      { what, kind: "INITIAL_TRANSCRIPT", name, type: "text/html", status: 415, message: INITIAL_TYPES },
      { what, kind: "TRANSLATED_TRANSCRIPT", name, type: "text/html", status: 415, message: TRANSLATED_TYPES },
    ]),
  ),
  ...ALL.flatMap((what) =>
    [".docx", ".doc", ".pdf"].map((ext): Case => ({
      what,
      kind: "INITIAL_TRANSCRIPT",
      name: `notes${ext}`,
      type: "text/plain",
      status: 415,
      message: notValid(ext),
    })),
  ),
  // XML (an SVG or XHTML with a declaration) is a typed document, not plain text.
  ...(["SVG with an XML declaration", "XHTML"] as Markup[]).flatMap((what): Case[] => [
    { what, kind: "INITIAL_TRANSCRIPT", name: "notes.txt", type: "text/plain", status: 415, message: notValid(".txt") },
    {
      what,
      kind: "TRANSLATED_TRANSCRIPT",
      name: "t.cha",
      type: "text/plain",
      status: 415,
      message: "The selected file is not a plain text file.",
    },
  ]),
];

function send(c: Case) {
  const file = { name: c.name, content: MARKUP[c.what], type: c.type };
  switch (c.kind) {
    case "AUDIO":
      return h.upload("AUDIO", adminToken, [
        ["category", "Control"],
        ["file", file],
      ]);
    case "AUDIOTRANSLATION":
      return h.upload("AUDIOTRANSLATION", staffToken, [
        ["audioId", target],
        ["recordedBy", staff.id],
        ["file", file],
      ]);
    case "INITIAL_TRANSCRIPT":
    case "TRANSLATED_TRANSCRIPT":
      return h.upload(c.kind, c.kind === "INITIAL_TRANSCRIPT" ? adminToken : staffToken, [
        ["audioId", target],
        ["file", file],
      ]);
  }
}

describe("markup uploaded as audio, as a recording, or under a markup or document name, is refused", () => {
  it.each(CASES.map((c) => [c.what, c.name, c.kind, c] as const))("%s named %s as %s", async (_w, _n, _k, c) => {
    const before = await dbState(h);
    const res = await send(c);
    expect(res.statusCode, res.body).toBe(c.status);
    expect(res.json()).toEqual(failed(c.message));
    expect(await dbState(h)).toEqual(before);
    expect(await listFiles(`${h.filesDir}/.tmp`)).toEqual([]);
  });
});

/** GETs a signed /files URL and expects it served as plain text, an attachment, never sniffed. */
async function expectServedAsText(url: string, text: string) {
  const res = await h.app.inject({ method: "GET", url });
  expect(res.statusCode).toBe(200);
  expect(res.headers["content-type"]).toBe("text/plain; charset=utf-8");
  expect(res.headers["x-content-type-options"]).toBe("nosniff");
  expect(String(res.headers["content-disposition"])).toMatch(/^attachment;/);
  expect(res.body).toBe(text);
}

describe("markup typed into a plain-text transcript stays text", () => {
  it("an initial transcript .txt holding HTML is stored as that text and served as text/plain", async () => {
    const audio = (await uploadAudio(h, adminToken, { name: "html-initial.wav", content: wav }))._id;
    const res = await h.upload("INITIAL_TRANSCRIPT", adminToken, [
      ["audioId", audio],
      ["file", { name: "notes.txt", content: MARKUP.HTML, type: "text/html" }],
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const detail = await h.call("GET", `/api/audios/${audio}`, adminToken);
    await expectServedAsText(detail.json<{ transcript: string }>().transcript, MARKUP.HTML.trim());
  });

  it("a translated transcript .cha holding SVG is stored as that text and served as text/plain", async () => {
    const res = await h.upload("TRANSLATED_TRANSCRIPT", staffToken, [
      ["audioId", target],
      ["file", { name: "t.cha", content: MARKUP.SVG, type: "image/svg+xml" }],
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const transcript = await h.caller(staff).transcripts.get({ audioId: target });
    expect(transcript.text).toBe(MARKUP.SVG);
    await expectServedAsText(transcript.url ?? "", MARKUP.SVG);
  });
});
