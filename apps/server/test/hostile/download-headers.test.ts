import { afterAll, describe, expect, it } from "vitest";
import contentDisposition from "content-disposition";
import type { LightMyRequestResponse } from "fastify";
import { appWithUsers, assignOverRest, fixture, uploadAudio } from "../fixtures/app-harness";

/**
 * Attack: a stored file opened straight from its signed link (a transcript holding markup, an
 * "audio" a browser might sniff) must not be rendered as a page of ours, and a download must
 * carry a name. Every /files answer says `Content-Disposition` (inline for audio, attachment for
 * transcripts; RFC 6266 with an RFC 5987 `filename*` when the name is not ASCII) beside
 * `X-Content-Type-Options: nosniff`, and every answer carries a `Permissions-Policy` that
 * denies the camera and geolocation (the web app uses neither) and allows the microphone to our
 * own origin only (a take recorded in the browser, decision 018), never to another's frame.
 */

const { h, staffA: staff, adminToken, tokenA: staffToken } = await appWithUsers();
afterAll(() => h.close());

const wav = await fixture("hello.wav");

/** GETs a signed /files URL (no Authorization header, as an <audio> element or a link does). */
function download(url: string, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
  return h.app.inject({ method: "GET", url, headers });
}

/** The audio's signed URLs as GET /api/audios/{id} answers them. */
async function audioLinks(audioId: string): Promise<{ audioUrl: string; transcript: string | null }> {
  const res = await h.call("GET", `/api/audios/${audioId}`, adminToken);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ audioUrl: string; transcript: string | null }>();
}

/** Expects a file answer's disposition type and (decoded) file name, with nosniff beside it. */
function expectDisposition(res: LightMyRequestResponse, type: "inline" | "attachment", filename: string) {
  expect(res.statusCode, res.body).toBeLessThan(300);
  const header = res.headers["content-disposition"];
  expect(header, "Content-Disposition").toBeTypeOf("string");
  expect(contentDisposition.parse(header as string)).toEqual({ type, parameters: { filename } });
  expect(res.headers["x-content-type-options"]).toBe("nosniff");
  return header as string;
}

describe("Content-Disposition on every file answer", () => {
  it("serves an audio inline under its own name, also on a Range request", async () => {
    const { _id } = await uploadAudio(h, adminToken, { name: "interview-07.wav", content: wav });
    const { audioUrl } = await audioLinks(_id);
    const header = expectDisposition(await download(audioUrl), "inline", "interview-07.wav");
    expect(header).toBe('inline; filename="interview-07.wav"');
    const partial = await download(audioUrl, { range: "bytes=0-9" });
    expect(partial.statusCode).toBe(206);
    expectDisposition(partial, "inline", "interview-07.wav");
  });

  it("gives a name beyond ASCII as filename*=UTF-8'' with an ASCII fallback", async () => {
    const { _id, filename } = await uploadAudio(h, adminToken, { name: "mahojiano-ŋombe “bibi”.wav", content: wav });
    expect(filename).toBe("mahojiano-ŋombe “bibi”");
    const header = expectDisposition(
      await download((await audioLinks(_id)).audioUrl),
      "inline",
      "mahojiano-ŋombe “bibi”.wav",
    );
    expect(header).toContain("filename*=UTF-8''mahojiano-%C5%8Bombe%20%E2%80%9Cbibi%E2%80%9D.wav");
    // The plain `filename` is only ASCII, for clients without RFC 5987.
    expect(header).toMatch(/; filename="[\x20-\x7e]+";/);
  });

  it("sends an initial transcript as an attachment", async () => {
    const { _id } = await uploadAudio(h, adminToken, { name: "with-notes.wav", content: wav });
    const attach = await h.upload("INITIAL_TRANSCRIPT", adminToken, [
      ["audioId", _id],
      ["file", { name: "notes.txt", content: "<script>alert(1)</script>\n" }],
    ]);
    expect(attach.statusCode, attach.body).toBe(200);
    const { transcript } = await audioLinks(_id);
    const res = await download(transcript ?? "");
    expectDisposition(res, "attachment", "with-notes_INITIALTRANSCRIPT.txt");
    expect(res.headers["content-type"]).toBe("text/plain; charset=utf-8");
  });

  it("sends a translated transcript as an attachment under its .cha name and a recording inline", async () => {
    const { _id } = await uploadAudio(h, adminToken, { name: "to-work-on.wav", content: wav });
    await assignOverRest(h, adminToken, _id, staff);
    const saved = await h.caller(staff).transcripts.save({ audioId: _id, text: "<h1>habari</h1>" });
    const transcript = await h.caller(staff).transcripts.get({ audioId: _id });
    expectDisposition(await download(transcript.url ?? ""), "attachment", saved.fileName);

    const upload = await h.upload("AUDIOTRANSLATION", staffToken, [
      ["audioId", _id],
      ["recordedBy", staff.id],
      ["file", { name: "take.mp3", content: await fixture("hello.mp3") }],
    ]);
    expect(upload.statusCode, upload.body).toBe(200);
    const recording = await h.caller(staff).recordings.get({ audioId: _id });
    expectDisposition(await download(recording.url ?? ""), "inline", "to-work-on_TRANSLATEDAUDIO.mp3");
  });
});

describe("Permissions-Policy among the security headers", () => {
  it("denies camera and geolocation, and the microphone to other origins, on files, REST, tRPC and health answers", async () => {
    const { _id } = await uploadAudio(h, adminToken, { name: "policy.wav", content: wav });
    const answers = [
      await download((await audioLinks(_id)).audioUrl),
      await h.call("GET", `/api/audios/${_id}`, adminToken),
      await h.app.inject({ method: "GET", url: "/healthz" }),
      await h.app.inject({ method: "GET", url: "/trpc/audios.get?input=%7B%7D" }),
    ];
    for (const res of answers) {
      const policy = String(res.headers["permissions-policy"] ?? "");
      for (const feature of ["camera=()", "microphone=(self)", "geolocation=()"]) expect(policy).toContain(feature);
      expect(res.headers["x-content-type-options"]).toBe("nosniff");
    }
  });
});
